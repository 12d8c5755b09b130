/**
 * The model management screen (SPEC.md §2 Model management screen, §5 "Edit model" and "Delete
 * model", §8 messages, §9 ordering and loading progress): `?modelId=` preselects; a searchable
 * list sortable by ID (default), Name, Latest; model info with Edit Model and Delete Model; the
 * additional-files panel and the current files table.
 */
import { useCallback, useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router-dom';
import { formatBytes, formatDate, formatDateTimeLocal } from '@shared/format.js';
import { ModelMessages, ValidationMessages, deleteModelFailed, modelDeletedWithLeftovers } from '@shared/messages.js';
import { modelTypeLabel, totalFileSize } from '@shared/model-type.js';
import { sortModelsBy, type ListSort } from '@shared/order.js';
import { searchModels } from '@shared/search.js';
import type { FileEntry, Model } from '@shared/types.js';
import { validateEditModel, type EditModelInput } from '@shared/validation/models.js';
import {
  deleteAllModelFiles,
  deleteModel,
  deleteModelFile,
  listModelFiles,
  updateModel,
  uploadAdditionalFiles,
  uploadCameraMetadata,
} from '@shared/workflows/index.js';
import { LoadingState } from '../../../components/ui/spinner.js';
import { useBackend } from '../../../lib/backend-context.js';
import { useModels } from '../../models/api/use-models.js';
import { detailOf } from '../api/admin-data.js';
import { AdditionalFilesPanel } from './additional-files-panel.js';
import { FilesTable } from './files-table.js';
import { Banner, Field, TypedNameConfirm, type BannerMessage } from './form-parts.js';
import { PickList } from './pick-list.js';

/** The Edit Model form (§5 rules through `validateEditModel`). */
export function EditModelForm({ model, onSave, onClose }: { model: Model; onSave: (input: EditModelInput) => Promise<void>; onClose: () => void }) {
  const [values, setValues] = useState<EditModelInput>({ name: model.name, publicId: model.publicId, captureDate: model.metadata?.captureDate?.slice(0, 10) ?? '' });
  const [error, setError] = useState<string | null>(null);
  async function submit(event: FormEvent) {
    event.preventDefault();
    const check = validateEditModel(values);
    if (!check.ok) {
      setError(check.message);
      return;
    }
    try {
      await onSave(values);
      onClose();
    } catch (e) {
      console.error(e);
      setError(ModelMessages.updateModelFailed);
    }
  }
  return (
    <form className="admin-form" onSubmit={submit} noValidate aria-label="Edit Model">
      <Banner banner={error === null ? null : { kind: 'error', text: error }} />
      <div className="form-grid">
        <Field label="Model Name">
          <input type="text" value={values.name} onChange={(e) => setValues({ ...values, name: e.target.value })} />
        </Field>
        <Field label="Public ID">
          <input type="text" value={values.publicId} onChange={(e) => setValues({ ...values, publicId: e.target.value })} />
        </Field>
        <Field label="Capture Date">
          <input type="text" placeholder="YYYY-MM-DD" value={values.captureDate ?? ''} onChange={(e) => setValues({ ...values, captureDate: e.target.value })} />
        </Field>
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
export function DeleteModelBox({ model, onDelete, onClose }: { model: Model; onDelete: (typed: string) => Promise<void>; onClose: () => void }) {
  return (
    <TypedNameConfirm
      title="Delete Model"
      warning="This deletes the model record and all of its files. This action cannot be undone."
      prompt={`Please type ${model.name} to confirm:`}
      placeholder="Type model name here..."
      expectedName={model.name}
      mismatchText={ValidationMessages.modelNameMismatch}
      confirmLabel="Delete Model"
      onConfirm={onDelete}
      failureText={(e) => deleteModelFailed(detailOf(e))}
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

/** /admin/model-management. */
export function ModelManagement() {
  const backend = useBackend();
  const [params, setParams] = useSearchParams();
  const selectedId = params.get('modelId');
  const models = useModels();
  const [term, setTerm] = useState('');
  const [sort, setSort] = useState<ListSort>('id');
  const [mode, setMode] = useState<'view' | 'edit' | 'delete'>('view');
  const [banner, setBanner] = useState<BannerMessage | null>(null);
  const [files, setFiles] = useState<{ status: 'loading' | 'ready' | 'error'; entries: FileEntry[]; loaded: number; total: number }>({
    status: 'loading',
    entries: [],
    loaded: 0,
    total: 0,
  });
  const [revision, setRevision] = useState(0);

  const list = useMemo(() => (models.status === 'success' ? sortModelsBy(searchModels(models.data, term), sort) : []), [models, term, sort]);
  const selected = models.status === 'success' ? (models.data.find((m) => m.id === selectedId) ?? null) : null;

  const loadedFor = useRef<string | null>(null);
  useEffect(() => {
    if (selectedId === null) return;
    let active = true;
    // A new selection shows the loading progress; a reload of the same model keeps the table.
    if (loadedFor.current !== selectedId) setFiles({ status: 'loading', entries: [], loaded: 0, total: 0 });
    loadedFor.current = selectedId;
    listModelFiles(backend, selectedId, (loaded, total) => {
      if (active) setFiles((f) => ({ ...f, loaded, total }));
    }).then(
      (entries) => active && setFiles({ status: 'ready', entries, loaded: entries.length, total: entries.length }),
      (error: unknown) => {
        console.error(error);
        if (active) setFiles({ status: 'error', entries: [], loaded: 0, total: 0 });
      },
    );
    return () => {
      active = false;
    };
  }, [backend, selectedId, revision]);

  const reload = useCallback(() => setRevision((r) => r + 1), []);
  function select(id: string | null) {
    setMode('view');
    setParams(id ? { modelId: id } : {}, { replace: true });
  }

  if (models.status === 'loading') return <LoadingState label="Loading models..." />;
  if (models.status === 'error') return <p className="alert alert-error">{ModelMessages.loadModelsFailed}</p>;

  return (
    <div className="model-management">
      <h2 className="panel-title">Model Management{selected ? ` - ${selected.name}` : ''}</h2>
      <Banner banner={banner} />
      <div className="grid-4">
        <PickList
          noun="models"
          term={term}
          onTerm={setTerm}
          sort={sort}
          onSort={setSort}
          items={list}
          selectedId={selectedId}
          onSelect={select}
          title={(model) => model.publicId}
          subtitle={(model) => model.name}
        />
        <div className="span-3">
          {selected === null ? (
            <div className="panel state">
              <h3 className="state-title">No Model Selected</h3>
              <p className="state-text">Please select a model from the list to view and manage its files.</p>
            </div>
          ) : (
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
                    onSave={async (input) => {
                      await updateModel(backend.catalog, selected.id, input);
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
                    onDelete={async (typed) => {
                      const result = await deleteModel(backend, selected.id, typed);
                                          setBanner({ kind: 'success', text: modelDeletedWithLeftovers(result.name, result.filesNotDeleted.length) });
                      select(null);
                    }}
                  />
                ) : null}
              </section>
              <AdditionalFilesPanel
                onUploadFiles={(kind, chosen, hooks) =>
                  uploadAdditionalFiles(backend, selected.id, kind, chosen.map((file) => ({ source: file, name: file.name })), hooks)
                }
                onUploadCameraMetadata={(chosen, hooks) => uploadCameraMetadata(backend, selected.id, chosen, hooks)}
                onUploaded={reload}
              />
              {files.status === 'loading' ? (
                <LoadingState label={`Loading files... (${files.loaded}/${files.total})`} />
              ) : files.status === 'error' ? (
                <p className="alert alert-error">{ModelMessages.loadFilesFailed}</p>
              ) : (
                <FilesTable
                  key={selected.id}
                  entries={files.entries}
                  confirm={(question) => window.confirm(question)}
                  onDelete={async (path) => {
                    await deleteModelFile(backend, selected.id, path);
                    reload();
                  }}
                  onDeleteAll={async () => {
                    const n = await deleteAllModelFiles(backend, selected.id);
                    reload();
                    return n;
                  }}
                />
              )}
            </>
          )}
        </div>
      </div>
    </div>
  );
}
