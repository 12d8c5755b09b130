/** Any unknown path: 'Page Not Found' as the page's main landmark and h1, with a way home. */
import { Link } from 'react-router-dom';
import { mainContentProps } from '../../components/layouts/skip-link.js';
import { EmptyState } from '../../components/ui/empty-state.js';
import { paths } from '../../config/paths.js';
import { usePageTitle } from '../../hooks/use-page-title.js';

export default function NotFoundRoute() {
  usePageTitle('Page Not Found');
  return (
    <main {...mainContentProps} className="standalone-main skip-target">
      <EmptyState level={1} title="Page Not Found" text="The page you are looking for does not exist.">
        <Link className="button button-primary" to={paths.landing.getHref()}>
          Go Home
        </Link>
      </EmptyState>
    </main>
  );
}
