/** Landing page (SPEC.md §2 Landing page), minimal for now: title, BETA badge, subtitle and a link to the catalog. */
import { Link } from 'react-router-dom';
import { toolCardStatus } from '../../../../shared/landing.js';
import { Badge } from '../../components/ui/badge.js';
import { APP_SHORT_NAME, PRODUCT_SUBTITLE, PRODUCT_TITLE, TAGLINE } from '../../config/app.js';
import { paths } from '../../config/paths.js';

/** Card 1 of §2: the catalog, an internal route with status ready. */
const catalogStatus = toolCardStatus('ready');

export default function LandingRoute() {
  return (
    <div className="landing">
      <header className="top-bar">
        <Link to={paths.landing.getHref()} className="top-bar-brand">
          {APP_SHORT_NAME}
        </Link>
      </header>
      <main className="landing-main">
        <div className="landing-hero">
          <h1 className="landing-title">
            {PRODUCT_TITLE} <Badge tone="purple">BETA</Badge>
          </h1>
          <p className="landing-subtitle">{PRODUCT_SUBTITLE}</p>
        </div>
        <div className="card landing-card">
          <div className="card-body">
            <div className="landing-card-head">
              <h2 className="card-title">Infrastructure Inspection Catalog</h2>
              <Badge tone={catalogStatus.badgeColor}>{catalogStatus.label}</Badge>
            </div>
            <p className="card-text">Browse and manage 3D model collections with filtering, search and project organisation.</p>
            <Link className="button button-primary" to={paths.catalog.getHref()}>
              {catalogStatus.action}
            </Link>
            <p className="muted landing-card-footer">{catalogStatus.footer}</p>
          </div>
        </div>
        <section className="panel landing-start">
          <h2 className="panel-title">Getting Started</h2>
          <Link className="button button-secondary" to={paths.projects.getHref()}>
            Start Exploring
          </Link>
        </section>
      </main>
      <footer className="landing-footer muted">
        <p>© {new Date().getFullYear()} {APP_SHORT_NAME}. All rights reserved.</p>
        <p>{TAGLINE}</p>
      </footer>
    </div>
  );
}
