import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { paths } from '../../config/paths.js';

/** The fixed top bar (SPEC.md §2 Landing page, Shell): `brand` links to /; `children` sit on the right. */
export function TopBar({ brand, children }: { brand: string; children?: ReactNode }) {
  return (
    <header className="top-bar">
      <Link to={paths.landing.getHref()} className="top-bar-brand">
        {brand}
      </Link>
      {children}
    </header>
  );
}
