/**
 * The model management screen (editing and deleting a model, with the catalog's messages, ordering
 * and loading progress): `?modelId=` preselects; a searchable
 * list sortable by ID (default), Name, Latest; model info with Edit Model and Delete Model; the
 * model's 'File checks' (what the content checks found in its files); the additional-files panel and the
 * current files table. Edit Model also sets the model's scale, 'Units per metre'
 * (`metadata.unitsPerMetre`, optional: measurements in metres), shown in the model's information.
 */
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router-dom';
import { ErrorCode, errorMessage, isAppError } from '@shared/errors.js';
import { formatBytes, formatDate, formatDateTimeLocal } from '@shared/format.js';
import { ModelMessages, ValidationMessages, deleteModelFailed, modelDeletedWithLeftovers } from '@shared/messages.js';
import { modelTypeLabel, totalFileSize } from '@shared/model-type.js';
import { sortModelsBy } from '@shared/order.js';
import { searchModels } from '@shared/search.js';
import { validateUnitsPerMetre } from '@shared/annotations.js';
import type { Model } from '@shared/types.js';
import { validateEditModel, type EditModelInput } from '@shared/validation/models.js';
import { LiveBanner, type BannerMessage } from '../../../components/ui/banner.js';
import { TextField, useFieldErrors } from '../../../components/ui/field.js';
import { FileChecks } from '../../../components/ui/file-checks.js';
import { PickList, usePickList } from '../../../components/ui/pick-list.js';
import { LoadingState } from '../../../components/ui/spinner.js';
import { TypedNameConfirm } from '../../../components/ui/typed-name-confirm.js';
import { useAction } from '../../../hooks/use-action.js';
import type { Resource } from '../../../lib/resource.js';
import { useDeleteModel } from '../api/delete-model.js';
import { useDeleteModelFiles } from '../api/delete-model-files.js';
import { useModelFiles } from '../api/list-model-files.js';
import { useSetUnitsPerMetre } from '../api/set-units-per-metre.js';
import { useUpdateModel } from '../api/update-model.js';
import { useUploadAdditionalFiles } from '../api/upload-additional-files.js';
import { AdditionalFilesPanel } from './additional-files-panel.js';
import { FilesTable } from './files-table.js';
import { ManagementLayout, screenHeading } from './management-layout.js';

/** The field a message of `validateEditModel` is about. */
export function editModelFieldOf(message: string): keyof EditModelInput | null {
  switch (message) {
    case ValidationMessages.modelNameRequired:
      return 'name';
    case ValidationMessages.publicIdRequired:
    case ValidationMessages.publicIdPattern:
      return 'publicId';
    case ValidationMessages.invalidDate:
      return 'captureDate';
    default:
      return null;
  }
}

/** A changed scale handed to {@link EditModelForm}'s `onSave`: the new `metadata.unitsPerMetre` (null: unknown). */
export interface ScaleChange {
  unitsPerMetre: number | null;
}

/** The scale as the form's field shows it: the number, or '' when unknown. */
function scaleText(model: Model): string {
  const value = model.metadata?.unitsPerMetre;
  return typeof value === 'number' ? String(value) : '';
}

/**
 * The Edit Model form (the edit rules through `validateEditModel`; a refused field is marked and
 * focused, so a keyboard user lands on it) with the optional 'Units per metre' (`validateUnitsPerMetre`):
 * `onSave` gets the edited fields and, only when the scale changed, the new scale.
 */
export function EditModelForm({
  model,
  onSave,
  onClose,
}: {
  model: Model;
  onSave: (input: EditModelInput, scale?: ScaleChange) => Promise<void>;
  onClose: () => void;
}) {
  const [values, setValues] = useState<EditModelInput>({
    name: model.name,
    publicId: model.publicId,
    captureDate: model.metadata?.captureDate?.slice(0, 10) ?? '',
  });
  const [scale, setScale] = useState(() => scaleText(model));
  const errors = useFieldErrors<keyof EditModelInput | 'unitsPerMetre'>();
  const save = useAction(
    async (input: EditModelInput, change?: ScaleChange) => {
      await onSave(input, change);
      onClose();
    },
    {
      failure: (e) => {
        console.error(e);
        // a Public ID another model of the project has: the catalogue's message, then the reason
        return isAppError(e, ErrorCode.AlreadyExists) ? `${ModelMessages.updateModelFailed} ${e.message}` : ModelMessages.updateModelFailed;
      },
    },
  );
  function submit(event: FormEvent) {
    event.preventDefault();
    const check = validateEditModel(values);
    const field = check.ok ? null : editModelFieldOf(check.message);
    const units = validateUnitsPerMetre(scale);
    if (!check.ok) {
      errors.mark(field === null ? [] : [field]);
      save.fail(check.message);
    } else if (!units.ok) {
      errors.mark(['unitsPerMetre']);
      save.fail(units.message);
    } else {
      errors.mark([]);
      const before = model.metadata?.unitsPerMetre ?? null;
      void save.run(values, units.value === before ? undefined : { unitsPerMetre: units.value });
    }
  }
  return (
    <form ref={errors.formRef} className="admin-form" onSubmit={submit} noValidate aria-label="Edit Model">
      <LiveBanner id={errors.messageId} banner={save.message} />
      <div className="form-grid">
        <TextField
          label="Model Name"
          value={values.name}
          invalid={errors.props('name')}
          onChange={(name) => setValues({ ...values, name })}
        />
        <TextField
          label="Public ID"
          value={values.publicId}
          invalid={errors.props('publicId')}
          onChange={(publicId) => setValues({ ...values, publicId })}
        />
        <TextField
          label="Capture Date"
          invalid={errors.props('captureDate')}
          placeholder="YYYY-MM-DD"
          value={values.captureDate ?? ''}
          onChange={(captureDate) => setValues({ ...values, captureDate })}
        />
        <TextField
          label="Units per metre"
          invalid={errors.props('unitsPerMetre')}
          placeholder="Optional, e.g. 1 for a model in metres"
          value={scale}
          onChange={setScale}
        />
      </div>
      <div className="actions">
        <button type="button" className="button button-secondary" onClick={onClose}>
          Cancel
        </button>
        <button type="submit" className="button button-primary">
          Save
        </button>
      </div>
    </form>
  );
}

/** The Delete Model box: the typed name must equal the model name (trimmed). */
export function DeleteModelBox({
  model,
  onDelete,
  onClose,
  returnFocus,
}: {
  model: Model;
  onDelete: (typed: string) => Promise<void>;
  onClose: () => void;
  /** Where the focus goes after the model is deleted (its 'Delete Model' button went with it). */
  returnFocus?: () => HTMLElement | null;
}) {
  return (
    <TypedNameConfirm
      title="Delete Model"
      showTitle
      returnFocus={returnFocus}
      warning="This deletes the model record and all of its files. This action cannot be undone."
      prompt={`Please type ${model.name} to confirm:`}
      placeholder="Type model name here..."
      expectedName={model.name}
      mismatchText={ValidationMessages.modelNameMismatch}
      confirmLabel="Delete Model"
      onConfirm={onDelete}
      failureText={(e) => deleteModelFailed(errorMessage(e))}
      onCancel={onClose}
    />
  );
}

function ModelInfo({ model }: { model: Model }) {
  return (
    <dl className="facts">
      <dt>Public ID</dt>
      <dd className="mono">{model.publicId}</dd>
      <dt>Name</dt>
      <dd>{model.name}</dd>
      <dt>Type</dt>
      <dd>{modelTypeLabel(model)}</dd>
      <dt>Reference Model</dt>
      <dd>{model.isReference ? 'Yes' : 'No'}</dd>
      <dt>Capture Date</dt>
      <dd>{formatDate(model.metadata?.captureDate)}</dd>
      <dt>Units per metre</dt>
      <dd>{typeof model.metadata?.unitsPerMetre === 'number' ? model.metadata.unitsPerMetre : 'Not set'}</dd>
      <dt>Total Size</dt>
      <dd>{formatBytes(totalFileSize(model))}</dd>
      <dt>Created</dt>
      <dd>{formatDateTimeLocal(model.created_at)}</dd>
      {model.last_updated ? (
        <>
          <dt>Last Updated</dt>
          <dd>{formatDateTimeLocal(model.last_updated)}</dd>
        </>
      ) : null}
    </dl>
  );
}

const NO_MODELS: Model[] = [];

/** /admin/model-management on the live model list (the app's route hands it in); `?modelId=` preselects. */
export function ModelManagement({ models }: { models: Resource<Model[]> }) {
  const [params, setParams] = useSearchParams();
  const selectedId = params.get('modelId');
  const pick = usePickList(models.status === 'success' ? models.data : NO_MODELS, searchModels, sortModelsBy);
  const [mode, setMode] = useState<'view' | 'edit' | 'delete'>('view');
  const [banner, setBanner] = useState<BannerMessage | null>(null);
  const { files, reload } = useModelFiles(selectedId);
  const updateModel = useUpdateModel();
  const setUnitsPerMetre = useSetUnitsPerMetre();
  const deleteModel = useDeleteModel();
  const deleteFiles = useDeleteModelFiles();
  const upload = useUploadAdditionalFiles();
  const titleRef = useRef<HTMLHeadingElement>(null);
  /** Set after a delete: the screen's heading takes the focus once the deleted model's controls are gone. */
  const [focusTitle, setFocusTitle] = useState(0);
  useEffect(() => {
    if (focusTitle > 0) screenHeading(titleRef.current)?.focus();
  }, [focusTitle]);

  const selected = models.status === 'success' ? (models.data.find((m) => m.id === selectedId) ?? null) : null;

  function select(id: string | null) {
    setMode('view');
    setParams(id ? { modelId: id } : {}, { replace: true });
  }

  if (models.status === 'loading') return <LoadingState label="Loading models..." />;
  if (models.status === 'error') return <p className="alert alert-error">{ModelMessages.loadModelsFailed}</p>;

  return (
    <ManagementLayout
      className="model-management"
      title={`Model Management${selected ? ` - ${selected.name}` : ''}`}
      banner={banner}
      titleRef={titleRef}
      pickList={
        <PickList
          {...pick}
          noun="models"
          selectedId={selectedId}
          onSelect={select}
          title={(model) => model.publicId}
          subtitle={(model) => model.name}
        />
      }
      emptyTitle="No Model Selected"
      emptyText="Please select a model from the list to view and manage its files."
    >
      {selected === null ? null : (
        <>
          <section className="panel" aria-label="Model Information">
            <div className="panel-head">
              <h3 className="panel-title">Model Information</h3>
              <div className="actions">
                <button type="button" className="button button-secondary" onClick={() => setMode(mode === 'edit' ? 'view' : 'edit')}>
                  Edit Model
                </button>
                <button type="button" className="button button-danger" onClick={() => setMode('delete')}>
                  Delete Model
                </button>
              </div>
            </div>
            {mode === 'edit' ? (
              <EditModelForm
                key={selected.id}
                model={selected}
                onClose={() => setMode('view')}
                onSave={async (input, scale) => {
                  await updateModel(selected.id, input);
                  if (scale) await setUnitsPerMetre(selected.id, scale.unitsPerMetre);
                  setBanner({ kind: 'success', text: ModelMessages.modelUpdated });
                }}
              />
            ) : (
              <ModelInfo model={selected} />
            )}
            {mode === 'delete' ? (
              <DeleteModelBox
                key={`delete-${selected.id}`}
                model={selected}
                onClose={() => setMode('view')}
                returnFocus={() => screenHeading(titleRef.current)}
                onDelete={async (typed) => {
                  const result = await deleteModel(selected.id, typed);
                  setBanner({ kind: 'success', text: modelDeletedWithLeftovers(result.name, result.filesNotDeleted.length) });
                  select(null);
                  setFocusTitle((n) => n + 1);
                }}
              />
            ) : null}
          </section>
          <FileChecks report={selected.validation} />
          <AdditionalFilesPanel
            onUploadFiles={(kind, chosen, hooks) => upload.files(selected.id, kind, chosen, hooks)}
            onUploadCameraMetadata={(chosen, hooks) => upload.cameraMetadata(selected.id, chosen, hooks)}
            onUploaded={reload}
          />
          {files.status === 'loading' ? (
            <LoadingState label={`Loading files... (${files.loaded}/${files.total})`} />
          ) : files.status === 'error' ? (
            <p className="alert alert-error" role="alert">
              {files.failed === 'model' ? ModelMessages.fetchModelFailed : ModelMessages.loadFilesFailed}
            </p>
          ) : (
            <FilesTable
              key={selected.id}
              entries={files.entries}
              confirm={(question) => window.confirm(question)}
              onDelete={async (path) => {
                await deleteFiles.deleteOne(selected.id, path);
                reload();
              }}
              onDeleteAll={async () => {
                const n = await deleteFiles.deleteAll(selected.id);
                reload();
                return n;
              }}
            />
          )}
        </>
      )}
    </ManagementLayout>
  );
}
