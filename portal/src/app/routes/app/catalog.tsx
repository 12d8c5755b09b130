/** /catalog (SPEC.md §2 Catalog home): see `features/catalog`, on the live projects and models. */
import { SignedInPage } from '../../../components/layouts/signed-in-page.js';
import { CatalogHome } from '../../../features/catalog/components/catalog-home.js';
import { useModels } from '../../../features/models/api/use-models.js';
import { useProjects } from '../../../features/projects/api/use-projects.js';

function Catalog() {
  return <CatalogHome projects={useProjects()} models={useModels()} />;
}

export default function CatalogRoute() {
  return (
    <SignedInPage
      signedOut={{ text: 'Please sign in to access the catalog.' }}
      hero
      title="Infrastructure Inspection Catalog"
      subtitle="Inspection projects and their 3D models, over time."
    >
      <Catalog />
    </SignedInPage>
  );
}
