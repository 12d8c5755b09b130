/**
 * The project management panel: searchable, sortable list
 * (ID, Name, Latest; default structure id), 1+3 grid, Project Information read view, edit
 * toggle, delete flow with its banners (a project with models is refused when Delete Project is
 * pressed, before any name is typed: such a project cannot be deleted here, so nothing offers to
 * delete it with its models), and the reference-model picker. Long descriptions wrap inside the panel.
 */
import { useEffect, useId, useRef, useState } from 'react';
import { ErrorCode, errorMessage, isAppError } from '@shared/errors.js';
import { formatDateTimeLocal } from '@shared/format.js';
import { projectMapLink } from '@shared/links.js';
import {
  ModelMessages,
  ProjectMessages,
  ValidationMessages,
  deleteProjectFailed,
  projectDeletePrompt,
  projectDeleted,
  projectHasModels,
} from '@shared/messages.js';
import { sortProjectsBy } from '@shared/order.js';
import { hasReferenceModel } from '@shared/projects.js';
import { searchProjectsForManagement } from '@shared/search.js';
import type { Model, Project } from '@shared/types.js';
import type { ProjectFormInput } from '@shared/validation/project-form.js';
import type { BannerMessage } from '../../../components/ui/banner.js';
import { useFlash } from '../../../hooks/use-flash.js';
import { PickList, usePickList } from '../../../components/ui/pick-list.js';
import { LoadingState } from '../../../components/ui/spinner.js';
import { ModalDialog } from '../../../components/ui/modal-dialog.js';
import { TypedNameConfirm } from '../../../components/ui/typed-name-confirm.js';
import type { Resource } from '../../../lib/resource.js';
import { useDeleteProject } from '../api/delete-project.js';
import { useSetReferenceModel } from '../api/set-reference-model.js';
import { useUpdateProject } from '../api/update-project.js';
import { ManagementLayout, screenHeading } from './management-layout.js';
import { ProjectForm } from './project-form.js';
import { ReferencePicker } from './reference-picker.js';

/** The Project Information read view, with every fallback text. */
export function ProjectInformation({ project }: { project: Project }) {
  const loc = project.location ?? null;
  const link = projectMapLink(project);
  const hasCoords = typeof loc?.lat === 'number' && typeof loc?.lng === 'number';
  return (
    <dl className="facts">
      <dt>Project Name</dt>
      <dd className="wrap-anywhere">{project.name}</dd>
      <dt>Structure ID</dt>
      <dd>{project.structure_id || 'Not set'}</dd>
      <dt>Description</dt>
      <dd className="wrap-anywhere">{project.description || 'No description'}</dd>
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

/**
 * Delete Project on a project that has models: the refusal, said at once in a dialog (nothing to
 * type), with a Close back to the panel.
 */
export function DeleteRefusal({ text, onClose }: { text: string; onClose: () => void }) {
  const textId = `delete-refusal-${useId()}`;
  return (
    <ModalDialog title="Delete Project" showTitle role="alertdialog" describedBy={textId} onCancel={onClose} className="panel delete-box">
      <p className="alert alert-error" id={textId}>
        {text}
      </p>
      <div className="actions">
        <button type="button" className="button button-secondary" onClick={onClose}>
          Close
        </button>
      </div>
    </ModalDialog>
  );
}

export interface ProjectPanelProps {
  projects: readonly Project[];
  selectedId: string | null;
  onSelect: (projectId: string | null) => void;
  models: readonly Model[];
  /** False while the selected project's models are still being read (default true). */
  modelsReady?: boolean;
  onUpdate: (projectId: string, input: ProjectFormInput) => Promise<void>;
  onDelete: (projectId: string, typed: string) => Promise<string>;
  onSetReference: (projectId: string, modelId: string) => Promise<void>;
  /** A success message handed over by the page that navigated here (e.g. after adding a model). */
  initialBanner?: string | null;
}

/** The panel itself, driven by props (the container below wires it to the backend). */
export function ProjectPanel({
  projects,
  selectedId,
  onSelect,
  models,
  modelsReady = true,
  onUpdate,
  onDelete,
  onSetReference,
  initialBanner = null,
}: ProjectPanelProps) {
  const pick = usePickList(projects, searchProjectsForManagement, sortProjectsBy);
  const [editing, setEditing] = useState(false);
  /** Whether the Delete Project box (or its refusal, for a project with models) is open. */
  const [deleting, setDeleting] = useState<false | 'project'>(false);
  const [banner, setBanner] = useState<BannerMessage | null>(initialBanner === null ? null : { kind: 'success', text: initialBanner });
  const selected = projects.find((p) => p.id === selectedId) ?? null;
  const titleRef = useRef<HTMLHeadingElement>(null);
  /** Set after a delete: the screen's heading takes the focus once the deleted project's controls are gone. */
  const [focusTitle, setFocusTitle] = useState(0);
  useEffect(() => {
    if (focusTitle > 0) screenHeading(titleRef.current)?.focus();
  }, [focusTitle]);
  const titleElement = () => screenHeading(titleRef.current);

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
      setFocusTitle((n) => n + 1);
    } catch (error) {
      if (isAppError(error, ErrorCode.FailedPrecondition, ErrorCode.InvalidArgument)) {
        setBanner({ kind: 'error', text: error.message });
      } else {
        console.error('Project delete failed', error);
        setBanner({ kind: 'error', text: deleteProjectFailed(errorMessage(error)) });
      }
    }
  }

  return (
    <ManagementLayout
      className="project-management"
      title={`Project Management${selected ? ` - ${selected.name}` : ''}`}
      banner={banner}
      titleRef={titleRef}
      pickList={
        <PickList
          {...pick}
          noun="projects"
          selectedId={selectedId}
          onSelect={select}
          title={(project) => project.name}
          subtitle={(project) => project.structure_id || '—'}
          actions={(project) => (
            <>
              <button
                type="button"
                className="button button-ghost button-small"
                aria-label={`Edit ${project.name}`}
                onClick={() => {
                  select(project.id);
                  setEditing(true);
                }}
              >
                Edit
              </button>
              <button
                type="button"
                className="button button-ghost button-small"
                aria-label={`Delete ${project.name}`}
                onClick={() => {
                  select(project.id);
                  setDeleting('project');
                }}
              >
                Delete
              </button>
            </>
          )}
        />
      }
      emptyTitle="No Project Selected"
      emptyText="Please select a project from the list to view and manage its details."
    >
      {selected === null ? null : (
        <>
          <section className="panel" aria-label="Project Information">
            <div className="panel-head">
              <h3 className="panel-title">Project Information</h3>
              <div className="actions">
                <button type="button" className="button button-secondary" onClick={() => setEditing((v) => !v)}>
                  {editing ? 'Cancel' : 'Edit Project'}
                </button>
                <button type="button" className="button button-danger" onClick={() => setDeleting('project')}>
                  Delete Project
                </button>
              </div>
            </div>
            {editing ? (
              <ProjectForm
                key={selected.id}
                project={selected}
                headingLevel={4}
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
          {deleting === 'project' && (!modelsReady || models.length > 0) ? (
            <>
              {/* said before any typing: a project with models cannot be deleted */}
              <DeleteRefusal
                text={modelsReady ? projectHasModels(models.length) : 'Checking the project’s models...'}
                onClose={() => setDeleting(false)}
              />
              <ReferencePicker project={selected} models={models} onSetReference={(modelId) => onSetReference(selected.id, modelId)} />
            </>
          ) : deleting === 'project' ? (
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
              returnFocus={titleElement}
              onConfirm={(typed) => void confirmDelete(selected, typed)}
            />
          ) : (
            <ReferencePicker project={selected} models={models} onSetReference={(modelId) => onSetReference(selected.id, modelId)} />
          )}
        </>
      )}
    </ManagementLayout>
  );
}

/**
 * /admin/project-management: the panel on the live project list and the selected project's live
 * models (the app's route hands both in, with the `?projectId=` selection).
 */
export function ProjectManagement({
  projects,
  models,
  selectedId,
  onSelect,
}: {
  projects: Resource<Project[]>;
  models: Resource<Model[]>;
  selectedId: string | null;
  onSelect: (projectId: string | null) => void;
}) {
  const updateProject = useUpdateProject();
  const deleteProject = useDeleteProject();
  const setReferenceModel = useSetReferenceModel();
  const flash = useFlash();
  if (projects.status === 'loading') return <LoadingState label="Loading projects..." />;
  if (projects.status === 'error') return <p className="alert alert-error">{ModelMessages.loadProjectsFailed}</p>;
  return (
    <ProjectPanel
      projects={projects.data}
      selectedId={selectedId}
      onSelect={onSelect}
      models={models.status === 'success' ? models.data : []}
      modelsReady={models.status !== 'loading'}
      onUpdate={updateProject}
      onDelete={deleteProject}
      onSetReference={setReferenceModel}
      initialBanner={flash}
    />
  );
}
