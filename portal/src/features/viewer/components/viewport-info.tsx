/**
 * A viewport's info panel and label: the model's name, publicId, project, capture date, the
 * engine's splat and triangle counts and each 3D file with its size (as downloaded).
 */
import { formatBytes, formatDate, formatNumber } from '@shared/format.js';
import type { Model } from '@shared/types.js';
import type { ViewerFile, ViewerModel } from '../api/viewer-models.js';
import type { DownloadProgress } from '../lib/fetch-bytes.js';
import type { ModelStats } from '../lib/viewport-phase.js';

/** The model's publicId and capture date, over the corner of the view. */
export function ViewportLabel({ model }: { model: Model }) {
  return (
    <div className="viewport-label">
      <span className="mono">{model.publicId}</span>
      <span>{formatDate(model.metadata?.captureDate ?? null)}</span>
    </div>
  );
}

/** What {@link ViewportInfo} shows. */
export interface ViewportInfoProps {
  /** The panel's id (the toolbar's Info button controls it). */
  id: string;
  found: ViewerModel;
  stats: ModelStats;
  /** The model's 3D files. */
  files: readonly ViewerFile[];
  /** Bytes downloaded of each file, by storage path (a file's size is what was downloaded, else its recorded size). */
  progress: Record<string, DownloadProgress>;
}

/**
 * The info panel of a shown model (a landmark named 'Model information: <publicId>').
 */
export function ViewportInfo({ id, found, stats, files, progress }: ViewportInfoProps) {
  const { model } = found;
  return (
    <aside id={id} className="viewport-info" aria-label={`Model information: ${model.publicId}`}>
      <h2 className="viewport-info-title">{model.name}</h2>
      <dl>
        <dt>Public ID</dt>
        <dd className="mono">{model.publicId}</dd>
        <dt>Project</dt>
        <dd>{found.project?.name ?? '—'}</dd>
        <dt>Capture date</dt>
        <dd>{formatDate(model.metadata?.captureDate ?? null)}</dd>
        {stats.splats !== null ? (
          <>
            <dt>Splats</dt>
            <dd data-testid="splat-count">{formatNumber(stats.splats)}</dd>
          </>
        ) : null}
        {stats.triangles !== null ? (
          <>
            <dt>Triangles</dt>
            <dd data-testid="triangle-count">{formatNumber(stats.triangles)}</dd>
          </>
        ) : null}
        {files.map((file) => (
          <div key={file.path} className="viewport-info-row">
            <dt>{file.kind === 'splat' ? 'Splat file' : 'GLB file'}</dt>
            <dd>
              {file.name}, {formatBytes(progress[file.path]?.loaded ?? file.size ?? 0)}
            </dd>
          </div>
        ))}
      </dl>
    </aside>
  );
}
