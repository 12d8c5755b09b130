/**
 * One viewport of the built-in viewer: finds the model by publicId, downloads its splat and/or
 * GLB through the download links (progress with bytes and percentage), renders them with the
 * engine (three.js + Spark + GLTFLoader), and shows the toolbar (fit, reset, up axis, splat/mesh
 * toggles), the info panel and clear states: not found, no 3D file, a file that could not be
 * loaded. Exposes `data-state` (loading | ready | error) and `data-rendered-frames` for tests.
 */
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { formatBytes, formatDate } from '../../../../../shared/format.js';
import { CompareMessages } from '../../../../../shared/messages.js';
import { useBackend } from '../../../lib/backend-context.js';
import { fetchBytes, type DownloadProgress } from '../lib/fetch-bytes.js';
import { ViewerEngine } from '../lib/engine.js';
import { findViewerModel, viewerFiles, type ViewerFile, type ViewerModel } from '../api/viewer-models.js';

type Phase =
  | { kind: 'resolving' }
  | { kind: 'not-found' }
  | { kind: 'no-files'; found: ViewerModel }
  | { kind: 'loading'; found: ViewerModel }
  | { kind: 'ready'; found: ViewerModel }
  | { kind: 'error'; found: ViewerModel | null; message: string };

/** Where the up-axis choice of a model is remembered (per publicId). */
const upAxisKey = (publicId: string): string => `catalog.viewer.up.${publicId}`;

function rememberedUpAxis(publicId: string): boolean | null {
  try {
    const value = window.localStorage.getItem(upAxisKey(publicId));
    return value === 'y-down' ? true : value === 'y-up' ? false : null;
  } catch {
    return null;
  }
}

export interface ModelViewportProps {
  publicId: string;
  /** Compare mode's reference side: failures read 'Unable to load reference model information.' */
  isReference?: boolean;
  /** A y-down choice from the URL (`up=`), which wins over the remembered one. */
  upAxisOverride?: boolean | null;
  /** Receives the engine once created (and null when it goes), e.g. to link compare cameras. */
  onEngine?: (engine: ViewerEngine | null) => void;
  /** Receives the model once found (for labels outside the viewport). */
  onModel?: (found: ViewerModel | null) => void;
  /** Extra class on the viewport element (compare layouts). */
  className?: string;
  /** Hide the info panel (the swipe view shows one). */
  compact?: boolean;
  /** Called once the model is loaded and framed. */
  onReady?: () => void;
}

export function ModelViewport({ publicId, isReference = false, upAxisOverride = null, onEngine, onModel, onReady, className, compact = false }: ModelViewportProps) {
  const { catalog, files } = useBackend();
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const rootRef = useRef<HTMLDivElement>(null);
  const engineRef = useRef<ViewerEngine | null>(null);
  const [phase, setPhase] = useState<Phase>({ kind: 'resolving' });
  const [progress, setProgress] = useState<Record<string, DownloadProgress>>({});
  const [stats, setStats] = useState<{ splats: number | null; triangles: number | null }>({ splats: null, triangles: null });
  const [yDown, setYDown] = useState<boolean>(() => upAxisOverride ?? rememberedUpAxis(publicId) ?? true);
  const [visible, setVisible] = useState({ splat: true, mesh: true });
  const [infoOpen, setInfoOpen] = useState(!compact);

  // The engine lives as long as the canvas.
  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas) return;
    const engine = new ViewerEngine(canvas);
    engineRef.current = engine;
    engine.onFrame = () => {
      if (rootRef.current) rootRef.current.dataset.renderedFrames = String(engine.renderedFrames);
    };
    const observer = new ResizeObserver(() => engine.resize());
    observer.observe(canvas);
    onEngine?.(engine);
    return () => {
      observer.disconnect();
      onEngine?.(null);
      engineRef.current = null;
      engine.dispose();
    };
    // onEngine is read once per engine on purpose.
  }, []);

  // Find the model, download its files, hand them to the engine.
  useEffect(() => {
    const controller = new AbortController();
    let active = true;
    setPhase({ kind: 'resolving' });
    setProgress({});
    (async () => {
      let found: ViewerModel | null = null;
      try {
        found = await findViewerModel(catalog, publicId);
        if (!active) return;
        onModel?.(found);
        if (found === null) return setPhase({ kind: 'not-found' });
        const toLoad = viewerFiles(found.model);
        if (toLoad.length === 0) return setPhase({ kind: 'no-files', found });
        setPhase({ kind: 'loading', found });
        const loaded = await Promise.all(toLoad.map((file) => loadFile(file, found!)));
        if (!active) return;
        setStats({ splats: loaded.find((l) => l.kind === 'splat')?.count ?? null, triangles: loaded.find((l) => l.kind === 'glb')?.count ?? null });
        engineRef.current?.setSplatYDown(yDownRef.current);
        engineRef.current?.fit();
        setPhase({ kind: 'ready', found });
        onReady?.();
      } catch (error) {
        if (!active) return;
        console.error('Viewer: loading failed', error);
        setPhase({ kind: 'error', found, message: error instanceof Error ? error.message : String(error) });
      }
    })();

    async function loadFile(file: ViewerFile, found: ViewerModel): Promise<{ kind: ViewerFile['kind']; count: number }> {
      const fail = (why: string): Error => new Error(`Could not load ${file.name}: ${why}`);
      let url: string;
      try {
        url = await files.getDownloadUrl(file.path);
      } catch (error) {
        throw fail(error instanceof Error ? error.message : String(error));
      }
      let bytes: Uint8Array;
      try {
        bytes = await fetchBytes(url, (p) => active && setProgress((current) => ({ ...current, [file.path]: p })), controller.signal);
      } catch (error) {
        throw fail(error instanceof Error ? error.message : String(error));
      }
      const engine = engineRef.current;
      if (!engine) throw fail('the viewport is gone');
      try {
        const count = file.kind === 'splat' ? await engine.loadSplat(bytes, file.name) : await engine.loadGlb(bytes);
        void found;
        return { kind: file.kind, count };
      } catch (error) {
        throw fail(`not a readable ${file.kind === 'splat' ? 'splat' : 'GLB'} file (${error instanceof Error ? error.message : String(error)})`);
      }
    }

    return () => {
      active = false;
      controller.abort();
    };
    // catalog/files are stable per backend; onModel is read once per model.
  }, [catalog, files, publicId]);

  const yDownRef = useRef(yDown);
  yDownRef.current = yDown;
  useEffect(() => {
    engineRef.current?.setSplatYDown(yDown);
    try {
      window.localStorage.setItem(upAxisKey(publicId), yDown ? 'y-down' : 'y-up');
    } catch {
      // storage unavailable: the choice lasts for this page only
    }
  }, [yDown, publicId]);

  const found = phase.kind === 'no-files' || phase.kind === 'loading' || phase.kind === 'ready' ? phase.found : phase.kind === 'error' ? phase.found : null;
  const model = found?.model ?? null;
  const hybrid = model !== null && viewerFiles(model).length === 2;
  const state = phase.kind === 'ready' ? 'ready' : phase.kind === 'resolving' || phase.kind === 'loading' ? 'loading' : 'error';

  function onKeyDown(event: KeyboardEvent<HTMLCanvasElement>) {
    const engine = engineRef.current;
    if (!engine) return;
    if (event.key === 'f' || event.key === 'F') engine.fit();
    else if (event.key === 'r' || event.key === 'R') engine.reset();
    else if (!engine.nudge(event.key, event.shiftKey)) return;
    event.preventDefault();
  }

  function toggle(part: 'splat' | 'mesh') {
    const next = { ...visible, [part]: !visible[part] };
    setVisible(next);
    engineRef.current?.setVisible(part, next[part]);
  }

  // Compare mode's reference side says one thing whatever went wrong (SPEC.md §8 Compare).
  const referenceFailed = isReference && (phase.kind === 'not-found' || phase.kind === 'no-files' || phase.kind === 'error');

  return (
    <div ref={rootRef} className={`viewport${className ? ` ${className}` : ''}`} data-testid="viewport" data-state={state} data-rendered-frames="0" data-public-id={publicId}>
      <canvas
        ref={canvasRef}
        className="viewport-canvas"
        tabIndex={0}
        aria-label={model ? `3D view of ${model.name} (${model.publicId}). Arrow keys orbit, Shift+arrows pan, + and − zoom, F fits, R resets.` : '3D view'}
        onKeyDown={onKeyDown}
      />

      {phase.kind === 'resolving' ? (
        <div className="viewport-overlay" role="status">
          Finding model {publicId}…
        </div>
      ) : null}

      {phase.kind === 'loading' ? (
        <div className="viewport-overlay viewport-progress" role="status" aria-live="polite">
          {viewerFiles(phase.found.model).map((file) => {
            const p = progress[file.path];
            const total = p?.total ?? file.size;
            const percent = p && total ? Math.min(100, Math.round((p.loaded / total) * 100)) : null;
            return (
              <div key={file.path} className="progress-row">
                <span className="progress-name">{file.name}</span>
                <progress max={100} value={percent ?? undefined} aria-label={`Downloading ${file.name}`} />
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

      {phase.kind === 'not-found' && !isReference ? (
        <div className="viewport-overlay viewport-message" role="alert">
          <h2>Model Not Found</h2>
          <p>No model with public ID {publicId}.</p>
        </div>
      ) : null}
      {phase.kind === 'no-files' && !isReference ? (
        <div className="viewport-overlay viewport-message" role="alert">
          <h2>No 3D file</h2>
          <p>This model has no 3D file.</p>
        </div>
      ) : null}
      {phase.kind === 'error' && !isReference ? (
        <div className="viewport-overlay viewport-message viewport-error" role="alert">
          <h2>The model could not be shown</h2>
          <p>{phase.message}</p>
        </div>
      ) : null}
      {referenceFailed ? (
        <div className="viewport-overlay viewport-message viewport-error" role="alert">
          <p>{CompareMessages.referenceUnavailable}</p>
        </div>
      ) : null}

      {model ? (
        <div className="viewport-label">
          <span className="mono">{model.publicId}</span>
          <span>{formatDate(model.metadata?.captureDate ?? null)}</span>
        </div>
      ) : null}

      {phase.kind === 'ready' ? (
        <div className="viewport-toolbar" role="toolbar" aria-label={`View controls for ${model?.publicId ?? publicId}`}>
          <button type="button" onClick={() => engineRef.current?.fit()}>
            Fit to model
          </button>
          <button type="button" onClick={() => engineRef.current?.reset()}>
            Reset view
          </button>
          {model && viewerFiles(model).some((f) => f.kind === 'splat') ? (
            <button type="button" aria-pressed={yDown} onClick={() => setYDown(!yDown)} title="3DGS output is y-down: turn the splat 180° about x">
              Flip up axis
            </button>
          ) : null}
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
          {!compact ? (
            <button type="button" aria-expanded={infoOpen} onClick={() => setInfoOpen(!infoOpen)}>
              Info
            </button>
          ) : null}
        </div>
      ) : null}

      {model && infoOpen && phase.kind === 'ready' ? (
        <aside className="viewport-info" aria-label="Model information">
          <h2 className="viewport-info-title">{model.name}</h2>
          <dl>
            <dt>Public ID</dt>
            <dd className="mono">{model.publicId}</dd>
            <dt>Project</dt>
            <dd>{found?.project?.name ?? '—'}</dd>
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
            {viewerFiles(model).map((file) => (
              <div key={file.path} className="viewport-info-row">
                <dt>{file.kind === 'splat' ? 'Splat file' : 'GLB file'}</dt>
                <dd>{formatBytes(progress[file.path]?.loaded ?? file.size ?? 0)}</dd>
              </div>
            ))}
          </dl>
        </aside>
      ) : null}
    </div>
  );
}
