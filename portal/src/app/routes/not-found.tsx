import { Link } from 'react-router-dom';
import { EmptyState } from '../../components/ui/empty-state.js';
import { paths } from '../../config/paths.js';

export default function NotFoundRoute() {
  return (
    <EmptyState title="Page Not Found" text="The page you are looking for does not exist.">
      <Link className="button button-primary" to={paths.landing.getHref()}>
        Go Home
      </Link>
    </EmptyState>
  );
}
