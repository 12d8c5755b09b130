/**
 * The admin upload panel of the model list: project, publicId, name, a splat file (.splat, .ply)
 * and a GLB file (.glb), each chosen file's content problem shown under its input at once. Bad
 * input shows the message and uploads nothing; a failure shows 'An error occurred during upload.'
 * (and is logged); success shows 'Model uploaded successfully!' and clears the form. While
 * uploading, 'Cancel' stops it: 'Upload canceled.', nothing kept.
 *
 * Screen readers: the start of an upload and its outcome are announced through live
 * regions that are always in the page; a refused field is `aria-invalid`, described by the
 * message, and takes the focus.
 */
import { useRef, useState, type FormEvent } from 'react';
import { ErrorCode, isAppError } from '@shared/errors.js';
import { ModelMessages, ValidationMessages } from '@shared/messages.js';
import { GLB_FILE_ACCEPT, SPLAT_FILE_ACCEPT } from '@shared/model-type.js';
import type { Project } from '@shared/types.js';
import { projectLabel } from '@shared/projects.js';
import { LiveBanner } from '../../../components/ui/banner.js';
import { useFieldErrors, useFocusRecovery } from '../../../components/ui/field.js';
import { FileProblem, useFileProblemId } from '../../../components/ui/file-problem.js';
import { Spinner } from '../../../components/ui/spinner.js';
import { useAction } from '../../../hooks/use-action.js';
import { useFileProblem } from '../../../hooks/use-file-problem.js';
import type { ListUploadForm } from '../api/upload-model.js';

export interface UploadPanelProps {
  /** Projects to upload into, in display order. */
  projects: Project[];
  onUpload: (form: ListUploadForm) => Promise<unknown>;
}

type UploadField = 'publicId' | 'name' | 'splat' | 'glb';

/** The fields a refusal of the list upload (`validateListUpload`'s messages) is about. */
export function uploadFieldsOf(message: string, form: { publicId: string; name: string }): UploadField[] {
  switch (message) {
    case ValidationMessages.uploadFileRequired:
      return ['splat', 'glb'];
    case ValidationMessages.uploadIdAndNameRequired:
      return (['publicId', 'name'] as const).filter((key) => form[key].trim() === '');
    case ValidationMessages.publicIdPattern:
      return ['publicId'];
    default:
      return [];
  }
}

export function UploadPanel({ projects, onUpload }: UploadPanelProps) {
  const [projectId, setProjectId] = useState('');
  const [publicId, setPublicId] = useState('');
  const [name, setName] = useState('');
  const [splat, setSplat] = useState<File | null>(null);
  const [glb, setGlb] = useState<File | null>(null);
  const splatProblem = useFileProblem(splat, 'splat');
  const glbProblem = useFileProblem(glb, 'glb');
  const splatProblemId = useFileProblemId();
  const glbProblemId = useFileProblemId();
  const splatInput = useRef<HTMLInputElement>(null);
  const glbInput = useRef<HTMLInputElement>(null);
  const abort = useRef<AbortController | null>(null);
  const chosenProject = projectId || projects[0]?.id || '';
  const errors = useFieldErrors<UploadField>();

  const upload = useAction(
    async (form: ListUploadForm) => {
      const controller = new AbortController();
      abort.current = controller;
      try {
        await onUpload({ ...form, signal: controller.signal });
      } finally {
        abort.current = null;
      }
      setPublicId('');
      setName('');
      setSplat(null);
      setGlb(null);
      if (splatInput.current) splatInput.current.value = '';
      if (glbInput.current) glbInput.current.value = '';
    },
    {
      success: () => ModelMessages.listUploadSucceeded,
      failure: (caught, form) => {
        errors.mark(isAppError(caught, ErrorCode.InvalidArgument) ? uploadFieldsOf(caught.message, form) : []);
        if (isAppError(caught) && caught.code === ErrorCode.Canceled) return ModelMessages.uploadCanceled;
        // Bad input, a refused file or a Public ID the project already has: the message says which.
        if (isAppError(caught) && (caught.code === ErrorCode.InvalidArgument || caught.code === ErrorCode.AlreadyExists))
          return caught.message;
        console.error(caught);
        return ModelMessages.listUploadFailed;
      },
    },
  );
  const busy = upload.busy;
  // Cancel is there only while uploading: after it (or the upload), 'Upload' takes the focus.
  const submitButton = useRef<HTMLButtonElement>(null);
  useFocusRecovery(upload.status, () => submitButton.current);

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (upload.busy) return;
    errors.mark([]);
    void upload.run({ projectId: chosenProject, publicId, name, splat, glb });
  }

  return (
    <section className="panel upload-panel" aria-labelledby="upload-heading">
      <h2 className="panel-title" id="upload-heading">
        Upload Model
      </h2>
      <form ref={errors.formRef} className="form upload-form" onSubmit={handleSubmit} noValidate aria-labelledby="upload-heading">
        <div className="field">
          <label htmlFor="upload-project">Project</label>
          <select id="upload-project" value={chosenProject} onChange={(e) => setProjectId(e.target.value)} disabled={busy}>
            {projects.map((p) => (
              <option key={p.id} value={p.id}>
                {projectLabel(p)}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="upload-public-id">publicId</label>
          <input
            id="upload-public-id"
            value={publicId}
            onChange={(e) => setPublicId(e.target.value)}
            disabled={busy}
            {...errors.props('publicId')}
          />
        </div>
        <div className="field">
          <label htmlFor="upload-name">Name</label>
          <input id="upload-name" value={name} onChange={(e) => setName(e.target.value)} disabled={busy} {...errors.props('name')} />
        </div>
        <div className="field">
          <label htmlFor="upload-splat">Splat file (.splat, .ply)</label>
          <input
            id="upload-splat"
            ref={splatInput}
            type="file"
            accept={SPLAT_FILE_ACCEPT}
            onChange={(e) => setSplat(e.target.files?.[0] ?? null)}
            disabled={busy}
            {...errors.props('splat')}
            aria-describedby={joinIds(splatProblem ? splatProblemId : undefined, errors.props('splat')['aria-describedby'])}
          />
          <FileProblem id={splatProblemId} problem={splatProblem} />
        </div>
        <div className="field">
          <label htmlFor="upload-glb">GLB file (.glb)</label>
          <input
            id="upload-glb"
            ref={glbInput}
            type="file"
            accept={GLB_FILE_ACCEPT}
            onChange={(e) => setGlb(e.target.files?.[0] ?? null)}
            disabled={busy}
            {...errors.props('glb')}
            aria-describedby={joinIds(glbProblem ? glbProblemId : undefined, errors.props('glb')['aria-describedby'])}
          />
          <FileProblem id={glbProblemId} problem={glbProblem} />
        </div>
        <button ref={submitButton} type="submit" className="button button-primary" aria-disabled={busy || undefined}>
          {busy ? <Spinner size="sm" label="Uploading..." /> : 'Upload'}
        </button>
        {busy ? (
          <button type="button" className="button button-secondary" onClick={() => abort.current?.abort()}>
            Cancel
          </button>
        ) : null}
      </form>
      <p className="visually-hidden" aria-live="polite">
        {busy ? 'Uploading model...' : ''}
      </p>
      <LiveBanner id={errors.messageId} className="upload-result" banner={upload.message} />
    </section>
  );
}

/** Space-separated ids for aria-describedby, or undefined when there are none. */
function joinIds(...ids: Array<string | undefined>): string | undefined {
  const present = ids.filter((id): id is string => typeof id === 'string' && id !== '');
  return present.length > 0 ? present.join(' ') : undefined;
}
