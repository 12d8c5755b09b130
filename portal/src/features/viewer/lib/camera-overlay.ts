/**
 * The camera poses of a model's camera metadata drawn as frustums (from a defect
 * seen in 3D to the original photo): one `LineSegments` for the cameras that have a photo, one for
 * those that do not (drawn dimmer), one for the selected camera (highlighted); picking a frustum
 * under a pointer in screen space. The frustums are built by shared/camera-poses.ts in the
 * entries' own coordinates, so this group belongs in the frame of the file the cameras were
 * computed for (the splat's group: it turns with the up-axis fix). three.js only, no React.
 */
import { Box3, BufferGeometry, Float32BufferAttribute, Group, LineBasicMaterial, LineSegments, Vector3, type Camera } from 'three';
import { cameraFrustum, lineSegments, suggestedFrustumDepth, type CameraLike } from '@shared/camera-poses.js';

/** Colours of the frustums (on the viewport's dark background). */
export const CAMERA_COLOURS = {
  /** A camera with a photo: amber. */
  withPhoto: 0xffc233,
  /** A camera without a photo: slate grey. */
  withoutPhoto: 0x7b8794,
  /** The selected camera: a saturated orange-red, drawn on top. */
  selected: 0xff4d2e,
} as const;

/** One camera of the overlay: its metadata entry and whether a photo of it is stored. */
export interface OverlayCamera {
  entry: CameraLike;
  hasPhoto: boolean;
}

/** Segments a frustum has in `lineSegments` (4 edges to the apex, the image rectangle, the up triangle). */
const SEGMENTS_PER_FRUSTUM = 11;

/**
 * Line segments of a flat endpoint array as one object, drawn over the model: a splat is a
 * translucent cloud drawn after opaque objects, which would veil cameras inside or behind it, so
 * the lines go in the transparent pass after it (`renderOrder`) without a depth test.
 */
function linesOf(points: number[], colour: number, order: number): LineSegments {
  const geometry = new BufferGeometry();
  geometry.setAttribute('position', new Float32BufferAttribute(points, 3));
  const material = new LineBasicMaterial({ color: colour, depthTest: false, depthWrite: false, transparent: true });
  const lines = new LineSegments(geometry, material);
  lines.renderOrder = order;
  return lines;
}

/**
 * Frustums of a set of cameras in one group. Cameras whose pose is malformed (a rotation that is
 * not one) are left out of the drawing and of picking: {@link drawn} says which are in.
 */
export class CameraOverlay {
  /** Add this to the frame the cameras belong to (e.g. the engine's splat group). */
  readonly group = new Group();
  /** Depth of every frustum, in the cameras' world units ({@link suggestedFrustumDepth}). */
  readonly depth: number;
  /** For each camera (input order), whether it is drawn (its pose could be computed). */
  readonly drawn: boolean[];

  /** Endpoints per camera (66 numbers each), null when not drawn. */
  private readonly segments: (number[] | null)[];
  private selectedLines: LineSegments | null = null;
  private selectedIndex: number | null = null;

  /** @param cameras the cameras, in the order the UI lists them */
  constructor(private readonly cameras: readonly OverlayCamera[]) {
    this.group.name = 'camera poses';
    const valid = cameras.filter(
      (c) => Array.isArray(c.entry.position) && c.entry.position.length === 3 && c.entry.position.every(Number.isFinite),
    );
    this.depth = valid.length > 0 ? suggestedFrustumDepth(valid.map((c) => c.entry)) : 1;
    this.segments = cameras.map((camera) => {
      try {
        return lineSegments(cameraFrustum(camera.entry, this.depth));
      } catch {
        return null;
      }
    });
    this.drawn = this.segments.map((s) => s !== null);
    const withPhoto: number[] = [];
    const withoutPhoto: number[] = [];
    this.segments.forEach((points, i) => {
      if (points) (cameras[i]!.hasPhoto ? withPhoto : withoutPhoto).push(...points);
    });
    if (withoutPhoto.length > 0) this.group.add(linesOf(withoutPhoto, CAMERA_COLOURS.withoutPhoto, 10));
    if (withPhoto.length > 0) this.group.add(linesOf(withPhoto, CAMERA_COLOURS.withPhoto, 11));
  }

  /** The entry of a drawn camera (input index), or null when there is none or it is not drawn. */
  entryAt(index: number): CameraLike | null {
    return this.drawn[index] ? this.cameras[index]!.entry : null;
  }

  /**
   * The box around the drawn cameras' centres, in world coordinates (through the group's current
   * turn), or null when none is drawn.
   */
  worldBounds(): { min: [number, number, number]; max: [number, number, number] } | null {
    this.group.updateWorldMatrix(true, false);
    const box = new Box3();
    const point = new Vector3();
    this.cameras.forEach((camera, i) => {
      if (this.drawn[i]) box.expandByPoint(point.fromArray(camera.entry.position as number[]).applyMatrix4(this.group.matrixWorld));
    });
    return box.isEmpty() ? null : { min: box.min.toArray(), max: box.max.toArray() };
  }

  /** The highlighted camera (input index), or null. */
  get selected(): number | null {
    return this.selectedIndex;
  }

  /** Highlights one camera's frustum (drawn over everything), or none. */
  select(index: number | null): void {
    if (this.selectedLines) {
      this.group.remove(this.selectedLines);
      disposeLines(this.selectedLines);
      this.selectedLines = null;
    }
    this.selectedIndex = index;
    const points = index === null ? null : this.segments[index];
    if (points) {
      this.selectedLines = linesOf(points, CAMERA_COLOURS.selected, 12);
      this.group.add(this.selectedLines);
    }
  }

  /**
   * The camera whose frustum passes nearest to a point of the canvas, within `tolerance` pixels,
   * measured on the drawn line segments projected by `camera` (segments behind it are skipped).
   * A tie goes to a camera with a photo, then to the selected one.
   * @param camera the viewport's camera (its matrices current)
   * @param x pointer position from the canvas's left edge, CSS pixels
   * @param y pointer position from the canvas's top edge, CSS pixels
   * @param width canvas width, CSS pixels
   * @param height canvas height, CSS pixels
   * @param tolerance how far from a line a click still counts, CSS pixels (default 8)
   * @returns the camera's input index, or null
   */
  pick(camera: Camera, x: number, y: number, width: number, height: number, tolerance = 8): number | null {
    if (!this.group.visible) return null;
    this.group.updateWorldMatrix(true, false);
    const world = this.group.matrixWorld;
    const a = new Vector3();
    const b = new Vector3();
    const toScreen = (v: Vector3): [number, number] | null => {
      v.applyMatrix4(world).project(camera);
      if (!(v.z > -1 && v.z < 1)) return null; // behind the camera or past the far plane
      return [((v.x + 1) / 2) * width, ((1 - v.y) / 2) * height];
    };
    let best: { index: number; distance: number; score: number } | null = null;
    this.segments.forEach((points, index) => {
      if (!points) return;
      let nearest = Infinity;
      for (let s = 0; s < SEGMENTS_PER_FRUSTUM; s += 1) {
        const o = s * 6;
        const p = toScreen(a.set(points[o]!, points[o + 1]!, points[o + 2]!));
        const q = toScreen(b.set(points[o + 3]!, points[o + 4]!, points[o + 5]!));
        if (!p || !q) continue;
        nearest = Math.min(nearest, distanceToSegment(x, y, p, q));
      }
      if (nearest > tolerance) return;
      // Within half a pixel counts as a tie, broken by photo, then selection.
      const score = Math.round(nearest * 2) - (this.cameras[index]!.hasPhoto ? 0.5 : 0) - (index === this.selectedIndex ? 0.25 : 0);
      if (!best || score < best.score) best = { index, distance: nearest, score };
    });
    return (best as { index: number } | null)?.index ?? null;
  }

  /** Frees the geometries and materials. */
  dispose(): void {
    this.group.removeFromParent();
    this.group.traverse((object) => {
      if ((object as LineSegments).isLineSegments) disposeLines(object as LineSegments);
    });
  }
}

function disposeLines(lines: LineSegments): void {
  lines.geometry.dispose();
  (lines.material as LineBasicMaterial).dispose();
}

/** Distance from (x, y) to the segment p–q, in the same units. */
function distanceToSegment(x: number, y: number, p: [number, number], q: [number, number]): number {
  const dx = q[0] - p[0];
  const dy = q[1] - p[1];
  const length2 = dx * dx + dy * dy;
  const t = length2 === 0 ? 0 : Math.max(0, Math.min(1, ((x - p[0]) * dx + (y - p[1]) * dy) / length2));
  return Math.hypot(x - (p[0] + t * dx), y - (p[1] + t * dy));
}
