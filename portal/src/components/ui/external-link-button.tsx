import type { ReactNode } from 'react';

/**
 * A link that opens in a new tab once `href` is known; until then a disabled button reading
 * 'Preparing...' (SPEC.md §2 'View Model' / 'View 3D').
 */
export function ExternalLinkButton({
  href,
  children,
  variant = 'primary',
  describedBy,
}: {
  href: string | null;
  children: ReactNode;
  variant?: 'primary' | 'secondary';
  /** Id(s) of what tells this link apart from its twins, e.g. the model's name (issue 19: aria-describedby). */
  describedBy?: string;
}) {
  if (href === null) {
    return (
      <button type="button" className={`button button-${variant}`} disabled aria-describedby={describedBy}>
        Preparing...
      </button>
    );
  }
  return (
    <a className={`button button-${variant}`} href={href} target="_blank" rel="noopener noreferrer" aria-describedby={describedBy}>
      {children}
    </a>
  );
}
