/** /projects/{projectId}/add-model (SPEC.md §2 Add model): admin only; placeholder until the add-model issue. */
import { Link, useParams } from 'react-router-dom';
import { paths } from '../../../config/paths.js';

export default function AddModelRoute() {
  const { projectId = '' } = useParams();
  return (
    <div className="page">
      <nav className="breadcrumb" aria-label="Breadcrumb">
        <Link to={paths.projects.getHref()}>Projects</Link>
        <span aria-hidden="true"> / </span>
        <Link to={paths.project.getHref(projectId)}>Project</Link>
        <span aria-hidden="true"> / </span>
        <span>Add Model</span>
      </nav>
      <h1 className="page-title">Add New Model</h1>
      <p className="muted">The upload form arrives in a later release. Use `catalog models add` from the CLI meanwhile.</p>
    </div>
  );
}
