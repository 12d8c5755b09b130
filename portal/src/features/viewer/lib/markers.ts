/**
 * Markers drawn over a model: findings, the selected finding, the points of a
 * measurement and findings carried over from a reference capture. A marker's points are in model
 * coordinates; the layer's group copies the model frame's turn, so markers sit where they were
 * picked whatever the up axis. A point is a sphere whose size on screen stays about the same at
 * any distance ({@link MarkerLayer.update} rescales it each frame), a polyline is a line through
 * its points with a small sphere at each. Drawn after the model and without depth test, so a
 * marker is never hidden inside the splat it was picked on.
 */
import {
  BufferGeometry,
  Color,
  Float32BufferAttribute,
  Group,
  Line,
  LineBasicMaterial,
  Mesh,
  MeshBasicMaterial,
  SphereGeometry,
  Vector3,
  type PerspectiveCamera,
} from 'three';
import type { ModelPoint } from '@shared/types.js';

/** A marker's role, which sets its colour and size. */
export type MarkerTone = 'finding' | 'selected' | 'measure' | 'carried';

/** Something drawn at one point (a point finding) or along points (a polyline or a measurement). */
export interface ViewerMarker {
  id: string;
  /** Model coordinates; 1 point: a point marker, 2 or more: a polyline. */
  points: ModelPoint[];
  /** What the marker is (e.g. the finding's title); the DOM shows it, the 3D view does not. */
  label: string;
  tone: MarkerTone;
}

/**
 * Marker colours: bright and distinct on the viewer's dark background (#1b1f24): amber findings,
 * cyan for the selected one, magenta measurements, lime for findings carried over from the
 * reference capture.
 */
export const MARKER_COLOURS: Readonly<Record<MarkerTone, number>> = {
  finding: 0xffb020,
  selected: 0x22d3ee,
  measure: 0xff4fd8,
  carried: 0xa3e635,
};

/** Radius of a point marker on screen, CSS pixels (the selected one is larger). */
export const MARKER_PIXEL_RADIUS: Readonly<Record<MarkerTone, number>> = {
  finding: 6,
  selected: 9,
  measure: 6,
  carried: 6,
};

/** The vertices of a polyline's corners are drawn this much smaller than a point marker. */
const VERTEX_SCALE = 0.85;

/** Draw order of markers: after the model (the splat is drawn by Spark in the scene). */
const MARKER_RENDER_ORDER = 1000;

/**
 * The world radius that appears `pixels` CSS pixels tall at `distance` from a perspective camera.
 * @param distance from the camera along its view, world units
 * @param fovDegrees the camera's vertical field of view
 * @param viewportHeight the canvas's CSS height
 * @param pixels wanted size on screen, CSS pixels
 */
export function worldSizeForPixels(distance: number, fovDegrees: number, viewportHeight: number, pixels: number): number {
  const visibleHeight = 2 * Math.max(distance, 0) * Math.tan((fovDegrees * Math.PI) / 360);
  return (visibleHeight * pixels) / Math.max(viewportHeight, 1);
}

/** One drawn sphere and the screen radius it keeps. */
interface Dot {
  mesh: Mesh;
  pixels: number;
}

/**
 * The 3D objects of a list of markers, in one group (add it to the scene and keep it turned like
 * the model's frame). Call {@link update} before each frame and {@link dispose} at the end.
 */
export class MarkerLayer {
  readonly group = new Group();
  private dots: Dot[] = [];
  private readonly sphere = new SphereGeometry(1, 16, 12);
  private readonly materials = new Map<MarkerTone, { dot: MeshBasicMaterial; line: LineBasicMaterial }>();
  private current: readonly ViewerMarker[] = [];

  constructor() {
    this.group.name = 'markers';
    this.group.renderOrder = MARKER_RENDER_ORDER;
  }

  /** The markers drawn now. */
  get markers(): readonly ViewerMarker[] {
    return this.current;
  }

  private material(tone: MarkerTone) {
    let pair = this.materials.get(tone);
    if (!pair) {
      const color = new Color(MARKER_COLOURS[tone]);
      pair = {
        dot: new MeshBasicMaterial({ color, depthTest: false, depthWrite: false, transparent: true, opacity: 0.95 }),
        line: new LineBasicMaterial({ color, depthTest: false, depthWrite: false, transparent: true, opacity: 0.95 }),
      };
      this.materials.set(tone, pair);
    }
    return pair;
  }

  /**
   * Replaces the drawn markers. Markers without points, or with a point that is not finite, are skipped.
   * @param markers the markers, points in model coordinates; later ones are drawn on top
   */
  set(markers: readonly ViewerMarker[]): void {
    this.clear();
    this.current = markers;
    // The selected marker last, so it is drawn over the others.
    const ordered = [...markers].sort((a, b) => Number(a.tone === 'selected') - Number(b.tone === 'selected'));
    ordered.forEach((marker, index) => {
      const points = marker.points.filter((p) => Number.isFinite(p.x) && Number.isFinite(p.y) && Number.isFinite(p.z));
      if (points.length === 0 || points.length !== marker.points.length) return;
      const { dot, line } = this.material(marker.tone);
      const order = MARKER_RENDER_ORDER + index * 2;
      if (points.length >= 2) {
        const geometry = new BufferGeometry();
        geometry.setAttribute(
          'position',
          new Float32BufferAttribute(
            points.flatMap((p) => [p.x, p.y, p.z]),
            3,
          ),
        );
        const polyline = new Line(geometry, line);
        polyline.renderOrder = order;
        polyline.name = `marker-line:${marker.id}`;
        polyline.raycast = () => undefined; // markers are never picked
        this.group.add(polyline);
      }
      const pixels = MARKER_PIXEL_RADIUS[marker.tone] * (points.length >= 2 ? VERTEX_SCALE : 1);
      for (const point of points) {
        const mesh = new Mesh(this.sphere, dot);
        mesh.position.set(point.x, point.y, point.z);
        mesh.renderOrder = order + 1;
        mesh.name = `marker:${marker.id}`;
        mesh.raycast = () => undefined;
        this.group.add(mesh);
        this.dots.push({ mesh, pixels });
      }
    });
  }

  /**
   * Sizes every sphere for the camera so that it keeps its radius in CSS pixels on screen.
   * @param camera the camera about to draw
   * @param viewportHeight the canvas's CSS height
   */
  update(camera: PerspectiveCamera, viewportHeight: number): void {
    if (this.dots.length === 0) return;
    this.group.updateMatrixWorld(true);
    camera.updateMatrixWorld();
    const eye = new Vector3().setFromMatrixPosition(camera.matrixWorld);
    const forward = new Vector3();
    camera.getWorldDirection(forward);
    const at = new Vector3();
    for (const { mesh, pixels } of this.dots) {
      at.setFromMatrixPosition(mesh.matrixWorld);
      // Depth along the view (what the projection divides by), at least a sliver in front.
      const depth = Math.max(at.sub(eye).dot(forward), camera.near);
      mesh.scale.setScalar(worldSizeForPixels(depth, camera.fov, viewportHeight, pixels));
    }
    this.group.updateMatrixWorld(true);
  }

  private clear(): void {
    for (const child of [...this.group.children]) {
      this.group.remove(child);
      if (child instanceof Line) child.geometry.dispose();
    }
    this.dots = [];
    this.current = [];
  }

  /** Frees the geometries and materials. */
  dispose(): void {
    this.clear();
    this.sphere.dispose();
    for (const { dot, line } of this.materials.values()) {
      dot.dispose();
      line.dispose();
    }
    this.materials.clear();
  }
}
