/** Markers over the model: what is drawn for points and polylines, their colours and their size on screen (no WebGL). */
import type { MeshBasicMaterial } from 'three';
import { Line, Mesh, PerspectiveCamera, Vector3 } from 'three';
import { describe, expect, it } from 'vitest';
import { MARKER_COLOURS, MARKER_PIXEL_RADIUS, MarkerLayer, worldSizeForPixels, type ViewerMarker } from './markers.js';

const point = (x: number, y: number, z: number) => ({ x, y, z });

function camera(z: number): PerspectiveCamera {
  const c = new PerspectiveCamera(50, 4 / 3, 0.01, 1000);
  c.position.set(0, 0, z);
  c.lookAt(0, 0, 0);
  c.updateMatrixWorld();
  return c;
}

describe('worldSizeForPixels', () => {
  it('is the share of the visible height at that distance', () => {
    // At distance d the view is 2·d·tan(25°) tall; 10 px of 600.
    expect(worldSizeForPixels(10, 50, 600, 10)).toBeCloseTo((2 * 10 * Math.tan((25 * Math.PI) / 180) * 10) / 600, 12);
    expect(worldSizeForPixels(20, 50, 600, 10)).toBeCloseTo(2 * worldSizeForPixels(10, 50, 600, 10), 12);
  });
});

describe('MarkerLayer', () => {
  const markers: ViewerMarker[] = [
    { id: 'a', points: [point(0, 0, 0)], label: 'A', tone: 'finding' },
    { id: 'b', points: [point(0, 0, 0), point(1, 0, 0), point(1, 1, 0)], label: 'B', tone: 'measure' },
    { id: 'c', points: [point(2, 0, 0)], label: 'C', tone: 'selected' },
  ];

  it('draws a sphere per point and a line per polyline, at the model coordinates, in the tone colours', () => {
    const layer = new MarkerLayer();
    layer.set(markers);
    const spheres = layer.group.children.filter((c): c is Mesh => c instanceof Mesh);
    const lines = layer.group.children.filter((c): c is Line => c instanceof Line);
    expect(spheres).toHaveLength(5);
    expect(lines).toHaveLength(1);
    expect(Array.from(lines[0]!.geometry.getAttribute('position').array)).toEqual([0, 0, 0, 1, 0, 0, 1, 1, 0]);
    const selected = spheres.find((s) => s.name === 'marker:c')!;
    expect(selected.position.toArray()).toEqual([2, 0, 0]);
    expect((selected.material as MeshBasicMaterial).color.getHex()).toBe(MARKER_COLOURS.selected);
    // The selected marker is drawn last (on top).
    expect(Math.max(...spheres.map((s) => s.renderOrder))).toBe(selected.renderOrder);
    expect(layer.markers).toBe(markers);
  });

  it('gives every tone its own colour', () => {
    expect(new Set(Object.values(MARKER_COLOURS)).size).toBe(4);
  });

  it('keeps a sphere the same size on screen at any distance', () => {
    const layer = new MarkerLayer();
    layer.set([markers[0]!]);
    const sphere = layer.group.children[0] as Mesh;
    layer.update(camera(10), 600);
    const near = sphere.scale.x;
    layer.update(camera(40), 600);
    expect(sphere.scale.x).toBeCloseTo(near * 4, 9);
    expect(near).toBeCloseTo(worldSizeForPixels(10, 50, 600, MARKER_PIXEL_RADIUS.finding), 9);
  });

  it('skips markers with a point that is not finite, and replaces or clears what it drew', () => {
    const layer = new MarkerLayer();
    layer.set([{ id: 'x', points: [point(Number.NaN, 0, 0)], label: 'X', tone: 'finding' }, markers[0]!]);
    expect(layer.group.children).toHaveLength(1);
    layer.set([]);
    expect(layer.group.children).toHaveLength(0);
    layer.dispose();
  });

  it('is never hit by a pick ray', () => {
    const layer = new MarkerLayer();
    layer.set([markers[0]!]);
    layer.update(camera(10), 600);
    const hits: unknown[] = [];
    for (const child of layer.group.children) child.raycast({ ray: { origin: new Vector3(0, 0, 10) } } as never, hits as never);
    expect(hits).toEqual([]);
  });
});
