/** /catalog (SPEC.md §2 Catalog home): see `features/catalog`. */
import { EmptyState } from '../../../components/ui/empty-state.js';
import { CatalogHome } from '../../../features/catalog/components/catalog-home.js';
import { useRole } from '../../../lib/session.js';

export default function CatalogRoute() {
  const role = useRole();
  if (role === null) return <EmptyState title="Login Required" text="Please sign in to access the catalog." />;
  return (
    <div className="page">
      <header className="hero">
        <h1 className="page-title">Infrastructure Inspection Catalog</h1>
        <p className="muted">Inspection projects and their 3D models, over time.</p>
      </header>
      <CatalogHome />
    </div>
  );
}
