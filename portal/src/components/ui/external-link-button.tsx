import type { ReactNode } from 'react';

/**
 * A link that opens in a new tab once `href` is known; until then a disabled button reading
 * 'Preparing...' (SPEC.md §2 'View Model' / 'View 3D').
 */
export function ExternalLinkButton({
  href,
  children,
  variant = 'primary',
}: {
  href: string | null;
  children: ReactNode;
  variant?: 'primary' | 'secondary';
}) {
  if (href === null) {
    return (
      <button type="button" className={`button button-${variant}`} disabled>
        Preparing...
      </button>
    );
  }
  return (
    <a className={`button button-${variant}`} href={href} target="_blank" rel="noopener noreferrer">
      {children}
    </a>
  );
}
