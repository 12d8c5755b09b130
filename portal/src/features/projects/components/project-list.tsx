/**
 * The project list screen's content (a card grid and a table view): live projects sorted by
 * structure_id, as cards with thumbnails from each project's reference model (its summary's
 * `referenceThumbnailPath`) or as a table (`?view=table`, the sidebar's 'Project List – Table
 * view'), and the empty state. Both render only what is near the viewport (a catalog may hold 1,000
 * projects), the page scrolling as usual.
 */
import { useId, useMemo, useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { useDynamicRowHeight, useVirtualizer } from 'react-window';
import { ModelMessages } from '@shared/messages.js';
import type { ProjectSummary } from '@shared/ports/catalog.js';
import { PROJECT_BADGE_LABELS, modelCountOf, projectBadge, referenceBadgeLabel, summaryCounts } from '@shared/projects.js';
import type { Project } from '@shared/types.js';
import { EmptyState } from '../../../components/ui/empty-state.js';
import { LoadingState } from '../../../components/ui/spinner.js';
import { VirtualCardGrid, useFocusedRow, withFocusedRows } from '../../../components/ui/virtual-card-grid.js';
import { paths } from '../../../config/paths.js';
import { useDownloadUrl } from '../../../hooks/use-download-url.js';
import type { Resource } from '../../../lib/resource.js';
import { useProjects } from '../api/use-projects.js';
import { ProjectCard } from './project-card.js';
import '../../../components/ui/stacked-table.css';
import '../projects.css';

/** Height of a row of project cards before it is measured (160 px thumbnail, title, ID, two lines of description, button, gap). */
const PROJECT_CARD_ROW_ESTIMATE_PX = 360;

function ProjectCardWithThumbnail({ project, thumbnailPath }: { project: Project; thumbnailPath: string | null }) {
  const thumbnail = useDownloadUrl(thumbnailPath);
  return <ProjectCard project={project} thumbnailUrl={thumbnail.status === 'success' ? thumbnail.data : null} />;
}

export function ProjectGrid({ projects, summaries, isAdmin }: { projects: Project[]; summaries: ProjectSummary[]; isAdmin: boolean }) {
  if (projects.length === 0) {
    return (
      <EmptyState title="No Projects Yet">
        {isAdmin ? (
          <Link className="button button-primary" to={paths.admin.projects.getHref()}>
            Create First Project
          </Link>
        ) : null}
      </EmptyState>
    );
  }
  return <ProjectCards projects={projects} summaries={summaries} />;
}

function ProjectCards({ projects, summaries }: { projects: Project[]; summaries: ProjectSummary[] }) {
  const thumbnails = useMemo(() => new Map(summaries.map((s) => [s.projectId, s.referenceThumbnailPath])), [summaries]);
  return (
    <VirtualCardGrid
      items={projects}
      itemKey={(project) => project.id}
      estimatedRowHeight={PROJECT_CARD_ROW_ESTIMATE_PX}
      testId="project-grid"
      renderItem={(project) => <ProjectCardWithThumbnail project={project} thumbnailPath={thumbnails.get(project.id) ?? null} />}
    />
  );
}

/** Height of a table row before it is measured, px. */
const TABLE_ROW_ESTIMATE_PX = 45;

function locationText(project: Project): string {
  if (project.location?.address) return project.location.address;
  return typeof project.location?.lat === 'number' ? `${project.location.lat}, ${project.location.lng}` : '—';
}

/**
 * The table view: one row per project in structure_id order (Structure ID, Name, Models,
 * Reference, Location), only the rows near the viewport in the DOM (spacer rows keep the
 * table's height); it scrolls sideways inside its box on narrow screens.
 */
export function ProjectTable({ projects, summaries }: { projects: Project[]; summaries: ProjectSummary[] }) {
  const counts = useMemo(() => summaryCounts(summaries), [summaries]);
  const [body, setBody] = useState<HTMLTableSectionElement | null>(null);
  const rowHeight = useDynamicRowHeight({ defaultRowHeight: TABLE_ROW_ESTIMATE_PX });
  const { focused, handlers } = useFocusedRow();
  const nameIdPrefix = useId();
  const {
    items: virtualRows,
    totalSize,
    measureElement,
  } = useVirtualizer({
    count: projects.length,
    element: body,
    itemSize: rowHeight,
    scrollElement: 'window',
    defaultSize: window.innerHeight, // until measured: the first render fills the window
    overscanCount: 10,
  });
  // the focused row and its neighbours stay rendered: Tab walks row by row to the last project
  const items = withFocusedRows(virtualRows, focused, projects.length, (i) => rowHeight.getRowHeight(i) ?? rowHeight.getAverageRowHeight());
  const last = items[items.length - 1];
  const after = last ? Math.max(0, totalSize - (last.offset + last.size)) : 0;
  return (
    <div className="stack-table-box">
      <table className="data-table stack-table" data-testid="project-table" aria-rowcount={projects.length + 1} aria-label="Projects">
        <thead>
          <tr>
            <th scope="col">Structure ID</th>
            <th scope="col">Name</th>
            <th scope="col">Models</th>
            <th scope="col">Reference</th>
            <th scope="col">Location</th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody ref={setBody} {...handlers}>
          {items.flatMap(({ index, offset }, position) => {
            const project = projects[index] as Project;
            const count = modelCountOf(counts, project.id);
            const badge = projectBadge(count);
            // a spacer stands for the rows not rendered before this one (at the top, or between the rendered rows and the focused one)
            const previous = items[position - 1];
            const gap = previous ? offset - (previous.offset + previous.size) : offset;
            return [
              gap > 0 ? <tr key={`gap-${index}`} aria-hidden="true" className="spacer-row" style={{ height: gap }} /> : null,
              <tr key={project.id} data-testid="project-row" data-index={index} ref={measureElement} aria-rowindex={index + 2}>
                <td className="mono" data-label="Structure ID">
                  {project.structure_id}
                </td>
                <td id={`${nameIdPrefix}-${index}`} data-label="Name">
                  {project.name}
                </td>
                <td data-label="Models">
                  {count}
                  {badge ? <span className="muted"> · {PROJECT_BADGE_LABELS[badge]}</span> : null}
                </td>
                <td data-label="Reference">{referenceBadgeLabel(project)}</td>
                <td data-label="Location">{locationText(project)}</td>
                <td data-label="">
                  <Link to={paths.project.getHref(project.id)} aria-describedby={`${nameIdPrefix}-${index}`}>
                    View Details
                  </Link>
                </td>
              </tr>,
            ];
          })}
          {after > 0 ? <tr aria-hidden="true" className="spacer-row" style={{ height: after }} /> : null}
        </tbody>
      </table>
    </div>
  );
}

/** Card grid or table, as `?view=table` says (the table only when there are projects; the empty state is shared). */
export function ProjectListView({ projects, summaries, isAdmin }: { projects: Project[]; summaries: ProjectSummary[]; isAdmin: boolean }) {
  const [searchParams, setSearchParams] = useSearchParams();
  const view = searchParams.get('view') === 'table' ? 'table' : 'grid';
  const setView = (next: 'grid' | 'table') =>
    setSearchParams(
      (current) => {
        const params = new URLSearchParams(current);
        if (next === 'table') params.set('view', 'table');
        else params.delete('view');
        return params;
      },
      { replace: true },
    );
  if (projects.length === 0) return <ProjectGrid projects={projects} summaries={summaries} isAdmin={isAdmin} />;
  return (
    <>
      <div className="tabs view-toggle" role="group" aria-label="View">
        <button
          type="button"
          className={`tab${view === 'grid' ? ' active' : ''}`}
          aria-pressed={view === 'grid'}
          onClick={() => setView('grid')}
        >
          Card Grid
        </button>
        <button
          type="button"
          className={`tab${view === 'table' ? ' active' : ''}`}
          aria-pressed={view === 'table'}
          onClick={() => setView('table')}
        >
          Table View
        </button>
      </div>
      {view === 'grid' ? (
        <ProjectGrid projects={projects} summaries={summaries} isAdmin={isAdmin} />
      ) : (
        <ProjectTable projects={projects} summaries={summaries} />
      )}
    </>
  );
}

/** The list on the live projects, with the live project summaries (thumbnails and counts) the app's route hands in. */
export function ProjectList({ isAdmin, summaries }: { isAdmin: boolean; summaries: Resource<ProjectSummary[]> }) {
  const projects = useProjects();
  if (projects.status === 'loading') return <LoadingState label="Loading projects..." />;
  if (projects.status === 'error') {
    console.error(projects.error);
    return <p className="alert alert-error">{ModelMessages.loadProjectsFailed}</p>;
  }
  return <ProjectListView projects={projects.data} summaries={summaries.status === 'success' ? summaries.data : []} isAdmin={isAdmin} />;
}
