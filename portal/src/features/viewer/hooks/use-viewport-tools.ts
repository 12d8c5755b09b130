/**
 * What a viewport's page asks of its engine's tools: which tool a click on the canvas goes to (one
 * active tool: the point picker in pick mode, else the camera poses while they are shown, else
 * none; a drag always orbits), the markers drawn over the model, and flights to a point.
 */
import { useEffect, type RefObject } from 'react';
import type { ModelPoint } from '@shared/types.js';
import { useLatest } from '../../../hooks/use-latest.js';
import { prefersReducedMotion } from '../../../hooks/use-reduced-motion.js';
import type { ViewerEngine, ViewerMarker } from '../lib/engine.js';

/** What {@link useViewportTools} takes. */
export interface ViewportToolsOptions {
  engineRef: RefObject<ViewerEngine | null>;
  /** True once the model is shown (nothing is handed to the tools before). */
  ready: boolean;
  /** True while a click picks a point of the model. */
  pickMode: boolean;
  /** True while the camera frustums are drawn and shown: a click then selects the one under it. */
  camerasShown: boolean;
  /** Selects the camera whose frustum was clicked. */
  onCamera: (index: number) => void;
  /** Drawn over the model (points in model coordinates); replaced whenever the array changes. */
  markers?: readonly ViewerMarker[];
  /** Flies the camera to `point` (model coordinates) whenever `key` changes (a jump under reduced motion). */
  flyTo?: { point: ModelPoint; key: number } | null;
}

/** Hands the viewport's tool state to its engine whenever it changes. */
export function useViewportTools({
  engineRef,
  ready,
  pickMode,
  camerasShown,
  onCamera,
  markers,
  flyTo = null,
}: ViewportToolsOptions): void {
  const cameraPicked = useLatest(onCamera);
  useEffect(() => {
    const engine = engineRef.current;
    if (!engine || !ready) return;
    engine.cameraPoses.onPicked = (index) => cameraPicked.current(index);
    engine.activeTool = pickMode ? engine.picker : camerasShown ? engine.cameraPoses : null;
    return () => {
      engine.activeTool = null;
    };
  }, [engineRef, ready, pickMode, camerasShown, cameraPicked]);

  useEffect(() => {
    const engine = engineRef.current;
    if (!engine || !ready) return;
    engine.markers.set(markers ?? []);
  }, [engineRef, ready, markers]);

  const flyKey = flyTo?.key ?? null;
  const flyPoint = useLatest(flyTo?.point ?? null);
  useEffect(() => {
    const engine = engineRef.current;
    const point = flyPoint.current;
    if (!engine || !ready || flyKey === null || !point) return;
    engine.rig.flyToPoint(point, !prefersReducedMotion());
  }, [engineRef, ready, flyKey, flyPoint]);
}
