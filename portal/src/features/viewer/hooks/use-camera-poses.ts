/**
 * The camera poses of a viewport's model: its camera metadata loaded once the model is shown,
 * drawn as frustums in the frame of the file they were computed with (the engine's camera-poses
 * tool), shown or hidden by the toolbar's 'Cameras', and the selected camera (highlighted, and
 * the view flown to it: a jump under reduced motion).
 */
import { useEffect, useState, type RefObject } from 'react';
import type { Model } from '@shared/types.js';
import { prefersReducedMotion } from '../../../hooks/use-reduced-motion.js';
import { useBackend } from '../../../lib/backend-context.js';
import type { Resource } from '../../../lib/resource.js';
import { hasCameraMetadata, useViewerCameras, type ViewerCamera } from '../api/camera-poses.js';
import type { ViewerEngine } from '../lib/engine.js';

/** What {@link useCameraPoses} takes. */
export interface CameraPosesOptions {
  engineRef: RefObject<ViewerEngine | null>;
  /** The model (null while it is looked up). */
  model: Model | null;
  /** True once the model is shown: the camera metadata is loaded then. */
  ready: boolean;
  /** The file the camera metadata was computed with: the splat, or the GLB of a mesh-only model. */
  part: 'splat' | 'mesh';
  /** Whether the cameras are shown from the start (the single view: a compare view has two models to read). */
  initiallyOn: boolean;
  /** True while a click picks a point: entering it hides the camera list, which would cover a third of the view. */
  pickMode: boolean;
}

/** What {@link useCameraPoses} gives. */
export interface CameraPoses {
  /** True when the model has camera metadata (the toolbar then has 'Cameras'). */
  withCameras: boolean;
  /** The cameras as loaded: loading, the list, or why it could not be read. */
  cameras: Resource<ViewerCamera[]>;
  /** The list once loaded (null before, or on a failure). */
  list: readonly ViewerCamera[] | null;
  /** Whether the frustums and the camera list are shown. */
  on: boolean;
  /** Shows or hides them (hiding forgets the selection). */
  toggle: () => void;
  /** For each camera, whether its frustum could be drawn. */
  drawn: boolean[];
  /** The selected camera's index, or null. */
  selected: number | null;
  /** Selects a camera (highlighted, and the view flies to it) or none. */
  select: (index: number | null) => void;
}

/**
 * The camera poses of one viewport.
 * @returns the cameras, whether they are shown, the selection and the actions on them
 */
export function useCameraPoses({ engineRef, model, ready, part, initiallyOn, pickMode }: CameraPosesOptions): CameraPoses {
  const { files } = useBackend();
  const [on, setOn] = useState(initiallyOn);
  const [selected, setSelected] = useState<number | null>(null);
  const [drawn, setDrawn] = useState<boolean[]>([]);
  const withCameras = model !== null && hasCameraMetadata(model);
  const cameras = useViewerCameras(files, model, ready && withCameras);
  const list = cameras.status === 'success' ? cameras.data : null;

  useEffect(() => {
    const engine = engineRef.current;
    if (!engine || !list) return;
    setDrawn(
      engine.cameraPoses.set(
        list.map((c) => ({ entry: c.entry, hasPhoto: c.imagePath !== null })),
        part,
      ),
    );
    return () => {
      engine.cameraPoses.set(null);
      setSelected(null);
    };
  }, [engineRef, list, part]);

  const select = (index: number | null) => {
    setSelected(index);
    const engine = engineRef.current;
    engine?.cameraPoses.select(index);
    // a flight, or a jump under prefers-reduced-motion
    if (engine && index !== null) engine.cameraPoses.viewFrom(index, !prefersReducedMotion());
  };

  useEffect(() => {
    const engine = engineRef.current;
    if (!engine || !list) return;
    engine.cameraPoses.setVisible(on);
  }, [engineRef, list, on]);

  // Entering pick mode (Findings or Measure opened) closes the camera list, which would cover a
  // third of the view next to the side column; the Cameras button opens it again.
  useEffect(() => {
    if (pickMode) setOn(false);
  }, [pickMode]);

  const toggle = () => {
    if (on) select(null);
    setOn(!on);
  };

  return { withCameras, cameras, list, on, toggle, drawn, selected, select };
}
