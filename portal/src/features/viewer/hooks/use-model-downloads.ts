/**
 * A viewport's model and files: finds the model by publicId, downloads its splat and/or GLB
 * through the file-store port's download links (progress in bytes), hands them to the engine,
 * turns and frames the model, and says where it is ({@link Phase}). A large capture's splat with a
 * preview (its most important Gaussians, a small part of the bytes) is shown from the preview
 * first: the viewport is ready once the preview is in, and once the preview's first frames are
 * drawn the full copy is downloaded in the background and replaces it without moving the camera
 * (`refining` meanwhile). A failed full copy keeps the preview and is listed among the file
 * errors; a failed preview falls back to the full copy.
 */
import { useEffect, useState, type RefObject } from 'react';
import { useLatest } from '../../../hooks/use-latest.js';
import { useBackend } from '../../../lib/backend-context.js';
import { findViewerModel, hasSplat, viewerFiles, type ViewerFile, type ViewerModel } from '../api/viewer-models.js';
import type { ViewerEngine } from '../lib/engine.js';
import { fetchBytes, type DownloadProgress } from '../lib/fetch-bytes.js';
import type { ModelStats, Phase } from '../lib/viewport-phase.js';
import { errorMessage } from '@shared/errors.js';

/**
 * The longest wait for a preview to be drawn before its full copy is downloaded anyway, ms (a
 * preview seen from where none of it is in view is never "shown").
 */
const PREVIEW_SHOWN_WAIT_MS = 20_000;

/** What {@link useModelDownloads} takes. */
export interface ModelDownloadsOptions {
  engineRef: RefObject<ViewerEngine | null>;
  /** The model to show. */
  publicId: string;
  /**
   * Whether the model's frame is turned 180° about x when it is first shown (the y-down fix),
   * read once its files are in (the choice may change while they download).
   * @param withSplat true when the model has a splat (its frame is the one turned)
   */
  flipped: (withSplat: boolean) => boolean;
  /** Receives the model once found (null: not found). */
  onModel?: (found: ViewerModel | null) => void;
  /** Called once the model is loaded and framed. */
  onReady?: () => void;
}

/** What {@link useModelDownloads} gives. */
export interface ModelDownloads {
  phase: Phase;
  /** Bytes downloaded of each file, by storage path (a splat's preview under its own path). */
  progress: Record<string, DownloadProgress>;
  /** Why a file could not be shown, for each file of a model that is still shown (a hybrid's GLB, a full copy). */
  fileErrors: string[];
  /** The engine's counts of the loaded files (the full capture's splats once its full copy is in). */
  stats: ModelStats;
  /** True while a splat is shown from its preview and its full copy is still being downloaded. */
  refining: boolean;
}

/**
 * Loads one model into the viewport's engine, once per publicId (the engine's scene is filled once:
 * give the viewport a `key` of its publicId).
 * @returns the phase, the download progress, the file errors, the counts and whether a preview is being refined
 */
export function useModelDownloads({ engineRef, publicId, flipped, onModel, onReady }: ModelDownloadsOptions): ModelDownloads {
  const { catalog, files } = useBackend();
  const [phase, setPhase] = useState<Phase>({ kind: 'resolving' });
  const [progress, setProgress] = useState<Record<string, DownloadProgress>>({});
  const [fileErrors, setFileErrors] = useState<string[]>([]);
  const [stats, setStats] = useState<ModelStats>({ splats: null, triangles: null });
  const [refining, setRefining] = useState(false);
  // The callbacks the effect calls: the latest ones, whenever it runs.
  const callbacks = useLatest({ flipped, onModel, onReady });

  useEffect(() => {
    const controller = new AbortController();
    let active = true;
    setPhase({ kind: 'resolving' });
    setProgress({});
    setFileErrors([]);
    setRefining(false);

    /**
     * Downloads one file (or a splat's preview: `source`) and hands it to the engine. With
     * `quiet`, the download reports no progress until it is in (a full copy fetched in the
     * background while its preview is shown).
     */
    async function loadFile(
      file: ViewerFile,
      source: { path: string; name: string } = file,
      quiet = false,
    ): Promise<{ kind: ViewerFile['kind']; count: number; file: ViewerFile; preview: boolean }> {
      const fail = (why: string): Error => new Error(`Could not load ${source.name}: ${why}`);
      const engine = engineRef.current;
      if (!engine) throw fail('WebGL is not available');
      let url: string;
      try {
        url = await files.getDownloadUrl(source.path);
      } catch (error) {
        throw fail(errorMessage(error));
      }
      let bytes: Uint8Array;
      try {
        const report = (p: DownloadProgress) => active && setProgress((current) => ({ ...current, [source.path]: p }));
        bytes = await fetchBytes(url, quiet ? () => {} : report, controller.signal);
        if (quiet) report({ loaded: bytes.byteLength, total: bytes.byteLength });
      } catch (error) {
        throw fail(errorMessage(error));
      }
      if (!active) throw fail('the viewer was closed');
      try {
        const count = file.kind === 'splat' ? await engine.loadSplat(bytes, source.name) : await engine.loadGlb(bytes);
        return { kind: file.kind, count, file, preview: source !== file };
      } catch (error) {
        throw fail(`not a readable ${file.kind === 'splat' ? 'splat' : 'GLB'} file (${errorMessage(error)})`);
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
          const failure = errorMessage(result.reason);
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
                console.warn(`Viewer (${publicId}): ${errorMessage(error)}; loading ${file.name} instead`);
                return loadFile(file);
              })
            : loadFile(file);
        const results = await Promise.allSettled(toLoad.map(first));
        if (!active) return;
        const failures = results.flatMap((r) => (r.status === 'rejected' ? [errorMessage(r.reason)] : []));
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
          engine.setFlipped(withSplat ? 'splat' : 'mesh', callbacks.current.flipped(withSplat));
          // Picks and markers are in the model's coordinates: the splat's file frame, or the GLB's for a mesh-only model.
          engine.setModelFrame(withSplat ? 'splat' : 'mesh');
          engine.rig.fit(true);
        }
        setPhase({ kind: 'ready', found });
        callbacks.current.onReady?.();
        const previewed = loaded.filter((l) => l.preview).map((l) => l.file);
        // the preview is sorted and drawn before the full copy competes with it for the device and the CPU
        if (previewed.length > 0 && engine) await engine.whenSplatsShown(PREVIEW_SHOWN_WAIT_MS);
        if (!active) return;
        await refine(previewed);
      } catch (error) {
        if (!active) return;
        console.error(`Viewer (${publicId}): finding the model failed`, error);
        setPhase({ kind: 'error', found, message: errorMessage(error) });
      }
    })();

    return () => {
      active = false;
      controller.abort();
    };
    // catalog/files are stable per backend: one load per model.
  }, [catalog, files, publicId, callbacks, engineRef]);

  return { phase, progress, fileErrors, stats, refining };
}
