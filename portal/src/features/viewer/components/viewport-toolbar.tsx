/**
 * A viewport's view controls, once its model is shown: fit, zoom in and out, reset, the up-axis
 * flip, a hybrid's splat and mesh toggles, the camera poses' toggle and the info panel's. The
 * buttons do what the canvas's keys do (view-keys.ts).
 */
import type { ViewAction } from '../lib/view-keys.js';

/** What {@link ViewportToolbar} shows and calls. */
export interface ViewportToolbarProps {
  /** The model's publicId (names the group). */
  publicId: string;
  /** A navigation step of the camera rig. */
  onAction: (action: ViewAction) => void;
  /** Whether the up axis is flipped (the y-down fix). */
  flipped: boolean;
  /** The file the flip turns: the splat, or the GLB of a mesh-only model. */
  flipPart: 'splat' | 'mesh';
  onFlip: () => void;
  /** A hybrid's parts and whether each is shown (null: not a hybrid, no toggles). */
  parts: { splat: boolean; mesh: boolean } | null;
  onTogglePart: (part: 'splat' | 'mesh') => void;
  /** The camera poses' toggle (null: the model has no camera metadata); `error` when they could not be read. */
  cameras: { on: boolean; error: string | null } | null;
  onToggleCameras: () => void;
  /** The info panel's toggle (null: none, as in the swipe view); `id` is the panel's. */
  info: { open: boolean; id: string } | null;
  onToggleInfo: () => void;
}

/** The toolbar of a shown model. */
export function ViewportToolbar({
  publicId,
  onAction,
  flipped,
  flipPart,
  onFlip,
  parts,
  onTogglePart,
  cameras,
  onToggleCameras,
  info,
  onToggleInfo,
}: ViewportToolbarProps) {
  return (
    <div className="viewport-toolbar" role="group" aria-label={`View controls for ${publicId}`}>
      <button type="button" onClick={() => onAction({ kind: 'fit' })}>
        Fit to model
      </button>
      <button
        type="button"
        className="viewport-icon-button"
        aria-label="Zoom in"
        title="Zoom in (+ or Page Up)"
        onClick={() => onAction({ kind: 'zoom', direction: 'in' })}
      >
        <span aria-hidden="true">+</span>
      </button>
      <button
        type="button"
        className="viewport-icon-button"
        aria-label="Zoom out"
        title="Zoom out (− or Page Down)"
        onClick={() => onAction({ kind: 'zoom', direction: 'out' })}
      >
        <span aria-hidden="true">−</span>
      </button>
      <button type="button" onClick={() => onAction({ kind: 'reset' })} title="Back to the first view (R or Home)">
        Reset view
      </button>
      <button
        type="button"
        aria-pressed={flipped}
        onClick={onFlip}
        title={`Turn the ${flipPart === 'splat' ? 'splat' : 'mesh'} 180° about x (3D Gaussian-splat training output is y-down)`}
      >
        Flip up axis
      </button>
      {parts ? (
        <>
          <button type="button" aria-pressed={parts.splat} onClick={() => onTogglePart('splat')}>
            Splat
          </button>
          <button type="button" aria-pressed={parts.mesh} onClick={() => onTogglePart('mesh')}>
            Mesh
          </button>
        </>
      ) : null}
      {cameras ? (
        <button
          type="button"
          aria-pressed={cameras.on}
          onClick={onToggleCameras}
          disabled={cameras.error !== null}
          title={
            cameras.error !== null
              ? `The camera metadata could not be read: ${cameras.error}`
              : 'Show the cameras the photos were taken from'
          }
        >
          Cameras
        </button>
      ) : null}
      {info ? (
        <button type="button" aria-expanded={info.open} aria-controls={info.open ? info.id : undefined} onClick={onToggleInfo}>
          Info
        </button>
      ) : null}
    </div>
  );
}
