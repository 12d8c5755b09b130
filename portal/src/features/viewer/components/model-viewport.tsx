/**
 * One viewport of the built-in viewer: finds the model by publicId, downloads its splat and/or
 * GLB (progress with bytes and percentage; a large capture from its preview first, then its full
 * copy: hooks/use-model-downloads.ts), renders them with the engine, and shows the toolbar (fit,
 * zoom, reset, up axis, splat/mesh toggles, cameras, info), the info panel, the camera list (both
 * open at the start of the single view, closed on a phone-width screen) and clear states: not found, no 3D file, a file that could not be loaded (which file, and why),
 * WebGL unavailable. For tests the viewport element carries `data-state` (loading | ready |
 * error), `data-refining` (on while a splat is shown from its preview) and, from the engine
 * (hooks/use-viewer-engine.ts), `data-rendered-frames`, `data-camera`, `data-flight`, `data-lod`,
 * `data-picks` and `data-picked`. Keyboard: the canvas (a named application described by the
 * model's name, type and counts) takes arrows, Shift+arrows, +/−, Page Up/Down, F, R and Home
 * (lib/view-keys.ts); the toolbar has the same as buttons. Inspection: in `pickMode` a click (or
 * P, at the view's centre) picks a point of the model instead of a camera, reported to `onPick`
 * in model coordinates and shown in a status line; `markers` are drawn over the model; a new
 * `flyTo.key` flies the camera to `flyTo.point`.
 */
import { useEffect, useId, useRef, useState } from 'react';
import { formatPoint } from '@shared/annotations.js';
import type { ModelPoint } from '@shared/types.js';
import { prefersReducedMotion } from '../../../hooks/use-reduced-motion.js';
import { useBackend } from '../../../lib/backend-context.js';
import { useNarrowScreen } from '../../../lib/navigation.js';
import { hasSplat, viewerFiles, type ViewerModel } from '../api/viewer-models.js';
import { useCameraPoses } from '../hooks/use-camera-poses.js';
import { useModelDownloads } from '../hooks/use-model-downloads.js';
import { useUpAxis, useUpAxisTurn } from '../hooks/use-up-axis.js';
import { useViewerEngine } from '../hooks/use-viewer-engine.js';
import { useViewportTools } from '../hooks/use-viewport-tools.js';
import type { PickResult, ViewerEngine, ViewerMarker } from '../lib/engine.js';
import type { UpAxis } from '../lib/up-axis.js';
import { VIEW_KEYS_HINT } from '../lib/view-keys.js';
import { foundIn, PICK_KEY_HINT, viewportTexts } from '../lib/viewport-phase.js';
import { CameraPanel } from './camera-panel.js';
import { ViewportInfo, ViewportLabel } from './viewport-info.js';
import { DownloadOverlay, FindingOverlay, ViewportAlerts } from './viewport-overlays.js';
import { ViewportToolbar } from './viewport-toolbar.js';
import './measure-tool.css';

/** How the viewport sits on the page: alone, side by side in compare mode, or stacked in the swipe view. */
export type ViewportVariant = 'single' | 'compare' | 'swipe';

export interface ModelViewportProps {
  /** The model to show (the viewer link's `id` or `referenceId`). */
  publicId: string;
  /** Compare mode's reference side: any failure reads 'Unable to load reference model information.' */
  isReference?: boolean;
  /** Layout (default 'single'): the info panel starts open only in the single view and is hidden in the swipe view. */
  variant?: ViewportVariant;
  /** An up-axis choice from the URL, which wins over the remembered one. */
  upAxis?: UpAxis | null;
  /** Called when the user flips the up axis (after it is remembered for the publicId). */
  onUpAxisChange?: (up: UpAxis) => void;
  /** Receives the engine once created (and null when it goes), e.g. to link compare cameras. */
  onEngine?: (engine: ViewerEngine | null) => void;
  /** Receives the model once found (null: not found). */
  onModel?: (found: ViewerModel | null) => void;
  /** Called once the model is loaded and framed. */
  onReady?: () => void;
  /** Extra class on the viewport element (compare layouts). */
  className?: string;
  /** When true, a click on the model (or P at the view's centre) picks a point instead of a camera. */
  pickMode?: boolean;
  /** Receives each picked point (model coordinates); a click that misses the model reports nothing. */
  onPick?: (pick: PickResult) => void;
  /** Drawn over the model (points in model coordinates); replaced whenever the array changes. */
  markers?: readonly ViewerMarker[];
  /** Flies the camera to `point` (model coordinates) whenever `key` changes (a jump under reduced motion). */
  flyTo?: { point: ModelPoint; key: number } | null;
}

/**
 * The viewport of one model. Give it a `key` of its publicId where the publicId can change: the
 * engine's scene is filled once.
 */
export function ModelViewport({
  publicId,
  isReference = false,
  variant = 'single',
  upAxis = null,
  onUpAxisChange,
  onEngine,
  onModel,
  onReady,
  className,
  pickMode = false,
  onPick,
  markers,
  flyTo = null,
}: ModelViewportProps) {
  const { files } = useBackend();
  const rootRef = useRef<HTMLDivElement>(null);
  const hostRef = useRef<HTMLDivElement>(null);
  const summaryId = useId();
  const keysId = useId();
  const infoId = useId();
  const [visible, setVisible] = useState({ splat: true, mesh: true });
  // A phone's 3D view is a third of its screen once a tool panel is open: the model's info and
  // its camera list start closed there (their toggles open them), or they cover the model and each other.
  const narrow = useNarrowScreen();
  const [infoOpen, setInfoOpen] = useState(variant === 'single' && !narrow);
  const { engineRef, canvasRef, webglError, picked } = useViewerEngine({
    hostRef,
    rootRef,
    describedBy: `${summaryId} ${keysId}`,
    pickMode,
    onEngine,
    onPick,
  });
  const up = useUpAxis(publicId, upAxis, onUpAxisChange);
  const flipped = (withSplat: boolean) => up.upFor(withSplat) === 'y-down';
  const { phase, progress, fileErrors, stats, refining } = useModelDownloads({ engineRef, publicId, flipped, onModel, onReady });
  const found = foundIn(phase);
  const model = found?.model ?? null;
  const modelFiles = model ? viewerFiles(model) : [];
  const ready = phase.kind === 'ready';
  const withSplat = model ? hasSplat(model) : true;
  const flipPart = model && withSplat ? 'splat' : 'mesh';
  const effectiveUp = up.upFor(withSplat);
  useUpAxisTurn(engineRef, ready, effectiveUp, flipPart);

  // The canvas's name: the model once found.
  useEffect(() => {
    canvasRef.current?.setAttribute('aria-label', `3D view of ${model ? `${model.name} (${model.publicId})` : `model ${publicId}`}`);
  }, [canvasRef, model, publicId]);

  const cameras = useCameraPoses({ engineRef, model, ready, part: flipPart, initiallyOn: variant === 'single' && !narrow, pickMode });
  useViewportTools({
    engineRef,
    ready,
    pickMode,
    camerasShown: cameras.list !== null && cameras.on,
    onCamera: cameras.select,
    markers,
    flyTo,
  });

  function toggle(part: 'splat' | 'mesh') {
    const next = { ...visible, [part]: !visible[part] };
    setVisible(next);
    engineRef.current?.setVisible(part, next[part]);
  }

  const kinds = modelFiles.map((file) => file.kind);
  const texts = viewportTexts(phase, webglError, publicId, kinds, stats, refining);
  return (
    <div
      ref={rootRef}
      className={`viewport viewport-${variant}${className ? ` ${className}` : ''}`}
      data-testid="viewport"
      data-state={texts.state}
      data-rendered-frames="0"
      data-public-id={publicId}
      data-refining={refining ? 'on' : 'off'}
    >
      <div ref={hostRef} className="viewport-canvas-host" />
      {/* The canvas's accessible description: the model and the keys (the hint shows while the canvas has keyboard focus). */}
      <p id={summaryId} className="visually-hidden" data-testid="viewport-summary">
        {texts.summary}
      </p>
      <p id={keysId} className="viewport-keys">
        {VIEW_KEYS_HINT}
        {pickMode ? ` ${PICK_KEY_HINT}` : ''}
      </p>
      {pickMode && ready ? <div className="viewport-crosshair" aria-hidden="true" /> : null}
      {/* The last pick in model units (announced: role=status); in the page from the start of pick mode, before its text. */}
      {pickMode ? (
        <p className="viewport-pick" role="status" data-testid="pick-readout">
          {picked
            ? picked.pick
              ? `Picked ${formatPoint(picked.pick.point)} on the ${picked.pick.part === 'splat' ? 'splat' : 'mesh'} (model units)`
              : 'No point of the model there: pick on the model.'
            : ''}
        </p>
      ) : null}
      {/* Announced politely (role=status, always in the page so the change is heard); errors go to the alert region. */}
      <p className="visually-hidden" role="status" data-testid="viewport-status">
        {texts.announcement}
      </p>

      {phase.kind === 'resolving' && webglError === null ? <FindingOverlay publicId={publicId} /> : null}
      {phase.kind === 'loading' && webglError === null ? <DownloadOverlay files={modelFiles} progress={progress} /> : null}

      <ViewportAlerts
        publicId={publicId}
        isReference={isReference}
        failure={
          texts.failed
            ? {
                kind: webglError === null && (phase.kind === 'not-found' || phase.kind === 'no-files') ? phase.kind : 'other',
                detail: texts.failureDetail,
              }
            : null
        }
        fileErrors={ready ? fileErrors : []}
        cameraError={ready && cameras.withCameras && cameras.cameras.status === 'error' ? cameras.cameras.error.message : null}
      />

      {model ? <ViewportLabel model={model} /> : null}

      {ready && model ? (
        <ViewportToolbar
          publicId={model.publicId}
          onAction={(action) => engineRef.current?.rig.perform(action)}
          flipped={effectiveUp === 'y-down'}
          flipPart={flipPart}
          onFlip={() => up.flip(withSplat)}
          parts={modelFiles.length === 2 ? visible : null}
          onTogglePart={toggle}
          cameras={cameras.withCameras ? { on: cameras.on, error: cameras.cameras.error?.message ?? null } : null}
          onToggleCameras={cameras.toggle}
          info={variant !== 'swipe' ? { open: infoOpen, id: infoId } : null}
          onToggleInfo={() => setInfoOpen(!infoOpen)}
        />
      ) : null}

      {ready && cameras.on && cameras.list && model ? (
        <CameraPanel
          cameras={cameras.list}
          drawn={cameras.drawn}
          selected={cameras.selected}
          onSelect={cameras.select}
          onViewFrom={(index) => engineRef.current?.cameraPoses.viewFrom(index, !prefersReducedMotion())}
          onShowAll={() => engineRef.current?.cameraPoses.fitAll()}
          files={files}
          publicId={model.publicId}
        />
      ) : null}

      {found && infoOpen && variant !== 'swipe' && ready ? (
        <ViewportInfo id={infoId} found={found} stats={stats} files={modelFiles} progress={progress} />
      ) : null}
    </div>
  );
}
