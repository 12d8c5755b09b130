/**
 * The viewer's camera panel (DESIGN.md §6: from a defect seen in 3D to the original photo): the
 * photo of the selected camera (or why there is none), previous / next / view-from buttons, and a
 * keyboard-usable list of every camera of the model's camera metadata. The frustums themselves
 * are drawn by the engine; selecting a camera here or by clicking its frustum is the same thing.
 */
import { useEffect, useRef, useState } from 'react';
import type { FileStorePort } from '@shared/ports/files.js';
import { fileNameOf } from '@shared/paths.js';
import type { ViewerCamera } from '../api/camera-poses.js';

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

/** The photo of one camera, through a download link of the file-store port. */
function CameraPhoto({ camera, files }: { camera: ViewerCamera; files: FileStorePort }) {
  const [state, setState] = useState<{ path: string; url: string | null; error: string | null } | null>(null);
  const path = camera.imagePath;
  useEffect(() => {
    if (!path) return;
    let active = true;
    setState({ path, url: null, error: null });
    files.getDownloadUrl(path).then(
      (url) => active && setState({ path, url, error: null }),
      (error: unknown) => active && setState({ path, url: null, error: error instanceof Error ? error.message : String(error) }),
    );
    return () => {
      active = false;
    };
  }, [files, path]);

  if (!path) {
    return (
      <p className="camera-photo-missing" data-testid="camera-no-photo">
        No photo for this camera: <span className="mono">{camera.entry.img_name || `camera ${camera.entry.id}`}</span> is not among the
        model's images.
      </p>
    );
  }
  const current = state?.path === path ? state : null;
  if (current?.error)
    return (
      <p className="camera-photo-missing" role="alert">
        The photo could not be loaded: {current.error}
      </p>
    );
  return (
    <figure className="camera-photo">
      {current?.url ? (
        <a href={current.url} target="_blank" rel="noreferrer" title="Open the photo at full size in a new tab">
          <img
            src={current.url}
            alt={`Photo ${fileNameOf(path)} taken from camera ${camera.label}`}
            data-testid="camera-photo"
            onError={() => setState({ path, url: null, error: 'the image could not be read' })}
          />
        </a>
      ) : (
        <div className="camera-photo-placeholder" role="status">
          Loading photo…
        </div>
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
          onSelect(null);
        }
      }}
    >
      <h2 className="camera-panel-title">Cameras</h2>
      <p className="camera-panel-summary">
        {cameras.length.toLocaleString('en-US')} {cameras.length === 1 ? 'camera' : 'cameras'}, {withPhoto.toLocaleString('en-US')} with a
        photo. Click a frustum or pick one below.
      </p>
      <div className="camera-selected-actions">
        <button type="button" onClick={onShowAll} disabled={!drawn.some(Boolean)}>
          Show all cameras
        </button>
      </div>
      {camera ? (
        <section className="camera-selected" aria-live="polite" data-testid="camera-selected">
          <h3 className="camera-selected-title">
            <span className="mono">{camera.label}</span>
            <span className="camera-selected-index">
              {' '}
              — camera {selected! + 1} of {cameras.length}
            </span>
          </h3>
          <CameraPhoto camera={camera} files={files} />
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
            <button type="button" onClick={() => onSelect(null)}>
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
