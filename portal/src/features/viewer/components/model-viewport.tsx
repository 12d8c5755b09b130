/**
 * One viewport of the built-in viewer: finds the model by publicId, downloads its splat and/or
 * GLB through the file-store port's download links (progress with bytes and percentage), renders
 * them with the engine (three.js + Spark + GLTFLoader), and shows the toolbar (fit, reset, up
 * axis, splat/mesh toggles, info), the info panel and clear states: not found, no 3D file, a file
 * that could not be loaded (which file, and why), WebGL unavailable. Exposes `data-state`
 * (loading | ready | error), `data-rendered-frames`, `data-camera` (the drawn view, also on the
 * canvas) and `data-flight` (on | off) on the viewport element for tests. Keyboard: the canvas
 * (a named application described by the model's name, type and counts) takes arrows, Shift+arrows,
 * +/−, Page Up/Down, F, R and Home (lib/view-keys.ts); the toolbar has the same as buttons.
 * Inspection (issue 18): in `pickMode` a click (or P, at the view's centre) picks a point of the
 * model instead of a camera, reported to `onPick` in model coordinates, shown in a status line and
 * as `data-picked` (JSON of the point; `data-picks` counts the picks, misses included) on the viewport element; `markers` are drawn over the
 * model; a new `flyTo.key` flies the camera to `flyTo.point`.
 * A large capture's splat with a preview (its most important Gaussians, a small part of the bytes)
 * is shown from the preview first: the viewport is ready (framed, tools usable) once the preview
 * is drawn, and the full copy, downloaded meanwhile, replaces it without moving the camera; the
 * status says so until then (`data-refining` on the viewport element is 'on' meanwhile). If the
 * full copy fails, the preview stays and the failure is shown as a file error. A splat of more than
 * `LOD_ABOVE_GAUSSIANS` is drawn through its level-of-detail tree (`data-lod` is 'on').
 */
import { useEffect, useId, useRef, useState } from 'react';
import { formatBytes, formatDate } from '@shared/format.js';
import { CompareMessages } from '@shared/messages.js';
import { formatPoint } from '@shared/annotations.js';
import type { Model, ModelPoint } from '@shared/types.js';
import { useLatest } from '../../../hooks/use-latest.js';
import { useBackend } from '../../../lib/backend-context.js';
import { hasCameraMetadata, useViewerCameras } from '../api/camera-poses.js';
import { findViewerModel, hasSplat, viewerFiles, type ViewerFile, type ViewerModel } from '../api/viewer-models.js';
import { ViewerEngine, type PickResult, type ViewerMarker } from '../lib/engine.js';
import { fetchBytes, type DownloadProgress } from '../lib/fetch-bytes.js';
import { defaultUpAxis, rememberedUpAxis, rememberUpAxis, type UpAxis } from '../lib/up-axis.js';
import { VIEW_KEYS_HINT, type ViewAction } from '../lib/view-keys.js';
import { prefersReducedMotion } from '../../../hooks/use-reduced-motion.js';
import { CameraPanel } from './camera-panel.js';
import './measure-tool.css';

type Phase =
  | { kind: 'resolving' }
  | { kind: 'not-found' }
  | { kind: 'no-files'; found: ViewerModel }
  | { kind: 'loading'; found: ViewerModel }
  | { kind: 'ready'; found: ViewerModel }
  | { kind: 'error'; found: ViewerModel | null; message: string };

/** How the viewport sits on the page: alone, side by side in compare mode, or stacked in the swipe view. */
export type ViewportVariant = 'single' | 'compare' | 'swipe';

export interface ModelViewportProps {
  /** The model to show (SPEC.md §7 `id` or `referenceId`). */
  publicId: string;
  /** Compare mode's reference side: any failure reads 'Unable to load reference model information.' (SPEC.md §8). */
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
  /** When true, a click on the model (or P at the view's centre) picks a point instead of a camera (issue 18). */
  pickMode?: boolean;
  /** Receives each picked point (model coordinates); a click that misses the model reports nothing. */
  onPick?: (pick: PickResult) => void;
  /** Drawn over the model (points in model coordinates); replaced whenever the array changes. */
  markers?: readonly ViewerMarker[];
  /** Flies the camera to `point` (model coordinates) whenever `key` changes (a jump under reduced motion). */
  flyTo?: { point: ModelPoint; key: number } | null;
}

/** Frames drawn from a preview before its full copy is downloaded (Spark sorts new splats over the first frames). */
const PREVIEW_FRAMES_BEFORE_REFINING = 3;

/** Appended to the viewport's status while a splat is shown from its preview. */
export const PREVIEW_STATUS_NOTE = ' (preview; full detail loading)';

/** The view keys' hint, with the pick key while a click picks a point. */
export const PICK_KEY_HINT = 'P picks the point at the centre of the view (marked by the cross).';

/** What the engine counted in the loaded files (null: that kind of file is not loaded). */
export interface ModelStats {
  splats: number | null;
  triangles: number | null;
}

/**
 * The text alternative of a model's 3D view (issue 19, WCAG 1.1.1): its name and publicId, its
 * type (Gaussian splat, GLB mesh or hybrid of both) and, once loaded, its splat and triangle
 * counts, e.g. 'Tower 2025 (TWR-2), a Gaussian splat of 3,600 splats.'
 * @param model the model
 * @param kinds the kinds of 3D file it has (viewerFiles)
 * @param stats the counts, or null while loading
 */
export function describeModel(model: Model, kinds: readonly ViewerFile['kind'][], stats: ModelStats | null): string {
  const splat = kinds.includes('splat');
  const mesh = kinds.includes('glb');
  const type =
    splat && mesh
      ? 'a hybrid model (Gaussian splat and GLB mesh)'
      : splat
        ? 'a Gaussian splat'
        : mesh
          ? 'a GLB mesh'
          : 'a model with no 3D file';
  const counts = [
    stats?.splats != null ? `${stats.splats.toLocaleString('en-US')} ${stats.splats === 1 ? 'splat' : 'splats'}` : null,
    stats?.triangles != null ? `${stats.triangles.toLocaleString('en-US')} ${stats.triangles === 1 ? 'triangle' : 'triangles'}` : null,
  ].filter((c): c is string => c !== null);
  return `${model.name} (${model.publicId}), ${type}${counts.length > 0 ? ` of ${counts.join(' and ')}` : ''}.`;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
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
  const { catalog, files } = useBackend();
  const rootRef = useRef<HTMLDivElement>(null);
  const hostRef = useRef<HTMLDivElement>(null);
  const canvasRef = useRef<HTMLCanvasElement | null>(null);
  const engineRef = useRef<ViewerEngine | null>(null);
  const [webglError, setWebglError] = useState<string | null>(null);
  const [phase, setPhase] = useState<Phase>({ kind: 'resolving' });
  const [progress, setProgress] = useState<Record<string, DownloadProgress>>({});
  const [fileErrors, setFileErrors] = useState<string[]>([]);
  const [stats, setStats] = useState<ModelStats>({ splats: null, triangles: null });
  // True while a splat is shown from its preview and its full copy is still being downloaded.
  const [refining, setRefining] = useState(false);
  const summaryId = useId();
  const keysId = useId();
  const infoId = useId();
  const [upChoice, setUpChoice] = useState<UpAxis | null>(() => upAxis ?? rememberedUpAxis(publicId));
  const [visible, setVisible] = useState({ splat: true, mesh: true });
  const [infoOpen, setInfoOpen] = useState(variant === 'single');
  // Camera poses: shown from the start in the single view (a compare view has two models to read).
  const [camerasOn, setCamerasOn] = useState(variant === 'single');
  const [selectedCamera, setSelectedCamera] = useState<number | null>(null);
  const [drawnCameras, setDrawnCameras] = useState<boolean[]>([]);
  const [picked, setPicked] = useState<{ pick: PickResult | null; seq: number } | null>(null);
  // The canvas's key handler reads whether P picks (it is bound once per engine).
  const pickModeRef = useRef(pickMode);
  pickModeRef.current = pickMode;

  const found =
    phase.kind === 'no-files' || phase.kind === 'loading' || phase.kind === 'ready' || phase.kind === 'error' ? phase.found : null;
  const model = found?.model ?? null;
  const modelFiles = model ? viewerFiles(model) : [];
  const effectiveUp: UpAxis = upChoice ?? defaultUpAxis(model ? hasSplat(model) : true);
  // The loading routine reads the choice when the files are in (it may change meanwhile).
  const upChoiceRef = useRef(upChoice);
  upChoiceRef.current = upChoice;

  // A later `up=` in the URL (e.g. back and forward) wins.
  useEffect(() => {
    if (upAxis !== null) setUpChoice(upAxis);
  }, [upAxis]);

  // The callbacks the effects below call: the latest ones, whenever they run.
  const callbacks = useLatest({ onEngine, onModel, onReady, onPick });

  // The canvas and its engine, created here rather than rendered by React, so that a remount
  // (StrictMode, a new model) never reuses a canvas whose WebGL context was released. The canvas
  // is the keyboard-operated 3D view (role application: a screen reader passes the arrow keys
  // through); its name is set by the effect after this one, its description is the model summary
  // and the keys hint rendered below.
  useEffect(() => {
    const host = hostRef.current;
    if (!host) return;
    const canvas = document.createElement('canvas');
    canvas.className = 'viewport-canvas';
    canvas.tabIndex = 0;
    canvas.setAttribute('role', 'application');
    canvas.setAttribute('aria-describedby', `${summaryId} ${keysId}`);
    host.appendChild(canvas);
    canvasRef.current = canvas;
    let engine: ViewerEngine;
    try {
      engine = new ViewerEngine(canvas);
    } catch (error) {
      setWebglError(`WebGL is not available in this browser: ${messageOf(error)}`);
      canvas.remove();
      return;
    }
    engineRef.current = engine;
    engine.onFrame = () => {
      const root = rootRef.current;
      if (!root) return;
      root.dataset.renderedFrames = String(engine.renderedFrames);
      // For tests: the view as drawn (on the viewport and on the focusable canvas), and whether a
      // camera flight is under way.
      root.dataset.camera = canvas.dataset.camera = engine.rig.state();
      root.dataset.flight = engine.rig.flying ? 'on' : 'off';
      // whether the splat is drawn through its level-of-detail tree (a capture of millions of Gaussians)
      root.dataset.lod = engine.lodActive ? 'on' : 'off';
    };
    // Every pick (a click in pick mode, P, the measure tool's button) comes here through the engine.
    let seq = 0;
    engine.picker.onPicked = (pick) => {
      seq += 1;
      setPicked({ pick, seq });
      const root = rootRef.current;
      if (root) {
        // For tests: how many picks so far (hits and misses), and the last hit's point.
        root.dataset.picks = String(seq);
        if (pick) root.dataset.picked = JSON.stringify(pick.point);
      }
      if (pick) callbacks.current.onPick?.(pick);
    };
    const onKeyDown = (event: KeyboardEvent) => {
      if (pickModeRef.current && (event.key === 'p' || event.key === 'P') && !event.ctrlKey && !event.metaKey && !event.altKey) {
        event.preventDefault();
        engine.picker.pickCentre();
        return;
      }
      if (engine.rig.handleKey(event)) event.preventDefault();
    };
    canvas.addEventListener('keydown', onKeyDown);
    const observer = new ResizeObserver(() => engine.resize());
    observer.observe(host);
    const { onEngine: report } = callbacks.current;
    report?.(engine);
    return () => {
      observer.disconnect();
      canvas.removeEventListener('keydown', onKeyDown);
      report?.(null);
      engineRef.current = null;
      canvasRef.current = null;
      engine.dispose();
      canvas.remove();
    };
    // One engine per mount.
  }, [callbacks, summaryId, keysId]);

  useEffect(() => {
    canvasRef.current?.setAttribute('aria-label', `3D view of ${model ? `${model.name} (${model.publicId})` : `model ${publicId}`}`);
  }, [model, publicId]);

  // Find the model, download its files, hand them to the engine, frame it.
  useEffect(() => {
    const controller = new AbortController();
    let active = true;
    setPhase({ kind: 'resolving' });
    setProgress({});
    setFileErrors([]);
    setRefining(false);

    /**
     * Downloads one file (or a splat's preview: `source`) and hands it to the engine. With
     * `quiet`, the download neither keeps frames coming nor reports progress until it is in (a
     * full copy fetched in the background while its preview is shown).
     */
    async function loadFile(
      file: ViewerFile,
      source: { path: string; name: string } = file,
      quiet = false,
    ): Promise<{ kind: ViewerFile['kind']; count: number; file: ViewerFile; preview: boolean }> {
      const fail = (why: string): Error => new Error(`Could not load ${source.name}: ${why}`);
      const engine = engineRef.current;
      if (!engine) throw fail('WebGL is not available');
      let loading = false;
      const begin = () => {
        engine.beginLoading();
        loading = true;
      };
      if (!quiet) begin();
      try {
        let url: string;
        try {
          url = await files.getDownloadUrl(source.path);
        } catch (error) {
          throw fail(messageOf(error));
        }
        let bytes: Uint8Array;
        try {
          const report = (p: DownloadProgress) => active && setProgress((current) => ({ ...current, [source.path]: p }));
          bytes = await fetchBytes(url, quiet ? () => {} : report, controller.signal);
          if (quiet) report({ loaded: bytes.byteLength, total: bytes.byteLength });
        } catch (error) {
          throw fail(messageOf(error));
        }
        if (!active) throw fail('the viewer was closed');
        if (!loading) begin();
        try {
          const count = file.kind === 'splat' ? await engine.loadSplat(bytes, source.name) : await engine.loadGlb(bytes);
          return { kind: file.kind, count, file, preview: source !== file };
        } catch (error) {
          throw fail(`not a readable ${file.kind === 'splat' ? 'splat' : 'GLB'} file (${messageOf(error)})`);
        }
      } finally {
        if (loading) engine.endLoading();
      }
    }

    /** The full copy of each splat shown from its preview, swapped in when it is in (the view stays). */
    async function refine(previewed: ViewerFile[]): Promise<void> {
      if (previewed.length === 0) return;
      setRefining(true);
      const results = await Promise.allSettled(previewed.map((file) => loadFile(file, file, true)));
      if (!active) return;
      for (const result of results) {
        if (result.status === 'fulfilled') {
          const { count } = result.value;
          setStats((current) => ({ ...current, splats: count }));
        } else {
          const failure = messageOf(result.reason);
          console.error(`Viewer (${publicId}): ${failure}`);
          setFileErrors((current) => [...current, failure]);
        }
      }
      setRefining(false);
    }

    (async () => {
      let found: ViewerModel | null = null;
      try {
        found = await findViewerModel(catalog, publicId);
        if (!active) return;
        callbacks.current.onModel?.(found);
        if (found === null) return setPhase({ kind: 'not-found' });
        const toLoad = viewerFiles(found.model);
        if (toLoad.length === 0) return setPhase({ kind: 'no-files', found });
        setPhase({ kind: 'loading', found });
        // a splat with a preview is shown from it first (its full copy follows once the view is
        // ready); a preview that cannot be loaded is passed over for the full copy
        const first = (file: ViewerFile) =>
          file.preview
            ? loadFile(file, file.preview).catch((error: unknown) => {
                console.warn(`Viewer (${publicId}): ${messageOf(error)}; loading ${file.name} instead`);
                return loadFile(file);
              })
            : loadFile(file);
        const results = await Promise.allSettled(toLoad.map(first));
        if (!active) return;
        const failures = results.flatMap((r) => (r.status === 'rejected' ? [messageOf(r.reason)] : []));
        const loaded = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
        for (const failure of failures) console.error(`Viewer (${publicId}): ${failure}`);
        if (loaded.length === 0) return setPhase({ kind: 'error', found, message: failures.join(' ') });
        setStats({
          splats: loaded.find((l) => l.kind === 'splat')?.count ?? null,
          triangles: loaded.find((l) => l.kind === 'glb')?.count ?? null,
        });
        setFileErrors(failures);
        const engine = engineRef.current;
        if (engine) {
          const withSplat = hasSplat(found.model);
          engine.setFlipped(withSplat ? 'splat' : 'mesh', (upChoiceRef.current ?? defaultUpAxis(withSplat)) === 'y-down');
          // Picks and markers are in the model's coordinates: the splat's file frame, or the GLB's for a mesh-only model.
          engine.setModelFrame(withSplat ? 'splat' : 'mesh');
          engine.rig.fit(true);
        }
        setPhase({ kind: 'ready', found });
        callbacks.current.onReady?.();
        const previewed = loaded.filter((l) => l.preview).map((l) => l.file);
        // the preview is drawn (and sorted: a few frames) before the full copy competes for the device
        if (previewed.length > 0 && engine) await engine.afterFrames(PREVIEW_FRAMES_BEFORE_REFINING);
        if (!active) return;
        await refine(previewed);
      } catch (error) {
        if (!active) return;
        console.error(`Viewer (${publicId}): finding the model failed`, error);
        setPhase({ kind: 'error', found, message: messageOf(error) });
      }
    })();

    return () => {
      active = false;
      controller.abort();
    };
    // catalog/files are stable per backend: one load per model.
  }, [catalog, files, publicId, callbacks]);

  // The up axis after the first load: turn the file, frame it again (it moved), new home view.
  const ready = phase.kind === 'ready';
  const flipPart = model && hasSplat(model) ? 'splat' : 'mesh';
  const appliedUp = useRef<UpAxis | null>(null);
  useEffect(() => {
    const engine = engineRef.current;
    if (!ready || !engine) return;
    if (appliedUp.current !== null && appliedUp.current !== effectiveUp) {
      engine.setFlipped(flipPart, effectiveUp === 'y-down');
      engine.rig.fit(true); // moves the camera: a linked compare viewport follows
    }
    appliedUp.current = effectiveUp;
  }, [ready, effectiveUp, flipPart]);

  // Camera poses of the camera metadata, drawn in the frame of the file they were computed with.
  const withCameras = model !== null && hasCameraMetadata(model);
  const cameras = useViewerCameras(files, model, ready && withCameras);
  const cameraList = cameras.status === 'success' ? cameras.data : null;
  useEffect(() => {
    const engine = engineRef.current;
    if (!engine || !cameraList) return;
    setDrawnCameras(
      engine.cameraPoses.set(
        cameraList.map((c) => ({ entry: c.entry, hasPhoto: c.imagePath !== null })),
        flipPart,
      ),
    );
    return () => {
      engine.cameraPoses.set(null);
      setSelectedCamera(null);
    };
  }, [cameraList, flipPart]);

  const selectCamera = (index: number | null) => {
    setSelectedCamera(index);
    const engine = engineRef.current;
    engine?.cameraPoses.select(index);
    // a flight, or a jump under prefers-reduced-motion
    if (engine && index !== null) engine.cameraPoses.viewFrom(index, !prefersReducedMotion());
  };
  const selectCameraRef = useRef(selectCamera);
  selectCameraRef.current = selectCamera;

  useEffect(() => {
    const engine = engineRef.current;
    if (!engine || !cameraList) return;
    engine.cameraPoses.setVisible(camerasOn);
  }, [cameraList, camerasOn]);

  // Entering pick mode (Findings or Measure opened) closes the camera list, which would cover a
  // third of the view next to the side column; the Cameras button opens it again.
  useEffect(() => {
    if (pickMode) setCamerasOn(false);
  }, [pickMode]);

  // The tool a click on the canvas goes to (a drag orbits as before): in pick mode the picker (a
  // point of the model), else, with the cameras shown, the camera poses (the frustum under it).
  useEffect(() => {
    const engine = engineRef.current;
    if (!engine || !ready) return;
    engine.cameraPoses.onPicked = (index) => selectCameraRef.current(index);
    engine.activeTool = pickMode ? engine.picker : cameraList && camerasOn ? engine.cameraPoses : null;
    return () => {
      engine.activeTool = null;
    };
  }, [ready, pickMode, cameraList, camerasOn]);

  // Leaving pick mode forgets the last pick's line (data-picked stays for tests).
  useEffect(() => {
    if (!pickMode) setPicked(null);
  }, [pickMode]);

  useEffect(() => {
    const engine = engineRef.current;
    if (!engine || !ready) return;
    engine.markers.set(markers ?? []);
  }, [ready, markers]);

  const flyKey = flyTo?.key ?? null;
  const flyPoint = useLatest(flyTo?.point ?? null);
  useEffect(() => {
    const engine = engineRef.current;
    const point = flyPoint.current;
    if (!engine || !ready || flyKey === null || !point) return;
    engine.rig.flyToPoint(point, !prefersReducedMotion());
  }, [ready, flyKey, flyPoint]);

  function toggleCameras() {
    if (camerasOn) selectCamera(null);
    setCamerasOn(!camerasOn);
  }

  const state =
    webglError !== null
      ? 'error'
      : phase.kind === 'ready'
        ? 'ready'
        : phase.kind === 'resolving' || phase.kind === 'loading'
          ? 'loading'
          : 'error';
  const hybrid = modelFiles.length === 2;

  function flipUpAxis() {
    const next: UpAxis = effectiveUp === 'y-down' ? 'y-up' : 'y-down';
    setUpChoice(next);
    rememberUpAxis(publicId, next);
    onUpAxisChange?.(next);
  }

  /** A toolbar button's navigation step (the same as the canvas's keys). */
  const perform = (action: ViewAction) => engineRef.current?.rig.perform(action);

  function toggle(part: 'splat' | 'mesh') {
    const next = { ...visible, [part]: !visible[part] };
    setVisible(next);
    engineRef.current?.setVisible(part, next[part]);
  }

  // Compare mode's reference side says one thing whatever went wrong (SPEC.md §8 Compare).
  const failed = webglError !== null || phase.kind === 'not-found' || phase.kind === 'no-files' || phase.kind === 'error';
  const failureDetail =
    webglError ??
    (phase.kind === 'error'
      ? phase.message
      : phase.kind === 'no-files'
        ? 'This model has no 3D file.'
        : phase.kind === 'not-found'
          ? `No model with public ID ${publicId}.`
          : null);

  const kinds = modelFiles.map((file) => file.kind);
  const summary = model
    ? `${describeModel(model, kinds, phase.kind === 'ready' ? stats : null)}${phase.kind === 'loading' ? ' Loading…' : ''}`
    : phase.kind === 'resolving'
      ? `Finding model ${publicId}…`
      : `Model ${publicId}.`;
  // Announced politely (role=status, always in the page so the change is heard); errors go to the alert region.
  const announcement =
    webglError !== null
      ? ''
      : phase.kind === 'resolving'
        ? `Finding model ${publicId}…`
        : phase.kind === 'loading'
          ? `Loading ${phase.found.model.name}…`
          : phase.kind === 'ready'
            ? `Shown: ${describeModel(phase.found.model, kinds, stats)}${refining ? PREVIEW_STATUS_NOTE : ''}`
            : '';

  return (
    <div
      ref={rootRef}
      className={`viewport viewport-${variant}${className ? ` ${className}` : ''}`}
      data-testid="viewport"
      data-state={state}
      data-rendered-frames="0"
      data-public-id={publicId}
      data-refining={refining ? 'on' : 'off'}
    >
      <div ref={hostRef} className="viewport-canvas-host" />
      {/* The canvas's accessible description: the model and the keys (the hint shows while the canvas has keyboard focus). */}
      <p id={summaryId} className="visually-hidden" data-testid="viewport-summary">
        {summary}
      </p>
      <p id={keysId} className="viewport-keys">
        {VIEW_KEYS_HINT}
        {pickMode ? ` ${PICK_KEY_HINT}` : ''}
      </p>
      {pickMode && phase.kind === 'ready' ? <div className="viewport-crosshair" aria-hidden="true" /> : null}
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
      <p className="visually-hidden" role="status" data-testid="viewport-status">
        {announcement}
      </p>

      {phase.kind === 'resolving' && webglError === null ? (
        <div className="viewport-overlay">
          <span className="spinner" aria-hidden="true" />
          Finding model {publicId}…
        </div>
      ) : null}

      {phase.kind === 'loading' && webglError === null ? (
        <div className="viewport-overlay viewport-progress">
          {modelFiles.map((file) => {
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
      ) : null}

      {/* One alert region for every failure of this viewport, in the page from the start (WCAG 4.1.3). */}
      <div className="viewport-alerts" role="alert">
        {failed && isReference ? (
          <div className="viewport-overlay viewport-message viewport-error">
            <p className="viewport-error-title">{CompareMessages.referenceUnavailable}</p>
            {failureDetail ? <p className="viewport-error-detail">{failureDetail}</p> : null}
          </div>
        ) : null}
        {failed && !isReference ? (
          phase.kind === 'not-found' && webglError === null ? (
            <div className="viewport-overlay viewport-message">
              <h2>Model Not Found</h2>
              <p>No model with public ID {publicId}.</p>
            </div>
          ) : phase.kind === 'no-files' && webglError === null ? (
            <div className="viewport-overlay viewport-message">
              <h2>No 3D File</h2>
              <p>This model has no 3D file.</p>
            </div>
          ) : (
            <div className="viewport-overlay viewport-message viewport-error">
              <h2>The model could not be shown</h2>
              <p>{failureDetail}</p>
            </div>
          )
        ) : null}

        {phase.kind === 'ready' && fileErrors.length > 0 ? (
          <div className="viewport-file-errors">
            {fileErrors.map((message) => (
              <p key={message}>{message}</p>
            ))}
          </div>
        ) : null}

        {phase.kind === 'ready' && withCameras && cameras.status === 'error' ? (
          <p className="viewport-file-errors camera-error">Could not load the camera metadata: {cameras.error.message}</p>
        ) : null}
      </div>

      {model ? (
        <div className="viewport-label">
          <span className="mono">{model.publicId}</span>
          <span>{formatDate(model.metadata?.captureDate ?? null)}</span>
        </div>
      ) : null}

      {phase.kind === 'ready' ? (
        <div className="viewport-toolbar" role="group" aria-label={`View controls for ${model?.publicId ?? publicId}`}>
          <button type="button" onClick={() => perform({ kind: 'fit' })}>
            Fit to model
          </button>
          <button
            type="button"
            className="viewport-icon-button"
            aria-label="Zoom in"
            title="Zoom in (+ or Page Up)"
            onClick={() => perform({ kind: 'zoom', direction: 'in' })}
          >
            <span aria-hidden="true">+</span>
          </button>
          <button
            type="button"
            className="viewport-icon-button"
            aria-label="Zoom out"
            title="Zoom out (− or Page Down)"
            onClick={() => perform({ kind: 'zoom', direction: 'out' })}
          >
            <span aria-hidden="true">−</span>
          </button>
          <button type="button" onClick={() => perform({ kind: 'reset' })} title="Back to the first view (R or Home)">
            Reset view
          </button>
          <button
            type="button"
            aria-pressed={effectiveUp === 'y-down'}
            onClick={flipUpAxis}
            title={`Turn the ${flipPart === 'splat' ? 'splat' : 'mesh'} 180° about x (3D Gaussian-splat training output is y-down)`}
          >
            Flip up axis
          </button>
          {hybrid ? (
            <>
              <button type="button" aria-pressed={visible.splat} onClick={() => toggle('splat')}>
                Splat
              </button>
              <button type="button" aria-pressed={visible.mesh} onClick={() => toggle('mesh')}>
                Mesh
              </button>
            </>
          ) : null}
          {withCameras ? (
            <button
              type="button"
              aria-pressed={camerasOn}
              onClick={toggleCameras}
              disabled={cameras.status === 'error'}
              title={
                cameras.status === 'error'
                  ? `The camera metadata could not be read: ${cameras.error.message}`
                  : 'Show the cameras the photos were taken from'
              }
            >
              Cameras
            </button>
          ) : null}
          {variant !== 'swipe' ? (
            <button
              type="button"
              aria-expanded={infoOpen}
              aria-controls={infoOpen ? infoId : undefined}
              onClick={() => setInfoOpen(!infoOpen)}
            >
              Info
            </button>
          ) : null}
        </div>
      ) : null}

      {phase.kind === 'ready' && camerasOn && cameraList && model ? (
        <CameraPanel
          cameras={cameraList}
          drawn={drawnCameras}
          selected={selectedCamera}
          onSelect={selectCamera}
          onViewFrom={(index) => engineRef.current?.cameraPoses.viewFrom(index, !prefersReducedMotion())}
          onShowAll={() => engineRef.current?.cameraPoses.fitAll()}
          files={files}
          publicId={model.publicId}
        />
      ) : null}

      {model && found && infoOpen && variant !== 'swipe' && phase.kind === 'ready' ? (
        <aside id={infoId} className="viewport-info" aria-label={`Model information: ${model.publicId}`}>
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
                <dd data-testid="splat-count">{stats.splats.toLocaleString('en-US')}</dd>
              </>
            ) : null}
            {stats.triangles !== null ? (
              <>
                <dt>Triangles</dt>
                <dd data-testid="triangle-count">{stats.triangles.toLocaleString('en-US')}</dd>
              </>
            ) : null}
            {modelFiles.map((file) => (
              <div key={file.path} className="viewport-info-row">
                <dt>{file.kind === 'splat' ? 'Splat file' : 'GLB file'}</dt>
                <dd>
                  {file.name}, {formatBytes(progress[file.path]?.loaded ?? file.size ?? 0)}
                </dd>
              </div>
            ))}
          </dl>
        </aside>
      ) : null}
    </div>
  );
}
