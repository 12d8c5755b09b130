/**
 * A viewport's engine for as long as the viewport is mounted: the canvas (the keyboard-operated
 * 3D view), its {@link ViewerEngine}, the test hooks on the viewport element (`data-rendered-frames`,
 * `data-camera`, `data-flight`, `data-lod`, `data-picks`, `data-picked`), the canvas's keys (the
 * camera rig's navigation, and P for a pick at the centre in pick mode) and the last pick.
 */
import { useEffect, useRef, useState, type RefObject } from 'react';
import { useLatest } from '../../../hooks/use-latest.js';
import { ViewerEngine, type PickResult } from '../lib/engine.js';
import { errorMessage } from '@shared/errors.js';

/** The last pick (null: it missed the model) and how many picks came before it, this one included. */
export interface LastPick {
  pick: PickResult | null;
  seq: number;
}

/** What {@link useViewerEngine} takes. */
export interface ViewerEngineOptions {
  /** The element the canvas is created in (sized by CSS). */
  hostRef: RefObject<HTMLDivElement | null>;
  /** The viewport element the test hooks are written on. */
  rootRef: RefObject<HTMLDivElement | null>;
  /** The ids of the canvas's accessible description (the model summary and the keys hint). */
  describedBy: string;
  /** True while a click (or P) picks a point of the model. */
  pickMode: boolean;
  /** Receives the engine once created, and null when it goes. */
  onEngine?: (engine: ViewerEngine | null) => void;
  /** Receives each pick that hit the model. */
  onPick?: (pick: PickResult) => void;
}

/** What {@link useViewerEngine} gives. */
export interface ViewerEngineState {
  /** The engine (null before it is created, after it goes, or without WebGL). */
  engineRef: RefObject<ViewerEngine | null>;
  /** The canvas (null when there is none): the viewport names it after the model. */
  canvasRef: RefObject<HTMLCanvasElement | null>;
  /** Why WebGL could not start, as shown to the user (null: it did). */
  webglError: string | null;
  /** The last pick since pick mode began (null: none yet, or pick mode is off). */
  picked: LastPick | null;
}

/**
 * Creates the canvas and its engine once per mount, and disposes both on unmount. The canvas is
 * created here rather than rendered by React, so that a remount (StrictMode, a new model) never
 * reuses a canvas whose WebGL context was released. It is the keyboard-operated 3D view (role
 * application: a screen reader passes the arrow keys through), described by `describedBy`.
 * @returns the engine's and the canvas's refs, a WebGL failure and the last pick
 */
export function useViewerEngine({ hostRef, rootRef, describedBy, pickMode, onEngine, onPick }: ViewerEngineOptions): ViewerEngineState {
  const engineRef = useRef<ViewerEngine | null>(null);
  const canvasRef = useRef<HTMLCanvasElement | null>(null);
  const [webglError, setWebglError] = useState<string | null>(null);
  const [picked, setPicked] = useState<LastPick | null>(null);
  // The canvas's key handler reads whether P picks (it is bound once per engine).
  const pickModeRef = useRef(pickMode);
  pickModeRef.current = pickMode;
  const callbacks = useLatest({ onEngine, onPick });

  useEffect(() => {
    const host = hostRef.current;
    if (!host) return;
    const canvas = document.createElement('canvas');
    canvas.className = 'viewport-canvas';
    canvas.tabIndex = 0;
    canvas.setAttribute('role', 'application');
    canvas.setAttribute('aria-describedby', describedBy);
    host.appendChild(canvas);
    canvasRef.current = canvas;
    let engine: ViewerEngine;
    try {
      engine = new ViewerEngine(canvas);
    } catch (error) {
      setWebglError(`WebGL is not available in this browser: ${errorMessage(error)}`);
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
  }, [hostRef, rootRef, callbacks, describedBy]);

  // Leaving pick mode forgets the last pick's line (data-picked stays for tests).
  useEffect(() => {
    if (!pickMode) setPicked(null);
  }, [pickMode]);

  return { engineRef, canvasRef, webglError, picked };
}
