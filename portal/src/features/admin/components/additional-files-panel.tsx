/**
 * The upload-additional-files panel of the model management screen (stages preparing →
 * uploading → processing → completed and back to preparing after 3 seconds, the camera metadata
 * checks, their messages). Cancel during an upload aborts it: 'Upload canceled.', nothing added
 * to the model. The outcome and the progress are announced (live regions).
 */
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { ADDITIONAL_UPLOAD_STATUS_RESET_MS, CAMERA_METADATA_LIMIT_TEXT, CAMERA_METADATA_REQUIRED_FIELDS } from '@shared/constants.js';
import { PHOTO_FILE_ACCEPT } from '@shared/content-check/image.js';
import { isAppError, ErrorCode } from '@shared/errors.js';
import { ModelMessages, cameraMetadataUploaded, filesUploaded } from '@shared/messages.js';
import {
  ADDITIONAL_UPLOAD_STAGES,
  type AdditionalFileKind,
  type AdditionalUploadHooks,
  type AdditionalUploadStage,
} from '@shared/workflows/index.js';
import { LiveBanner } from '../../../components/ui/banner.js';
import { Field, useFocusRecovery } from '../../../components/ui/field.js';
import { UploadProgressPanel, type FileProgress } from '../../../components/ui/upload-progress.js';
import { useAction } from '../../../hooks/use-action.js';

const KINDS: Array<{ kind: AdditionalFileKind; label: string; accept?: string }> = [
  { kind: 'images', label: 'Images', accept: PHOTO_FILE_ACCEPT },
  { kind: 'thumbnails', label: 'Thumbnails', accept: PHOTO_FILE_ACCEPT },
  { kind: 'assets', label: 'Assets' },
  { kind: 'cameraMetadata', label: 'Camera Metadata', accept: '.json,application/json' },
];

/** A chosen file's text (Blob.text where available, else FileReader). */
export function readFileText(file: Blob): Promise<string> {
  if (typeof file.text === 'function') return file.text();
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error('Could not read the file'));
    reader.readAsText(file);
  });
}

export interface AdditionalFilesPanelProps {
  onUploadFiles: (
    kind: Exclude<AdditionalFileKind, 'cameraMetadata'>,
    files: File[],
    hooks: AdditionalUploadHooks,
  ) => Promise<{ count: number; folder: string }>;
  onUploadCameraMetadata: (files: Array<{ name: string; text: string }>, hooks: AdditionalUploadHooks) => Promise<{ cameras: number }>;
  /** After a successful upload (the files table reloads). */
  onUploaded?: () => void;
  resetMs?: number;
}

export function AdditionalFilesPanel({
  onUploadFiles,
  onUploadCameraMetadata,
  onUploaded,
  resetMs = ADDITIONAL_UPLOAD_STATUS_RESET_MS,
}: AdditionalFilesPanelProps) {
  const [kind, setKind] = useState<AdditionalFileKind>('images');
  const [chosen, setChosen] = useState<File[]>([]);
  const [stage, setStage] = useState<AdditionalUploadStage | null>(null);
  const [files, setFiles] = useState<Map<string, FileProgress>>(new Map());
  const input = useRef<HTMLInputElement>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const abort = useRef<AbortController | null>(null);
  useEffect(() => () => void (timer.current && clearTimeout(timer.current)), []);

  const hooks = (signal: AbortSignal): AdditionalUploadHooks => ({
    signal,
    onStage: setStage,
    onFile: (name, status, progress) => setFiles((current) => new Map(current).set(name, { status, progress })),
  });

  /** Uploads the chosen files; resolves to the success text. */
  async function send(signal: AbortSignal): Promise<string> {
    if (kind === 'cameraMetadata') {
      const texts = await Promise.all(chosen.map(async (file) => ({ name: file.name, text: await readFileText(file) })));
      const { cameras } = await onUploadCameraMetadata(texts, hooks(signal));
      return cameraMetadataUploaded(cameras);
    }
    const { count, folder } = await onUploadFiles(kind, chosen, hooks(signal));
    return filesUploaded(count, folder);
  }

  const upload = useAction(
    async () => {
      setFiles(new Map());
      const controller = new AbortController();
      abort.current = controller;
      try {
        const text = await send(controller.signal);
        setChosen([]);
        if (input.current) input.current.value = '';
        onUploaded?.();
        timer.current = setTimeout(() => {
          setStage(null);
          setFiles(new Map());
        }, resetMs);
        return text;
      } catch (error) {
        setStage(null);
        throw error;
      } finally {
        abort.current = null;
      }
    },
    {
      success: (text) => text,
      failure: (error) => {
        if (isAppError(error, ErrorCode.InvalidArgument)) return error.message;
        if (isAppError(error, ErrorCode.Canceled)) return ModelMessages.uploadCanceled;
        console.error(error);
        return ModelMessages.uploadFilesFailed;
      },
    },
  );

  function submit(event: FormEvent) {
    event.preventDefault();
    if (upload.busy || chosen.length === 0) return;
    void upload.run();
  }

  const current = KINDS.find((k) => k.kind === kind);
  // Cancel is there only while uploading: after it, 'Upload Files' takes the focus.
  const submitButton = useRef<HTMLButtonElement>(null);
  useFocusRecovery(upload.status, () => submitButton.current);
  return (
    <form className="panel" aria-label="Upload Additional Files" onSubmit={submit} noValidate>
      <h3 className="panel-title">Upload Additional Files</h3>
      <LiveBanner banner={upload.message} />
      <div className="sort-buttons" role="radiogroup" aria-label="File type">
        {KINDS.map((k) => (
          <label key={k.kind} className="radio">
            <input
              type="radio"
              name="additional-kind"
              checked={kind === k.kind}
              onChange={() => {
                setKind(k.kind);
                setChosen([]);
                if (input.current) input.current.value = '';
              }}
            />
            {k.label}
          </label>
        ))}
      </div>
      {kind === 'cameraMetadata' ? (
        <p className="muted small">
          One JSON file, up to {CAMERA_METADATA_LIMIT_TEXT}. Required fields: {CAMERA_METADATA_REQUIRED_FIELDS.join(', ')}.
        </p>
      ) : null}
      <Field label="Files">
        <input ref={input} type="file" multiple accept={current?.accept} onChange={(e) => setChosen([...(e.target.files ?? [])])} />
      </Field>
      <UploadProgressPanel stages={ADDITIONAL_UPLOAD_STAGES} current={stage} files={files} done={stage === 'completed'} />
      <div className="actions">
        {upload.busy ? (
          <button type="button" className="button button-secondary" onClick={() => abort.current?.abort()}>
            Cancel
          </button>
        ) : null}
        <button
          ref={submitButton}
          type="submit"
          className="button button-primary"
          aria-disabled={upload.busy || chosen.length === 0 || undefined}
        >
          {upload.busy ? 'Uploading...' : 'Upload Files'}
        </button>
      </div>
    </form>
  );
}
