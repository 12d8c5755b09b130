/**
 * The add-model form: Public ID, Model Name, optional Capture Date, model type
 * radio, 'Set as Reference Model' (disabled when the project has a reference, preselected when it
 * has none), splat and GLB pickers (a chosen file's content problem shown under its picker at
 * once), the four-stage progress panel, Cancel and Upload Model. Cancel during an
 * upload aborts it: 'Upload canceled.', not an error.
 *
 * Keyboard and screen readers: the pickers are real file inputs; a refused submit marks
 * the fields its message is about `aria-invalid` (described by the message) and focuses the first;
 * the outcome and the upload's progress are announced (live regions).
 */
import { useRef, useState, type FormEvent } from 'react';
import { ErrorCode, errorMessage, isAppError } from '@shared/errors.js';
import { addModelUploadError, ModelMessages, ValidationMessages } from '@shared/messages.js';
import { GLB_FILE_ACCEPT, MODEL_TYPE_OPTION_LABELS, MODEL_TYPES, SPLAT_FILE_ACCEPT } from '@shared/model-type.js';
import { referenceCheckboxState } from '@shared/projects.js';
import type { ModelType, Project } from '@shared/types.js';
import { validateAddModel } from '@shared/validation/models.js';
import { ADD_MODEL_STAGES, type AddModelHooks, type AddModelInput, type AddModelStage } from '@shared/workflows/index.js';
import { LiveBanner } from '../../../components/ui/banner.js';
import { Field, TextField, useFieldErrors } from '../../../components/ui/field.js';
import { FileProblem, useFileProblemId } from '../../../components/ui/file-problem.js';
import { UploadProgressPanel, type FileProgress } from '../../../components/ui/upload-progress.js';
import { useAction } from '../../../hooks/use-action.js';
import { useFileProblem } from '../../../hooks/use-file-problem.js';

export interface AddModelFormProps {
  project: Project;
  /** Runs the upload (the shared `addModel` workflow) with the form's input and hooks. */
  onUpload: (input: AddModelInput, hooks: AddModelHooks) => Promise<unknown>;
  /** Asked when the project already has a reference ('This project already has a reference model. Do you want to replace it?'). */
  confirmReplace: () => Promise<boolean>;
  /** Cancel when no upload runs (back to the project). */
  onCancel: () => void;
  /** After the success message. */
  onDone: () => void;
  /** Delay between the success message and onDone, ms. */
  doneDelayMs?: number;
}

/** The fields of the add-model form a message can be about. */
export type AddModelField = 'publicId' | 'name' | 'splat' | 'glb';

/**
 * The fields a message of `validateAddModel` is about: the missing file inputs the model type
 * needs, the empty ones of Public ID and Model Name, or the Public ID.
 */
export function addModelFieldsOf(
  message: string,
  input: { publicId: string; name: string; modelType: ModelType; hasSplat: boolean; hasGlb: boolean },
): AddModelField[] {
  switch (message) {
    case ValidationMessages.addModelFilesMissing: {
      const fields: AddModelField[] = [];
      if (input.modelType !== 'mesh' && !input.hasSplat) fields.push('splat');
      if (input.modelType !== 'splat' && !input.hasGlb) fields.push('glb');
      return fields;
    }
    case ValidationMessages.addModelIdAndNameRequired:
      return (['publicId', 'name'] as const).filter((key) => input[key].trim() === '');
    case ValidationMessages.publicIdPattern:
      return ['publicId'];
    default:
      return [];
  }
}

export function AddModelForm({ project, onUpload, confirmReplace, onCancel, onDone, doneDelayMs = 1500 }: AddModelFormProps) {
  const checkbox = referenceCheckboxState(project);
  const [publicId, setPublicId] = useState('');
  const [name, setName] = useState('');
  const [captureDate, setCaptureDate] = useState('');
  const [modelType, setModelType] = useState<ModelType>('hybrid');
  const [asReference, setAsReference] = useState(checkbox.checked);
  const [splat, setSplat] = useState<File | null>(null);
  const [glb, setGlb] = useState<File | null>(null);
  const splatProblem = useFileProblem(splat, 'splat');
  const glbProblem = useFileProblem(glb, 'glb');
  const splatProblemId = useFileProblemId();
  const glbProblemId = useFileProblemId();
  const [stage, setStage] = useState<AddModelStage | null>(null);
  const [files, setFiles] = useState<Map<string, FileProgress>>(new Map());
  const abort = useRef<AbortController | null>(null);
  const errors = useFieldErrors<AddModelField>();
  const upload = useAction(
    async () => {
      setFiles(new Map());
      abort.current = new AbortController();
      try {
        await send(abort.current.signal);
      } finally {
        abort.current = null;
      }
      setTimeout(onDone, doneDelayMs);
    },
    {
      success: () => ModelMessages.addModelSucceeded,
      // A canceled upload is not an error: 'Upload canceled.'
      failure: (error) => (isAppError(error, ErrorCode.Canceled) ? ModelMessages.uploadCanceled : addModelUploadError(errorMessage(error))),
    },
  );
  const succeeded = upload.status === 'success';
  const referenceNoteId = `${errors.messageId}-reference`;
  // Stays busy after a success: onDone follows.
  const busy = upload.busy || succeeded;

  function submit(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    const input = { publicId, name, modelType, hasSplat: splat !== null, hasGlb: glb !== null };
    const check = validateAddModel(input);
    errors.mark(check.ok ? [] : addModelFieldsOf(check.message, input));
    if (!check.ok) upload.fail(check.message);
    else void upload.run();
  }

  function send(signal: AbortSignal) {
    return onUpload(
      {
        projectId: project.id,
        publicId,
        name,
        modelType,
        captureDate: captureDate === '' ? null : captureDate,
        setAsReference: asReference,
        files: {
          ...(splat ? { splat: { source: splat, name: splat.name } } : {}),
          ...(glb ? { glb: { source: glb, name: glb.name } } : {}),
        },
      },
      {
        signal,
        onStage: setStage,
        onFile: (key, status, progress) => setFiles((current) => new Map(current).set(key, { status, progress })),
        confirmReplaceReference: confirmReplace,
      },
    );
  }

  function cancel() {
    if (abort.current) abort.current.abort();
    else onCancel();
  }

  return (
    <form ref={errors.formRef} className="panel admin-form" onSubmit={submit} noValidate aria-label="Add Model">
      <LiveBanner id={errors.messageId} banner={upload.message} />
      <div className="form-grid">
        <TextField label="Public ID" value={publicId} onChange={setPublicId} invalid={errors.props('publicId')} />
        <TextField label="Model Name" value={name} onChange={setName} invalid={errors.props('name')} />
        <TextField label="Capture Date" type="date" value={captureDate} onChange={setCaptureDate} />
      </div>
      <fieldset className="field-set">
        <legend className="field-label">Model Type</legend>
        {MODEL_TYPES.map((type) => (
          <label key={type} className="radio">
            <input type="radio" name="modelType" value={type} checked={modelType === type} onChange={() => setModelType(type)} />
            {MODEL_TYPE_OPTION_LABELS[type]}
          </label>
        ))}
      </fieldset>
      <label className="checkbox">
        <input
          type="checkbox"
          checked={asReference}
          disabled={checkbox.disabled}
          aria-describedby={checkbox.disabled ? referenceNoteId : undefined}
          onChange={(e) => setAsReference(e.target.checked)}
        />
        Set as Reference Model
      </label>
      {checkbox.disabled ? (
        <p className="muted small" id={referenceNoteId}>
          This project already has a reference model.
        </p>
      ) : null}
      <div className="form-grid">
        <div className="file-field">
          <Field label="Splat File (.splat, .ply)">
            <input
              type="file"
              accept={SPLAT_FILE_ACCEPT}
              {...errors.props('splat')}
              aria-describedby={describedBy(splatProblem ? splatProblemId : null, errors.props('splat'))}
              onChange={(e) => setSplat(e.target.files?.[0] ?? null)}
            />
          </Field>
          <FileProblem id={splatProblemId} problem={splatProblem} />
        </div>
        <div className="file-field">
          <Field label="GLB File (.glb)">
            <input
              type="file"
              accept={GLB_FILE_ACCEPT}
              {...errors.props('glb')}
              aria-describedby={describedBy(glbProblem ? glbProblemId : null, errors.props('glb'))}
              onChange={(e) => setGlb(e.target.files?.[0] ?? null)}
            />
          </Field>
          <FileProblem id={glbProblemId} problem={glbProblem} />
        </div>
      </div>
      <UploadProgressPanel stages={ADD_MODEL_STAGES} current={stage} files={files} done={succeeded} />
      <div className="actions">
        <button type="button" className="button button-secondary" onClick={cancel}>
          Cancel
        </button>
        <button type="submit" className="button button-primary" aria-disabled={busy || undefined}>
          {upload.busy ? 'Uploading...' : 'Upload Model'}
        </button>
      </div>
    </form>
  );
}

/** The ids a file input is described by: its content problem's and the form's message's (when invalid). */
function describedBy(problemId: string | null, invalid: { 'aria-describedby'?: string }): string | undefined {
  const ids = [problemId, invalid['aria-describedby']].filter((id): id is string => typeof id === 'string');
  return ids.length > 0 ? ids.join(' ') : undefined;
}
