/**
 * The page frame of the shell's screens: without a role, the screen's
 * 'Login Required' state (the shell redirects to /login meanwhile); with one, the page and
 * its header: a hero (the catalog) or a page header with the title and an optional subtitle.
 */
import type { ReactNode } from 'react';
import type { Role } from '@shared/types.js';
import { useRole } from '../../lib/session.js';
import { EmptyState } from '../ui/empty-state.js';

export interface SignedInPageProps {
  /** The state shown without a role. */
  signedOut: { title?: string; text: string };
  /** The page title (none: no header). */
  title?: string;
  subtitle?: string;
  /** The catalog's hero header instead of the page header. */
  hero?: boolean;
  /** The page's content, or a function of the signed-in role giving it. */
  children: ReactNode | ((role: Role) => ReactNode);
}

function PageHeader({ title, subtitle, hero }: { title: string; subtitle?: string; hero: boolean }) {
  if (hero) {
    return (
      <header className="hero">
        <h1 className="page-title">{title}</h1>
        {subtitle ? <p className="muted">{subtitle}</p> : null}
      </header>
    );
  }
  return (
    <header className="page-header">
      {subtitle ? (
        <div>
          <h1 className="page-title">{title}</h1>
          <p className="muted">{subtitle}</p>
        </div>
      ) : (
        <h1 className="page-title">{title}</h1>
      )}
    </header>
  );
}

export function SignedInPage({ signedOut, title, subtitle, hero = false, children }: SignedInPageProps) {
  const role = useRole();
  // The state is the whole screen: its title is the page's h1.
  if (role === null) return <EmptyState level={1} title={signedOut.title ?? 'Login Required'} text={signedOut.text} />;
  return (
    <div className="page">
      {title ? <PageHeader title={title} subtitle={subtitle} hero={hero} /> : null}
      {typeof children === 'function' ? children(role) : children}
    </div>
  );
}
