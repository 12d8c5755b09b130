/**
 * The project detail screen's content: project facts, location,
 * and the live, sorted list of its models with viewer and compare links, a page of
 * {@link PROJECT_MODELS_PAGE_SIZE} cards at a time (a project of 300 models renders 24
 * cards and resolves only their viewing links, plus the reference's).
 */
import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import { formatDate } from '@shared/format.js';
import { sortProjectDetailModels } from '@shared/order.js';
import { addModelLinkLabel, findReferenceModel } from '@shared/projects.js';
import { ModelMessages } from '@shared/messages.js';
import type { Model, Project } from '@shared/types.js';
import { FlashBanner } from '../../../components/ui/banner.js';
import { ProjectLoadFailed, ProjectNotFound } from '../../../components/ui/empty-state.js';
import { throwIfUnreachable } from '../../../components/ui/route-error.js';
import { LoadingState } from '../../../components/ui/spinner.js';
import { paths } from '../../../config/paths.js';
import { useFlash } from '../../../hooks/use-flash.js';
import { usePageTitle } from '../../../hooks/use-page-title.js';
import { useViewerUrl } from '../../../lib/runtime-config.js';
import type { Resource } from '../../../lib/resource.js';
import { useDownloadUrl, useDownloadUrlCache, viewingPath, type DownloadUrlCache } from '../../../hooks/use-download-url.js';
import { projectPageTitle, useProjectWithModels } from '../api/use-project-with-models.js';
import { ProjectModelCard, type LinkState } from './project-model-card.js';
import { ProjectLocationSection } from './project-location.js';
import '../projects.css';

function linkStateOf(resource: Resource<string>): LinkState {
  if (resource.status === 'success') return 'ready';
  return resource.status === 'error' ? 'failed' : 'preparing';
}

/** Model cards per page of the project detail screen. */
export const PROJECT_MODELS_PAGE_SIZE = 24;

/**
 * 'Showing 25–48 of 300' with Previous / Next; nothing when everything fits on one page. The pager
 * above the cards announces the new page (a polite status), the two navigation landmarks have
 * different names, and a button that becomes disabled (the first or last page) hands focus to the
 * other one instead of dropping it.
 */
function ModelPager({
  page,
  pages,
  total,
  onPage,
  position,
}: {
  page: number;
  pages: number;
  total: number;
  onPage: (page: number) => void;
  position: 'top' | 'bottom';
}) {
  const previous = useRef<HTMLButtonElement>(null);
  const next = useRef<HTMLButtonElement>(null);
  const refocus = useRef<HTMLButtonElement | null>(null);
  useEffect(() => {
    refocus.current?.focus();
    refocus.current = null;
  }, [page]);
  if (pages <= 1) return null;
  const first = page * PROJECT_MODELS_PAGE_SIZE + 1;
  const last = Math.min(total, (page + 1) * PROJECT_MODELS_PAGE_SIZE);
  const go = (to: number, from: HTMLButtonElement | null) => {
    // the button pressed stays focused unless it becomes disabled: then the other one takes focus
    if (from !== null && from === document.activeElement)
      refocus.current = to === 0 ? next.current : to === pages - 1 ? previous.current : null;
    onPage(to);
  };
  return (
    <nav className="pager" aria-label={position === 'top' ? 'Model pages' : 'Model pages (end of list)'}>
      <button
        ref={previous}
        type="button"
        className="button button-secondary button-small"
        disabled={page === 0}
        onClick={() => go(page - 1, previous.current)}
      >
        Previous
      </button>
      <span className="muted" data-testid="model-page" role={position === 'top' ? 'status' : undefined}>
        Showing {first}–{last} of {total} · Page {page + 1} of {pages}
      </span>
      <button
        ref={next}
        type="button"
        className="button button-secondary button-small"
        disabled={page >= pages - 1}
        onClick={() => go(page + 1, next.current)}
      >
        Next
      </button>
    </nav>
  );
}

function ModelsSection({ project, models: unsorted, isAdmin }: { project: Project; models: Model[]; isAdmin: boolean }) {
  const viewerUrl = useViewerUrl();
  const [requestedPage, setPage] = useState(0);
  const models = sortProjectDetailModels(unsorted, project.reference_model_id);
  const pages = Math.max(1, Math.ceil(models.length / PROJECT_MODELS_PAGE_SIZE));
  const page = Math.min(requestedPage, pages - 1); // a page emptied by deletions shows the last one
  const shown = models.slice(page * PROJECT_MODELS_PAGE_SIZE, (page + 1) * PROJECT_MODELS_PAGE_SIZE);
  const reference = findReferenceModel(project, models);
  // The reference's link is also its own card's link: resolve each path once.
  const links = useDownloadUrlCache();
  const referenceLink = useDownloadUrl(reference ? viewingPath(reference) : null, links);
  const projectHasReference = reference !== null || Boolean(project.reference_model_id);
  return (
    <section className="panel">
      <div className="panel-head">
        <h2 className="panel-title">3D Models ({models.length})</h2>
        {isAdmin ? (
          <Link className="button button-primary" to={paths.addModel.getHref(project.id)}>
            {addModelLinkLabel(models.length)}
          </Link>
        ) : null}
      </div>
      {models.length === 0 ? <p className="muted">No models in this project yet.</p> : null}
      <ModelPager page={page} pages={pages} total={models.length} onPage={setPage} position="top" />
      <div className="model-cards">
        {shown.map((model) => (
          <ProjectModelCardWithLink
            key={model.id}
            model={model}
            reference={reference !== null && reference.id !== model.id ? reference : null}
            isReference={reference !== null && reference.id === model.id}
            projectHasReference={projectHasReference}
            referenceLinkState={reference === null ? 'failed' : linkStateOf(referenceLink)}
            viewerUrl={viewerUrl}
            isAdmin={isAdmin}
            links={links}
          />
        ))}
      </div>
      <ModelPager page={page} pages={pages} total={models.length} onPage={setPage} position="bottom" />
    </section>
  );
}

function ProjectModelCardWithLink({
  links,
  ...props
}: Omit<Parameters<typeof ProjectModelCard>[0], 'linkState'> & { links: DownloadUrlCache }) {
  const link = useDownloadUrl(viewingPath(props.model), links);
  return <ProjectModelCard {...props} linkState={linkStateOf(link)} />;
}

export function ProjectDetail({ projectId, isAdmin }: { projectId: string; isAdmin: boolean }) {
  const { project, models } = useProjectWithModels(projectId);
  // '✅ Model uploaded successfully!' handed over by the add-model page
  const flash = useFlash();
  // the page's title: the project's name once known
  usePageTitle(projectPageTitle(project, (data) => data.name));

  // Server unreachable: the route's error screen (Retry reads again), not 'Project Not Found'.
  throwIfUnreachable(project.error);
  if (project.status === 'error') {
    // the server answered with an error: say so, never that the project does not exist
    console.error(project.error);
    return <ProjectLoadFailed error={project.error} />;
  }
  if (project.status === 'loading' || models.status === 'loading') return <LoadingState label="Loading project details..." />;
  if (project.data === null) return <ProjectNotFound />;
  const data = project.data;
  return (
    <div className="project-detail">
      <nav className="breadcrumb" aria-label="Breadcrumb">
        <Link to={paths.projects.getHref()}>Projects</Link>
        <span aria-hidden="true"> / </span>
        <span aria-current="page">{data.name}</span>
      </nav>
      <header className="page-header">
        <div>
          <h1 className="page-title">{data.name}</h1>
          <p className="muted">
            Structure ID: <strong>{data.structure_id || 'Not set'}</strong>
          </p>
        </div>
        <div className="actions">
          <Link className="button button-secondary" to={paths.findings.getHref(data.id)}>
            Findings report
          </Link>
          {isAdmin ? (
            <Link className="button button-secondary" to={paths.admin.projectManagement.getHref(data.id)}>
              Project Management
            </Link>
          ) : null}
        </div>
      </header>
      <FlashBanner text={flash} />
      <div className="detail-grid">
        <section className="panel">
          <h2 className="panel-title">Details</h2>
          <p>{data.description || 'No description'}</p>
          <dl className="facts">
            <div>
              <dt>Created</dt>
              <dd>{formatDate(data.created_at ?? null)}</dd>
            </div>
          </dl>
        </section>
        <ProjectLocationSection location={data.location} />
      </div>
      {models.status === 'error' ? (
        <p className="alert alert-error">{ModelMessages.loadModelsFailed}</p>
      ) : (
        <ModelsSection project={data} models={models.data} isAdmin={isAdmin} />
      )}
    </div>
  );
}
