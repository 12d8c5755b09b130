/**
 * The staged progress panel of the uploads (SPEC.md §4 add-model stages preparing → uploading →
 * processing → finalizing; additional-file stages preparing → uploading → processing →
 * completed) with the per-file status: waiting, uploading with percent, completed, error.
 */
import type { UploadProgress } from '@shared/ports/index.js';
import type { FileStatus } from '@shared/workflows/index.js';
import './forms.css';

export interface FileProgress {
  status: FileStatus;
  progress?: UploadProgress;
}

const STAGE_LABELS: Record<string, string> = {
  preparing: 'Preparing',
  uploading: 'Uploading',
  processing: 'Processing',
  finalizing: 'Finalizing',
  completed: 'Completed',
};

/** Percent of an upload, 0–100 (0 when the total is unknown). */
export function percentOf(progress: UploadProgress | undefined): number {
  if (!progress || progress.totalBytes <= 0) return 0;
  return Math.min(100, Math.round((progress.bytesTransferred / progress.totalBytes) * 100));
}

export function fileStatusText(file: FileProgress): string {
  switch (file.status) {
    case 'waiting':
      return 'Waiting';
    case 'uploading':
      return `Uploading ${percentOf(file.progress)}%`;
    case 'completed':
      return 'Completed';
    case 'error':
      return 'Error';
  }
}

export function UploadProgressPanel({
  stages,
  current,
  files,
  done = false,
}: {
  stages: readonly string[];
  /** The current stage, or null before the upload starts. */
  current: string | null;
  files: ReadonlyMap<string, FileProgress>;
  /** True once the last stage has finished. */
  done?: boolean;
}) {
  const index = current === null ? -1 : stages.indexOf(current);
  return (
    <section className="panel upload-progress" aria-label="Upload progress">
      <ol className="stages">
        {stages.map((stage, i) => {
          const state = i < index || (done && i === index) ? 'done' : i === index ? 'active' : 'pending';
          return (
            <li key={stage} className={`stage stage-${state}`} data-state={state}>
              {STAGE_LABELS[stage] ?? stage}
            </li>
          );
        })}
      </ol>
      {files.size > 0 ? (
        <ul className="file-progress plain-list">
          {[...files.entries()].map(([key, file]) => (
            <li key={key} className={`file-status file-${file.status}`}>
              <span className="mono">{key}</span>
              <span className="file-status-text">{fileStatusText(file)}</span>
              {file.status === 'uploading' ? <progress max={100} value={percentOf(file.progress)} /> : null}
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}
