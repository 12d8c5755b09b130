/**
 * The model list screen's content: a live list of every model the
 * caller may see, ordered by publicId, in a react-window v2 virtualised `List` 600px high with
 * 120px rows; a search box (publicId, name, project name or structure ID) and a project
 * filter, each row naming its project with a link to it.
 *
 * For screen readers: the count ('N models found'; '1 model found') is a polite status, so a search or
 * filter is announced; the visibility error is an alert region present before its text; Tab and
 * Shift+Tab walk past the rows the list has rendered (the next row is scrolled in and takes focus).
 * A list that failed to load says so ('Failed to load models list.') instead of looking empty.
 */
import { useMemo, useState, type KeyboardEvent, type ReactNode } from 'react';
import { List, useListRef, type RowComponentProps } from 'react-window';
import { ErrorCode, isAppError } from '@shared/errors.js';
import { MODEL_LIST_HEIGHT_PX, MODEL_LIST_ROW_HEIGHT_PX } from '@shared/constants.js';
import { formatCount } from '@shared/format.js';
import { ModelMessages } from '@shared/messages.js';
import { visibleModelsFor } from '@shared/roles.js';
import { searchModelsWithProjects } from '@shared/search.js';
import type { Model, Project } from '@shared/types.js';
import { projectLabel } from '@shared/projects.js';
import { EmptyState } from '../../../components/ui/empty-state.js';
import { tabbableIn } from '../../../components/ui/focus.js';
import { LoadingState } from '../../../components/ui/spinner.js';
import { useViewerUrl } from '../../../lib/runtime-config.js';
import { useSetModelVisibility } from '../api/set-visibility.js';
import {
  thumbnailPathOf,
  useDownloadUrl,
  useDownloadUrlCache,
  viewingPath,
  type DownloadUrlCache,
} from '../../../hooks/use-download-url.js';
import { useModels } from '../api/use-models.js';
import { useUploadModel } from '../api/upload-model.js';
import { UploadPanel } from './upload-panel.js';
import '../models.css';
import { ModelRowView } from './model-row.js';

interface RowProps {
  models: Model[];
  projectsById: ReadonlyMap<string, Project>;
  viewerUrl: string | null;
  isAdmin: boolean;
  onToggleVisibility: (model: Model) => void;
  /** Rows re-mount as they scroll back into view: their links are resolved once per screen. */
  links: DownloadUrlCache;
}

function ModelRow({
  index,
  style,
  ariaAttributes,
  models,
  projectsById,
  viewerUrl,
  isAdmin,
  onToggleVisibility,
  links,
}: RowComponentProps<RowProps>) {
  const model = models[index] as Model;
  const project = typeof model.projectId === 'string' ? (projectsById.get(model.projectId) ?? null) : null;
  const link = useDownloadUrl(viewingPath(model), links);
  const thumbnail = useDownloadUrl(thumbnailPathOf(model), links);
  return (
    <ModelRowView
      model={model}
      project={project}
      style={style}
      ariaAttributes={ariaAttributes}
      thumbnailUrl={thumbnail.status === 'success' ? thumbnail.data : null}
      linkReady={link.status === 'success'}
      viewerUrl={viewerUrl}
      isAdmin={isAdmin}
      onToggleVisibility={onToggleVisibility}
    />
  );
}

/**
 * Tab on a row's last control (Shift+Tab on its first) when the next (previous) row is not
 * rendered yet: scrolls it in and focuses its first (last) control once it is there.
 * @param event the keydown inside the list
 * @param rowCount rows in the list
 * @param scrollToRow the list's scrollToRow
 */
export function walkPastRenderedRows(event: KeyboardEvent<HTMLElement>, rowCount: number, scrollToRow: (index: number) => void): void {
  if (event.key !== 'Tab' || event.altKey || event.ctrlKey || event.metaKey) return;
  const list = event.currentTarget;
  const active = document.activeElement;
  const row = active?.closest('[aria-posinset]');
  if (!active || !row || !list.contains(row)) return;
  const index = Number(row.getAttribute('aria-posinset')) - 1;
  const inRow = tabbableIn(row);
  const target = event.shiftKey ? index - 1 : index + 1;
  if (target < 0 || target >= rowCount) return;
  if (inRow[event.shiftKey ? 0 : inRow.length - 1] !== active) return; // Tab stays inside the row
  const selector = `[aria-posinset="${target + 1}"]`;
  const rendered = list.querySelector(selector);
  if (tabbableIn(rendered).length > 0) return; // the browser finds it
  event.preventDefault();
  scrollToRow(target);
  let frames = 0;
  const focusWhenRendered = () => {
    const next = tabbableIn(list.querySelector(selector));
    const control = event.shiftKey ? next[next.length - 1] : next[0];
    if (control) control.focus();
    else if (++frames < 30) requestAnimationFrame(focusWhenRendered);
  };
  requestAnimationFrame(focusWhenRendered);
}

/**
 * What a failed Hide or Show says: 'Failed to update visibility', followed by the reason when the
 * workflow refused for one the admin can act on (hiding the project's reference model).
 */
export function visibilityFailure(error: unknown): string {
  if (isAppError(error, ErrorCode.FailedPrecondition)) return `${ModelMessages.visibilityFailed}: ${error.message}`;
  return ModelMessages.visibilityFailed;
}

/** The admin upload panel on the project list (the app's route feeds it the live projects). */
export function AdminUploadPanel({ projects }: { projects: Project[] }) {
  const upload = useUploadModel();
  return <UploadPanel projects={projects} onUpload={upload} />;
}

/**
 * The list; `projects` (the live projects, in display order) name each row's project and fill the
 * project filter; `uploadPanel` (admins: an `AdminUploadPanel` on the live projects) shows above it.
 */
export function ModelList({
  isAdmin,
  projects = [],
  uploadPanel = null,
}: {
  isAdmin: boolean;
  projects?: Project[];
  uploadPanel?: ReactNode;
}) {
  const models = useModels();
  const [term, setTerm] = useState('');
  const [projectFilter, setProjectFilter] = useState('');
  const projectsById = useMemo(() => new Map(projects.map((p) => [p.id, p])), [projects]);
  const viewerUrl = useViewerUrl();
  const setVisibility = useSetModelVisibility();
  const links = useDownloadUrlCache();
  const [error, setError] = useState<string | null>(null);
  const listRef = useListRef(null);

  function toggleVisibility(model: Model) {
    setError(null);
    setVisibility(model.id, model.visible === false).catch((caught: unknown) => {
      console.error(caught);
      setError(visibilityFailure(caught));
    });
  }

  if (models.status === 'loading') return <LoadingState label="Loading models..." />;
  // List errors are logged, not shown as an error banner, and loading ends; the list then
  // says that loading failed rather than showing an empty catalog.
  if (models.status === 'error') console.error(models.error);
  const all = models.status === 'success' ? models.data : [];
  const visibleModels = searchModelsWithProjects(
    visibleModelsFor(isAdmin ? 'admin' : 'user', all),
    term,
    (id) => projectsById.get(id),
    projectFilter === '' ? null : projectFilter,
  );
  const filtering = term.trim() !== '' || projectFilter !== '';

  return (
    <div className="model-list">
      <p className="muted" data-testid="model-count" role="status">
        {models.status === 'error' ? null : `${formatCount(visibleModels.length, 'model')} found`}
      </p>
      {isAdmin ? <p className="alert alert-info">To delete models or manage their files, use the Admin panel (Model Management).</p> : null}
      {isAdmin ? uploadPanel : null}
      <div role="alert">{error ? <p className="alert alert-error">{error}</p> : null}</div>
      <div className="model-filters">
        <div className="field">
          <label htmlFor="model-search">Search models</label>
          <input
            id="model-search"
            type="search"
            placeholder="publicId, name, project or structure ID..."
            value={term}
            onChange={(event) => setTerm(event.target.value)}
          />
        </div>
        <div className="field">
          <label htmlFor="model-project-filter">Filter by project</label>
          <select id="model-project-filter" value={projectFilter} onChange={(event) => setProjectFilter(event.target.value)}>
            <option value="">All projects</option>
            {projects.map((p) => (
              <option key={p.id} value={p.id}>
                {projectLabel(p)}
              </option>
            ))}
          </select>
        </div>
      </div>
      {models.status === 'error' ? (
        <p className="alert alert-error">{ModelMessages.loadModelsFailed}</p>
      ) : visibleModels.length === 0 && filtering ? (
        <p className="muted">No models match the search.</p>
      ) : visibleModels.length === 0 ? (
        <EmptyState title="No Models Available" text="There are no 3D models in the catalog yet." />
      ) : (
        <List
          listRef={listRef}
          aria-label="Models"
          onKeyDown={(event) =>
            walkPastRenderedRows(event, visibleModels.length, (index) => listRef.current?.scrollToRow({ index, align: 'auto' }))
          }
          className="virtual-list"
          rowComponent={ModelRow}
          rowCount={visibleModels.length}
          rowHeight={MODEL_LIST_ROW_HEIGHT_PX}
          rowProps={{ models: visibleModels, projectsById, viewerUrl, isAdmin, onToggleVisibility: toggleVisibility, links }}
          style={{ height: MODEL_LIST_HEIGHT_PX }}
        />
      )}
    </div>
  );
}
