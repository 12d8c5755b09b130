/**
 * A viewport's up axis: the choice from the URL, else the one remembered for the model, else the
 * default for its kind (a splat is y-down, as 3D Gaussian-splat training writes it); flipping it
 * remembers it and tells the page (which puts it in the URL); a flip after the model is shown
 * turns the file's frame and frames the model again (a new home view).
 */
import { useEffect, useRef, useState, type RefObject } from 'react';
import type { ViewerEngine } from '../lib/engine.js';
import { defaultUpAxis, rememberedUpAxis, rememberUpAxis, type UpAxis } from '../lib/up-axis.js';

/** What {@link useUpAxis} gives. */
export interface UpAxisChoice {
  /**
   * The up axis shown: the user's choice, else the default for the model's kind.
   * @param withSplat whether the model has a splat (true while it is not known)
   */
  upFor: (withSplat: boolean) => UpAxis;
  /**
   * Flips the up axis shown: the new choice is remembered for the publicId and handed to `onChange`.
   * @param withSplat whether the model has a splat
   */
  flip: (withSplat: boolean) => void;
}

/**
 * The up-axis choice of one viewport.
 * @param publicId the model (the choice is remembered per publicId)
 * @param fromUrl a choice from the URL, which wins over the remembered one (a later one too, e.g. back and forward)
 * @param onChange called with the new choice when the user flips it
 * @returns the axis shown for a model's kind, and the flip
 */
export function useUpAxis(publicId: string, fromUrl: UpAxis | null, onChange?: (up: UpAxis) => void): UpAxisChoice {
  const [choice, setChoice] = useState<UpAxis | null>(() => fromUrl ?? rememberedUpAxis(publicId));
  useEffect(() => {
    if (fromUrl !== null) setChoice(fromUrl);
  }, [fromUrl]);
  const upFor = (withSplat: boolean): UpAxis => choice ?? defaultUpAxis(withSplat);
  return {
    upFor,
    flip: (withSplat) => {
      const next: UpAxis = upFor(withSplat) === 'y-down' ? 'y-up' : 'y-down';
      setChoice(next);
      rememberUpAxis(publicId, next);
      onChange?.(next);
    },
  };
}

/**
 * Turns the shown model when the up axis changes after it was first shown (the first turn is the
 * load's own): the file's frame is turned, and the model framed again as the new home view (a
 * linked compare viewport follows the camera).
 * @param engineRef the viewport's engine
 * @param ready true once the model is shown
 * @param up the up axis shown
 * @param part the file whose frame turns: the splat, or the GLB of a mesh-only model
 */
export function useUpAxisTurn(engineRef: RefObject<ViewerEngine | null>, ready: boolean, up: UpAxis, part: 'splat' | 'mesh'): void {
  const applied = useRef<UpAxis | null>(null);
  useEffect(() => {
    const engine = engineRef.current;
    if (!ready || !engine) return;
    if (applied.current !== null && applied.current !== up) {
      engine.setFlipped(part, up === 'y-down');
      engine.rig.fit(true);
    }
    applied.current = up;
  }, [engineRef, ready, up, part]);
}
