/**
 * "Photos of this point": for the picked point, the cameras of the model's camera
 * metadata whose photo contains it (shared/photo-projection.ts `camerasSeeingPoint`: pinhole, in
 * front of the camera, inside the image; best first by distance and viewing angle), as
 * thumbnails of the model's photos with the point marked where the geometry puts it — at
 * (u / width, v / height) of the photo, a CSS-positioned mark over the <img> — plus the distance
 * and the angle. One opens large with the mark, and the 3D view can fly to that camera. No
 * occlusion test: a camera behind a wall still counts (the module documents it).
 */
import { useMemo, useState } from 'react';
import { formatPoint } from '@shared/annotations.js';
import { camerasSeeingPoint, type PointView } from '@shared/photo-projection.js';
import { fileNameOf } from '@shared/paths.js';
import type { FileStorePort } from '@shared/ports/files.js';
import type { ModelPoint } from '@shared/types.js';
import { usePromise, type Resource } from '../../../lib/resource.js';
import type { ViewerCamera } from '../api/camera-poses.js';
import '../findings.css';
import { formatNumber } from '@shared/format.js';

/** How many thumbnails show before 'Show all'. */
export const PHOTOS_SHOWN = 12;

/**
 * The cameras that see a point, best first (empty for a malformed point).
 * @param cameras the model's cameras (camera-poses.ts), in file order
 * @param point the point, model coordinates
 * @param normal the surface's outward normal there when known (a mesh pick): the cameras that
 *   look at the back of the surface are left out
 */
export function viewsOfPoint(cameras: readonly ViewerCamera[], point: ModelPoint, normal: ModelPoint | null = null): PointView[] {
  try {
    return camerasSeeingPoint(
      cameras.map((c) => c.entry),
      point,
      { normal },
    );
  } catch {
    return [];
  }
}

export interface PhotosAtPanelProps {
  /** The picked point (model coordinates), or null before a pick. */
  point: ModelPoint | null;
  /** The surface normal at the point (model coordinates) when the pick knows it, else null. */
  normal?: ModelPoint | null;
  /** The model's cameras: null when it has no camera metadata. */
  cameras: Resource<ViewerCamera[]> | null;
  /** Where photo links come from. */
  files: FileStorePort;
  /** Flies the 3D view to camera `index` (of the camera metadata). */
  onViewFrom: (index: number) => void;
}

/** A photo's download link (null while it loads), or why it failed. */
function usePhotoUrl(files: FileStorePort, path: string | null): Resource<string> {
  return usePromise(path, () => files.getDownloadUrl(path!));
}

/** 'distance 2.41 units · 12.3°'. */
function figuresOf(view: PointView): string {
  return `${view.distance.toFixed(view.distance >= 10 ? 1 : 2)} units away · ${view.angle.toFixed(1)}° off axis`;
}

/** A photo with the point marked on it (at u/width, v/height); a box of the photo's shape when there is no photo. */
function MarkedPhoto({ view, camera, files, large }: { view: PointView; camera: ViewerCamera; files: FileStorePort; large: boolean }) {
  const url = usePhotoUrl(files, camera.imagePath);
  const left = (view.u / view.camera.width) * 100;
  const top = (view.v / view.camera.height) * 100;
  const name = camera.imagePath ? fileNameOf(camera.imagePath) : camera.label;
  return (
    <span
      className={`photo-marked${large ? ' photo-marked-large' : ''}`}
      style={camera.imagePath && url.status === 'success' ? undefined : { aspectRatio: `${view.camera.width} / ${view.camera.height}` }}
    >
      {camera.imagePath && url.status === 'success' ? (
        <img src={url.data} alt={`Photo ${name}`} data-testid="photo-at-image" />
      ) : (
        <span className="photo-marked-missing">
          {camera.imagePath === null ? 'No photo' : url.status === 'error' ? 'Photo not available' : 'Loading…'}
        </span>
      )}
      <span
        className="photo-mark"
        aria-hidden="true"
        data-testid="photo-at-mark"
        data-u={view.u.toFixed(2)}
        data-v={view.v.toFixed(2)}
        style={{ left: `${left}%`, top: `${top}%` }}
      />
    </span>
  );
}

/** The panel. */
export function PhotosAtPanel({ point, normal = null, cameras, files, onViewFrom }: PhotosAtPanelProps) {
  const [open, setOpen] = useState<number | null>(null);
  const [showAll, setShowAll] = useState(false);
  const list = cameras?.status === 'success' ? cameras.data : null;
  const views = useMemo(() => (list && point ? viewsOfPoint(list, point, normal) : []), [list, point, normal]);
  const opened = open === null ? null : (views.find((v) => v.index === open) ?? null);
  const shown = showAll ? views : views.slice(0, PHOTOS_SHOWN);

  let body;
  if (cameras === null) {
    body = <p className="findings-muted">This model has no camera metadata, so the photos that see a point cannot be found.</p>;
  } else if (cameras.status === 'loading') {
    body = <p className="findings-muted">Loading the camera metadata…</p>;
  } else if (cameras.status === 'error') {
    body = <p className="findings-error">The camera metadata could not be read: {cameras.error.message}</p>;
  } else if (point === null) {
    body = <p className="findings-muted">Click the model to pick a point: the photos that see it are listed here.</p>;
  } else if (views.length === 0) {
    body = (
      <p className="findings-muted" data-testid="photos-at-none">
        None of the model's {formatNumber(cameras.data.length)} cameras sees this point.
      </p>
    );
  } else {
    body = (
      <>
        <p className="findings-muted">
          {formatNumber(views.length)} of {formatNumber(cameras.data.length)} cameras see the point, best first (nearest, most head-on).{' '}
          {normal
            ? 'Cameras behind the picked surface are left out; nothing here knows what else may hide the point.'
            : 'Nothing here knows what hides the point: a camera behind a wall is listed too.'}
        </p>
        {opened ? (
          <figure className="photo-at-open" data-testid="photo-at-open">
            <MarkedPhoto view={opened} camera={list![opened.index]!} files={files} large />
            <figcaption>
              <span className="mono">{list![opened.index]!.label}</span> — {figuresOf(opened)}; the point at pixel ({opened.u.toFixed(0)},{' '}
              {opened.v.toFixed(0)}).
            </figcaption>
            <span className="photo-at-actions">
              <button type="button" onClick={() => onViewFrom(opened.index)}>
                View from this camera
              </button>
              <button type="button" onClick={() => setOpen(null)}>
                Close photo
              </button>
            </span>
          </figure>
        ) : null}
        <ol className="photos-at-list" aria-label="Photos that see the point">
          {shown.map((view) => {
            const camera = list![view.index]!;
            return (
              <li key={view.index} data-testid="photo-at" data-camera-index={view.index} data-img-name={view.camera.img_name}>
                <button
                  type="button"
                  aria-pressed={open === view.index}
                  onClick={() => setOpen(open === view.index ? null : view.index)}
                  title="Open this photo large"
                >
                  <MarkedPhoto view={view} camera={camera} files={files} large={false} />
                  <span className="photo-at-caption">
                    <span className="mono">{camera.label}</span>
                    <span className="photo-at-figures">{figuresOf(view)}</span>
                  </span>
                </button>
              </li>
            );
          })}
        </ol>
        {views.length > PHOTOS_SHOWN ? (
          <button type="button" onClick={() => setShowAll(!showAll)}>
            {showAll ? `Show the best ${PHOTOS_SHOWN}` : `Show all ${formatNumber(views.length)}`}
          </button>
        ) : null}
      </>
    );
  }

  return (
    <section className="photos-at-panel" aria-labelledby="photos-at-title" data-testid="photos-at-panel">
      <h2 id="photos-at-title" className="findings-title">
        Photos of this point
      </h2>
      {point ? (
        <p className="findings-muted">
          Point <span className="mono">{formatPoint(point)}</span> (model units)
        </p>
      ) : null}
      {/* The count is announced after each pick (the region is in the page from the start). */}
      <p className="visually-hidden" role="status">
        {point && list ? `${formatNumber(views.length)} ${views.length === 1 ? 'photo sees' : 'photos see'} the point.` : ''}
      </p>
      {body}
    </section>
  );
}
