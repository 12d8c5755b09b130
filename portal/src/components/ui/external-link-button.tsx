import type { ReactNode } from 'react';

/**
 * A link that opens in a new tab once `href` is known; until then a disabled button reading
 * 'Preparing...' (where the link will read e.g. 'View Model' / 'View 3D'). When there is nothing to link to at all
 * (`unavailable`, e.g. 'No 3D file'), a disabled button saying so instead of a 'Preparing...'
 * that would never end.
 */
export function ExternalLinkButton({
  href,
  children,
  variant = 'primary',
  describedBy,
  unavailable = null,
}: {
  href: string | null;
  children: ReactNode;
  variant?: 'primary' | 'secondary';
  /** Id(s) of what tells this link apart from its twins, e.g. the model's name (aria-describedby). */
  describedBy?: string;
  /** Why there will never be a link (shown on the disabled button), or null. */
  unavailable?: string | null;
}) {
  if (unavailable !== null) {
    return (
      <button type="button" className={`button button-${variant}`} disabled aria-describedby={describedBy}>
        {unavailable}
      </button>
    );
  }
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
