/**
 * What a viewport shows over its canvas while the model is not (yet) in view: the search for the
 * model, a progress bar per file being downloaded (bytes and percentage), and the one alert
 * region of every failure (not found, no 3D file, a file that could not be shown and why, WebGL
 * unavailable, the camera metadata unreadable; compare mode's reference side says one thing).
 */
import { formatBytes } from '@shared/format.js';
import { CompareMessages } from '@shared/messages.js';
import type { ViewerFile } from '../api/viewer-models.js';
import type { DownloadProgress } from '../lib/fetch-bytes.js';

/** 'Finding model <publicId>…' with a spinner. */
export function FindingOverlay({ publicId }: { publicId: string }) {
  return (
    <div className="viewport-overlay">
      <span className="spinner" aria-hidden="true" />
      Finding model {publicId}…
    </div>
  );
}

/**
 * A progress bar per file: its name, bytes downloaded of its size and the percentage (a splat
 * with a preview shows its preview's, which is downloaded first).
 * @param props.files the model's 3D files
 * @param props.progress bytes downloaded by storage path
 */
export function DownloadOverlay({ files, progress }: { files: readonly ViewerFile[]; progress: Record<string, DownloadProgress> }) {
  return (
    <div className="viewport-overlay viewport-progress">
      {files.map((file) => {
        // a splat with a preview downloads the preview first
        const shown = file.preview ?? file;
        const p = progress[shown.path];
        const total = p?.total ?? shown.size;
        const percent = p && total ? Math.min(100, Math.round((p.loaded / total) * 100)) : null;
        return (
          <div key={file.path} className="progress-row" data-testid="download-progress">
            <span className="progress-name">{shown.name}</span>
            <progress max={100} value={percent ?? undefined} aria-label={`Downloading ${shown.name}`} />
            <span className="progress-figures">
              {formatBytes(p?.loaded ?? 0)}
              {total ? ` of ${formatBytes(total)}` : ''}
              {percent !== null ? ` (${percent}%)` : ''}
            </span>
          </div>
        );
      })}
    </div>
  );
}

/** What {@link ViewportAlerts} shows. */
export interface ViewportAlertsProps {
  publicId: string;
  /** Compare mode's reference side: any failure reads 'Unable to load reference model information.' */
  isReference: boolean;
  /** The failure, if any: what kind, and its detail. */
  failure: { kind: 'not-found' | 'no-files' | 'other'; detail: string | null } | null;
  /** Files that could not be shown beside a shown model. */
  fileErrors: readonly string[];
  /** Why the camera metadata could not be read (null: it could, or there is none). */
  cameraError: string | null;
}

/**
 * The viewport's one alert region, in the page from the start so that a failure is announced
 * when it arrives (WCAG 4.1.3).
 */
export function ViewportAlerts({ publicId, isReference, failure, fileErrors, cameraError }: ViewportAlertsProps) {
  return (
    <div className="viewport-alerts" role="alert">
      {failure && isReference ? (
        <div className="viewport-overlay viewport-message viewport-error">
          <p className="viewport-error-title">{CompareMessages.referenceUnavailable}</p>
          {failure.detail ? <p className="viewport-error-detail">{failure.detail}</p> : null}
        </div>
      ) : null}
      {failure && !isReference ? (
        failure.kind === 'not-found' ? (
          <div className="viewport-overlay viewport-message">
            <h2>Model Not Found</h2>
            <p>No model with public ID {publicId}.</p>
          </div>
        ) : failure.kind === 'no-files' ? (
          <div className="viewport-overlay viewport-message">
            <h2>No 3D File</h2>
            <p>This model has no 3D file.</p>
          </div>
        ) : (
          <div className="viewport-overlay viewport-message viewport-error">
            <h2>The model could not be shown</h2>
            <p>{failure.detail}</p>
          </div>
        )
      ) : null}

      {fileErrors.length > 0 ? (
        <div className="viewport-file-errors">
          {fileErrors.map((message) => (
            <p key={message}>{message}</p>
          ))}
        </div>
      ) : null}

      {cameraError !== null ? <p className="viewport-file-errors camera-error">Could not load the camera metadata: {cameraError}</p> : null}
    </div>
  );
}
