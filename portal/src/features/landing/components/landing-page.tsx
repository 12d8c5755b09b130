/**
 * The landing page: fixed top bar linking to / with the short name,
 * header with the title, BETA badge and subtitle, the grid of three tool cards, the Getting
 * Started panel and the footer with the year, rights line and tagline. Public: no session, map or
 * backend code. A skip link before the top bar and the content in one main landmark, for keyboard
 * and screen-reader users.
 */
import { Link } from 'react-router-dom';
import type { ToolCard } from '@shared/types.js';
import { SkipLink, mainContentProps } from '../../../components/layouts/skip-link.js';
import { TopBar } from '../../../components/layouts/top-bar.js';
import { Badge } from '../../../components/ui/badge.js';
import { APP_SHORT_NAME, PRODUCT_SUBTITLE, PRODUCT_TITLE, TAGLINE } from '../../../config/app.js';
import { paths } from '../../../config/paths.js';
import { usePageTitle } from '../../../hooks/use-page-title.js';
import { useRuntimeConfig } from '../../../lib/runtime-config.js';
import { toolCards } from '../tool-cards.js';
import { ToolCardView } from './tool-card.js';
import '../landing.css';

export function LandingPage({ cards: given, year = new Date().getFullYear() }: { cards?: readonly ToolCard[]; year?: number }) {
  const config = useRuntimeConfig();
  usePageTitle(PRODUCT_TITLE);
  const cards = given ?? toolCards(config.status === 'success' ? config.data.toolViewerUrls : undefined);
  return (
    <div className="landing">
      <SkipLink />
      <TopBar brand={APP_SHORT_NAME} />
      <main {...mainContentProps} className="landing-main skip-target">
        <div className="landing-hero">
          <h1 className="landing-title">
            {PRODUCT_TITLE} <Badge tone="purple">BETA</Badge>
          </h1>
          <p className="landing-subtitle">{PRODUCT_SUBTITLE}</p>
        </div>
        <div className="tool-grid" data-testid="tool-grid">
          {cards.map((card) => (
            <ToolCardView key={card.id} card={card} />
          ))}
        </div>
        <section className="panel landing-start">
          <h2 className="panel-title">Getting Started</h2>
          <p className="muted">Start with the inspection catalog: browse projects and their 3D models, then try the specialised viewers.</p>
          <Link className="button button-secondary" to={paths.projects.getHref()}>
            Start Exploring
          </Link>
        </section>
      </main>
      <footer className="landing-footer muted">
        <p>
          © {year} {APP_SHORT_NAME}. All rights reserved.
        </p>
        <p>{TAGLINE}</p>
      </footer>
    </div>
  );
}
