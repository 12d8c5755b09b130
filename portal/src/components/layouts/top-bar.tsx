import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { paths } from '../../config/paths.js';

/**
 * The fixed top bar of the shell: `brand` links to /; `start` sits before it
 * (the shell's menu button on phones); `children` sit on the right.
 */
export function TopBar({ brand, start, children }: { brand: string; start?: ReactNode; children?: ReactNode }) {
  return (
    <header className="top-bar">
      <div className="top-bar-start">
        {start}
        <Link to={paths.landing.getHref()} className="top-bar-brand">
          {brand}
        </Link>
      </div>
      {children}
    </header>
  );
}
