/** /catalog, the catalog home: see `features/catalog`, on the live projects and their summaries (model counts). */
import { SignedInPage } from '../../../components/layouts/signed-in-page.js';
import { CatalogHome } from '../../../features/catalog/components/catalog-home.js';
import { usePageTitle } from '../../../hooks/use-page-title.js';
import { useProjectSummaries } from '../../../features/projects/api/use-project-summaries.js';
import { useProjects } from '../../../features/projects/api/use-projects.js';

function Catalog() {
  return <CatalogHome projects={useProjects()} summaries={useProjectSummaries()} />;
}

/** The hero's heading, also the document title. */
const CATALOG_TITLE = 'Infrastructure Inspection Catalog';

export default function CatalogRoute() {
  usePageTitle(CATALOG_TITLE);
  return (
    <SignedInPage
      signedOut={{ text: 'Please sign in to access the catalog.' }}
      hero
      title={CATALOG_TITLE}
      subtitle="Inspection projects and their 3D models, over time."
    >
      <Catalog />
    </SignedInPage>
  );
}
