/**
 * The project management panel (SPEC.md §2 Project management panel, §4 "Project panel" and
 * "Project delete flow", §5 "Delete project", §8 Project messages): searchable, sortable list
 * (ID, Name, Latest; default structure id), 1+3 grid, Project Information read view, edit
 * toggle, delete flow with its banners, and the reference-model picker.
 */
import { useMemo, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { isAppError, ErrorCode } from '@shared/errors.js';
import { formatDateTimeLocal } from '@shared/format.js';
import { projectMapLink } from '@shared/links.js';
import {
  ModelMessages,
  ProjectMessages,
  ValidationMessages,
  deleteProjectFailed,
  projectDeletePrompt,
  projectDeleted,
} from '@shared/messages.js';
import { sortProjectsBy, type ListSort } from '@shared/order.js';
import { hasReferenceModel } from '@shared/projects.js';
import { searchProjectsForManagement } from '@shared/search.js';
import type { Model, Project } from '@shared/types.js';
import type { ProjectFormInput } from '@shared/validation/project-form.js';
import { deleteProject, setReferenceModel, updateProject } from '@shared/workflows/index.js';
import { LoadingState } from '../../../components/ui/spinner.js';
import { useBackend } from '../../../lib/backend-context.js';
import { useProjectModels } from '../../projects/api/use-project-models.js';
import { useProjects } from '../../projects/api/use-projects.js';
import { detailOf } from '../api/admin-data.js';
import { Banner, TypedNameConfirm, type BannerMessage } from './form-parts.js';
import { PickList } from './pick-list.js';
import { ProjectForm } from './project-form.js';
import { ReferencePicker } from './reference-picker.js';

/** The read view of §2 with every fallback text. */
export function ProjectInformation({ project }: { project: Project }) {
  const loc = project.location ?? null;
  const link = projectMapLink(project);
  const hasCoords = typeof loc?.lat === 'number' && typeof loc?.lng === 'number';
  return (
    <dl className="facts">
      <dt>Project Name</dt>
      <dd>{project.name}</dd>
      <dt>Structure ID</dt>
      <dd>{project.structure_id || 'Not set'}</dd>
      <dt>Description</dt>
      <dd>{project.description || 'No description'}</dd>
      <dt>URL Slug</dt>
      <dd>{project.slug || 'Not specified'}</dd>
      <dt>Location</dt>
      <dd>{loc?.address || 'Not specified'}</dd>
      {hasCoords ? (
        <>
          <dt>Coordinates</dt>
          <dd>
            {loc?.lat}, {loc?.lng}
          </dd>
        </>
      ) : null}
      <dt>Map Link</dt>
      <dd>
        {link ? (
          <a href={link.href} target="_blank" rel="noopener noreferrer">
            {link.label}
          </a>
        ) : (
          'Not specified'
        )}
      </dd>
      <dt>Reference Model</dt>
      <dd>{hasReferenceModel(project) ? 'Set' : 'Not set'}</dd>
      <dt>Created</dt>
      <dd>{formatDateTimeLocal(project.created_at)}</dd>
      {project.last_updated ? (
        <>
          <dt>Last Updated</dt>
          <dd>{formatDateTimeLocal(project.last_updated)}</dd>
        </>
      ) : null}
    </dl>
  );
}

export interface ProjectPanelProps {
  projects: readonly Project[];
  selectedId: string | null;
  onSelect: (projectId: string | null) => void;
  models: readonly Model[];
  onUpdate: (projectId: string, input: ProjectFormInput) => Promise<void>;
  onDelete: (projectId: string, typed: string) => Promise<string>;
  onSetReference: (projectId: string, modelId: string) => Promise<void>;
}

/** The panel itself, driven by props (the container below wires it to the backend). */
export function ProjectPanel({ projects, selectedId, onSelect, models, onUpdate, onDelete, onSetReference }: ProjectPanelProps) {
  const [term, setTerm] = useState('');
  const [sort, setSort] = useState<ListSort>('id');
  const [editing, setEditing] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [banner, setBanner] = useState<BannerMessage | null>(null);
  const list = useMemo(() => sortProjectsBy(searchProjectsForManagement(projects, term), sort), [projects, term, sort]);
  const selected = projects.find((p) => p.id === selectedId) ?? null;

  function select(projectId: string | null) {
    setEditing(false);
    setDeleting(false);
    onSelect(projectId);
  }

  async function confirmDelete(project: Project, typed: string) {
    setDeleting(false);
    try {
      const name = await onDelete(project.id, typed);
      setBanner({ kind: 'success', text: projectDeleted(name) });
      select(null);
    } catch (error) {
      if (isAppError(error, ErrorCode.FailedPrecondition, ErrorCode.InvalidArgument)) {
        setBanner({ kind: 'error', text: error.message });
      } else {
        console.error('Project delete failed', error);
        setBanner({ kind: 'error', text: deleteProjectFailed(detailOf(error)) });
      }
    }
  }

  return (
    <div className="project-management">
      <h2 className="panel-title">Project Management{selected ? ` - ${selected.name}` : ''}</h2>
      <Banner banner={banner} />
      <div className="grid-4">
        <PickList
          noun="projects"
          term={term}
          onTerm={setTerm}
          sort={sort}
          onSort={setSort}
          items={list}
          selectedId={selectedId}
          onSelect={select}
          title={(project) => project.name}
          subtitle={(project) => project.structure_id || '—'}
          actions={(project) => (
            <>
              <button type="button" className="button button-ghost button-small" aria-label={`Edit ${project.name}`} onClick={() => { select(project.id); setEditing(true); }}>
                Edit
              </button>
              <button type="button" className="button button-ghost button-small" aria-label={`Delete ${project.name}`} onClick={() => { select(project.id); setDeleting(true); }}>
                Delete
              </button>
            </>
          )}
        />
        <div className="span-3">
          {selected === null ? (
            <div className="panel state">
              <h3 className="state-title">No Project Selected</h3>
              <p className="state-text">Please select a project from the list to view and manage its details.</p>
            </div>
          ) : (
            <>
              <section className="panel" aria-label="Project Information">
                <div className="panel-head">
                  <h3 className="panel-title">Project Information</h3>
                  <div className="actions">
                    <button type="button" className="button button-secondary" onClick={() => setEditing((v) => !v)}>
                      {editing ? 'Cancel' : 'Edit Project'}
                    </button>
                    <button type="button" className="button button-danger" onClick={() => setDeleting(true)}>
                      Delete Project
                    </button>
                  </div>
                </div>
                {editing ? (
                  <ProjectForm
                    key={selected.id}
                    project={selected}
                    successText={ProjectMessages.infoUpdated}
                    failureText={() => ProjectMessages.infoUpdateFailed}
                    onSubmit={async (input) => {
                      await onUpdate(selected.id, input);
                      setEditing(false);
                      setBanner({ kind: 'success', text: ProjectMessages.infoUpdated });
                    }}
                  />
                ) : (
                  <ProjectInformation project={selected} />
                )}
              </section>
              {deleting ? (
                <TypedNameConfirm
                  key={`delete-${selected.id}`}
                  title="Delete Project"
                  showTitle
                  warning={ValidationMessages.projectDeleteWarning}
                  prompt={projectDeletePrompt(selected.name)}
                  placeholder={ValidationMessages.projectDeletePlaceholder}
                  expectedName={selected.name}
                  mismatchText={ValidationMessages.projectNameMismatch}
                  confirmLabel="Delete Permanently"
                  requireMatch
                  onCancel={() => setDeleting(false)}
                  onConfirm={(typed) => void confirmDelete(selected, typed)}
                />
              ) : (
                <ReferencePicker project={selected} models={models} onSetReference={(modelId) => onSetReference(selected.id, modelId)} />
              )}
            </>
          )}
        </div>
      </div>
    </div>
  );
}

/** /admin/project-management: the panel on the live project list; `?projectId=` preselects. */
export function ProjectManagement() {
  const backend = useBackend();
  const [params, setParams] = useSearchParams();
  const selectedId = params.get('projectId');
  const projects = useProjects();
  const models = useProjectModels(selectedId ?? undefined);
  if (projects.status === 'loading') return <LoadingState label="Loading projects..." />;
  if (projects.status === 'error') return <p className="alert alert-error">{ModelMessages.loadProjectsFailed}</p>;
  return (
    <ProjectPanel
      projects={projects.data}
      selectedId={selectedId}
      onSelect={(id) => setParams(id ? { projectId: id } : {}, { replace: true })}
      models={models.status === 'success' ? models.data : []}
      onUpdate={(id, input) => updateProject(backend.catalog, id, input)}
      onDelete={(id, typed) => deleteProject(backend.catalog, id, typed)}
      onSetReference={(projectId, modelId) => setReferenceModel(backend.catalog, projectId, modelId)}
    />
  );
}
