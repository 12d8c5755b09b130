/**
 * The staged progress panel of the uploads (add-model stages preparing → uploading →
 * processing → finalizing; additional-file stages preparing → uploading → processing →
 * completed) with the per-file status: waiting, uploading with percent, completed, error.
 *
 * For screen readers (WCAG 4.1.3): each uploading file's bar is a named progressbar
 * (`<progress>`, with aria-valuetext), and a polite live region, always in the page, announces the
 * stage, each file's quarter milestones (25 %, 50 %, 75 %; not every percent), and the end
 * ('Upload complete.' or a file's error). A failure's message itself is the form's alert.
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

/** A file's milestone: its percent rounded down to a quarter (0, 25, 50, 75, 100). */
export function milestoneOf(file: FileProgress): number {
  if (file.status === 'completed') return 100;
  return Math.floor(percentOf(file.progress) / 25) * 25;
}

/**
 * What the live region says for the upload's current state; it changes only at a stage change,
 * a file's milestone, a file's end, and the upload's end (so it is announced that often).
 * @returns '' before the upload starts
 */
export function uploadAnnouncement(
  stages: readonly string[],
  current: string | null,
  files: ReadonlyMap<string, FileProgress>,
  done: boolean,
): string {
  if (current === null) return '';
  if (done) return 'Upload complete.';
  const stage = STAGE_LABELS[current] ?? current;
  const parts = [...files.entries()].map(([key, file]) =>
    file.status === 'uploading' ? `${key} ${milestoneOf(file)}% uploaded` : `${key} ${fileStatusText(file).toLowerCase()}`,
  );
  const step = `step ${stages.indexOf(current) + 1} of ${stages.length}`;
  return `${stage} (${step})${parts.length > 0 ? `: ${parts.join(', ')}` : ''}.`;
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
      <p className="visually-hidden" aria-live="polite" aria-atomic="true" data-testid="upload-announcement">
        {uploadAnnouncement(stages, current, files, done)}
      </p>
      <ol className="stages" aria-label="Upload stages">
        {stages.map((stage, i) => {
          const state = i < index || (done && i === index) ? 'done' : i === index ? 'active' : 'pending';
          return (
            <li key={stage} className={`stage stage-${state}`} data-state={state} aria-current={state === 'active' ? 'step' : undefined}>
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
              {file.status === 'uploading' ? (
                <progress
                  max={100}
                  value={percentOf(file.progress)}
                  aria-label={`${key} upload`}
                  aria-valuetext={`${percentOf(file.progress)}% uploaded`}
                />
              ) : null}
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}
