/**
 * The viewer's camera panel (from a defect seen in 3D to the original photo): the
 * photo of the selected camera (or why there is none), previous / next / view-from buttons, and a
 * keyboard-usable list of every camera of the model's camera metadata. The frustums themselves
 * are drawn by the engine; selecting a camera here or by clicking its frustum is the same thing.
 */
import { useEffect, useRef, useState } from 'react';
import type { FileStorePort } from '@shared/ports/files.js';
import { fileNameOf } from '@shared/paths.js';
import type { ViewerCamera } from '../api/camera-poses.js';
import { formatNumber } from '@shared/format.js';
import { errorMessage } from '@shared/errors.js';

export interface CameraPanelProps {
  cameras: readonly ViewerCamera[];
  /** For each camera, whether its frustum is drawn (a malformed pose is listed but not drawn). */
  drawn: readonly boolean[];
  /** The selected camera's index, or null. */
  selected: number | null;
  /** Selects a camera (the viewport then highlights it and flies to its pose), or none. */
  onSelect: (index: number | null) => void;
  /** Moves the view to the selected camera's pose again. */
  onViewFrom: (index: number) => void;
  /** Frames the model and all the cameras. */
  onShowAll: () => void;
  /** Where photo links come from. */
  files: FileStorePort;
  /** The model's publicId (names the panel for screen readers). */
  publicId: string;
}

/** The download link of a camera's photo: null while it loads (or without a photo), or why it failed. */
interface PhotoLink {
  path: string;
  url: string | null;
  error: string | null;
}

/** The download link of the photo at `path` (none for null), through the file-store port. */
function usePhotoLink(files: FileStorePort, path: string | null): [PhotoLink | null, (error: string) => void] {
  const [state, setState] = useState<PhotoLink | null>(null);
  useEffect(() => {
    if (!path) return;
    let active = true;
    // A photo opened again keeps its link while a fresh one is fetched: no flash of the
    // placeholder, and the link stays where the keyboard user left it.
    setState((previous) => (previous?.path === path && previous.url !== null ? previous : { path, url: null, error: null }));
    files.getDownloadUrl(path).then(
      (url) => active && setState({ path, url, error: null }),
      (error: unknown) => active && setState({ path, url: null, error: errorMessage(error) }),
    );
    return () => {
      active = false;
    };
  }, [files, path]);
  const current = path !== null && state?.path === path ? state : null;
  return [current, (error) => path && setState({ path, url: null, error })];
}

/** The photo of one camera (its link from {@link usePhotoLink}); a failed link is told in the panel's alert region. */
function CameraPhoto({ camera, link, onImageError }: { camera: ViewerCamera; link: PhotoLink | null; onImageError: () => void }) {
  const path = camera.imagePath;
  if (!path) {
    return (
      <p className="camera-photo-missing" data-testid="camera-no-photo">
        No photo for this camera: <span className="mono">{camera.entry.img_name || `camera ${camera.entry.id}`}</span> is not among the
        model's images.
      </p>
    );
  }
  if (link?.error) return null;
  return (
    <figure className="camera-photo">
      {link?.url ? (
        <a href={link.url} target="_blank" rel="noreferrer" title="Open the photo at full size in a new tab">
          <img
            src={link.url}
            alt={`Photo ${fileNameOf(path)} taken from camera ${camera.label}`}
            data-testid="camera-photo"
            onError={onImageError}
          />
          <span className="visually-hidden"> (opens the photo at full size in a new tab)</span>
        </a>
      ) : (
        <div className="camera-photo-placeholder">Loading photo…</div>
      )}
      <figcaption>
        <span className="mono">{fileNameOf(path)}</span>
        {camera.matchedBy === 'index' ? (
          <span className="camera-photo-note"> (matched by camera index, as the 3DGS render script names its photos)</span>
        ) : null}
      </figcaption>
    </figure>
  );
}

/** The panel: selected camera's photo and the list of cameras. */
export function CameraPanel({ cameras, drawn, selected, onSelect, onViewFrom, onShowAll, files, publicId }: CameraPanelProps) {
  const listRef = useRef<HTMLOListElement>(null);
  const withPhoto = cameras.filter((c) => c.imagePath !== null).length;
  const camera = selected === null ? null : (cameras[selected] ?? null);
  const [link, setLinkError] = usePhotoLink(files, camera?.imagePath ?? null);
  const selectedRef = useRef<HTMLElement>(null);

  /**
   * Closes the photo (no camera selected). When the keyboard focus was on the photo's own
   * controls (which go), it moves to the camera's entry in the list, so the user is where they were.
   */
  const closePhoto = () => {
    if (selected === null) return;
    const inside = selectedRef.current?.contains(document.activeElement) ?? false;
    const entry = listRef.current?.querySelector<HTMLElement>(`[data-camera-index="${selected}"]`);
    onSelect(null);
    if (inside) entry?.focus();
  };

  // A camera picked in the 3D view scrolls into sight in the list.
  useEffect(() => {
    if (selected === null) return;
    const item = listRef.current?.querySelector<HTMLElement>(`[data-camera-index="${selected}"]`);
    item?.scrollIntoView?.({ block: 'nearest' });
  }, [selected]);

  const step = (delta: number) => {
    if (cameras.length === 0) return;
    const from = selected ?? (delta > 0 ? -1 : 0);
    onSelect((from + delta + cameras.length) % cameras.length);
  };

  return (
    <aside
      className="camera-panel"
      aria-label={`Cameras of ${publicId}`}
      data-testid="camera-panel"
      onKeyDown={(event) => {
        if (event.key === 'Escape' && selected !== null) {
          event.stopPropagation();
          closePhoto();
        }
      }}
    >
      <h2 className="camera-panel-title">Cameras</h2>
      <p className="camera-panel-summary">
        {formatNumber(cameras.length)} {cameras.length === 1 ? 'camera' : 'cameras'}, {formatNumber(withPhoto)} with a photo. Click a
        frustum or pick one below.
      </p>
      {/* Live regions in the panel from the start: the selected camera (polite), a photo that could not be loaded (alert). */}
      <p className="visually-hidden" role="status" data-testid="camera-status">
        {camera
          ? `Camera ${camera.label}, ${selected! + 1} of ${cameras.length}: ${camera.imagePath ? `photo ${fileNameOf(camera.imagePath)}` : 'no photo'}.`
          : ''}
      </p>
      <div role="alert" className="camera-alerts">
        {camera && link?.error ? <p className="camera-photo-missing">The photo could not be loaded: {link.error}</p> : null}
      </div>
      <div className="camera-selected-actions">
        <button type="button" onClick={onShowAll} disabled={!drawn.some(Boolean)}>
          Show all cameras
        </button>
      </div>
      {camera ? (
        <section ref={selectedRef} className="camera-selected" data-testid="camera-selected">
          <h3 className="camera-selected-title">
            <span className="mono">{camera.label}</span>
            <span className="camera-selected-index">
              {' '}
              — camera {selected! + 1} of {cameras.length}
            </span>
          </h3>
          <CameraPhoto camera={camera} link={link} onImageError={() => setLinkError('the image could not be read')} />
          {!drawn[selected!] ? <p className="camera-photo-missing">This camera's pose could not be read, so it is not drawn.</p> : null}
          <div className="camera-selected-actions">
            <button type="button" onClick={() => step(-1)} aria-label="Previous camera">
              ← Previous
            </button>
            <button type="button" onClick={() => onViewFrom(selected!)} disabled={!drawn[selected!]}>
              View from camera
            </button>
            <button type="button" onClick={() => step(1)} aria-label="Next camera">
              Next →
            </button>
            <button type="button" onClick={closePhoto}>
              Close photo
            </button>
          </div>
        </section>
      ) : null}
      <ol ref={listRef} className="camera-list" aria-label="Cameras">
        {cameras.map((c, index) => (
          <li key={index}>
            <button
              type="button"
              data-camera-index={index}
              aria-pressed={index === selected}
              onClick={() => onSelect(index)}
              className={c.imagePath ? undefined : 'camera-no-photo'}
            >
              <span className="mono">{c.label}</span>
              {c.imagePath ? null : <span className="camera-list-note"> (no photo)</span>}
            </button>
          </li>
        ))}
      </ol>
    </aside>
  );
}
