/** /projects/{projectId}/add-model: admin only (the router's guard); page title 'Add Model – {project}'. */
import { Link, useParams } from 'react-router-dom';
import { paths } from '../../../config/paths.js';
import { AddModelPage } from '../../../features/add-model/components/add-model-page.js';
import { useProject } from '../../../features/projects/api/use-project.js';
import { usePageTitle } from '../../../hooks/use-page-title.js';

export default function AddModelRoute() {
  const { projectId = '' } = useParams();
  const project = useProject(projectId);
  const loaded = project.status === 'success' && project.data !== null;
  usePageTitle(loaded && project.data ? `Add Model – ${project.data.name}` : 'Add Model');
  return (
    <div className="page">
      <AddModelPage project={project} doneHref={paths.project.getHref(projectId)}>
        {(current) => (
          <>
            <nav className="breadcrumb" aria-label="Breadcrumb">
              <Link to={paths.projects.getHref()}>Projects</Link>
              <span aria-hidden="true"> &gt; </span>
              <Link to={paths.project.getHref(current.id)}>{current.name}</Link>
              <span aria-hidden="true"> &gt; </span>
              <span>Add Model</span>
            </nav>
            <h1 className="page-title" tabIndex={-1}>
              Add New Model
            </h1>
          </>
        )}
      </AddModelPage>
    </div>
  );
}
