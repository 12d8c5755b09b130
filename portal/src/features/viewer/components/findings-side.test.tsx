/**
 * The inspection state of the single view (findings-side.tsx) in jsdom on the in-memory
 * backend: closed, nothing is picked or drawn; open, the viewport is in pick mode, a pick becomes
 * the draft and a 'measure' marker, the findings are 'finding' markers and the selected one
 * 'selected' with a flight to it, a measurement from the measure tool opens the panel as the
 * draft, and the photo choices leave out the cameras behind a picked surface.
 */
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Annotation } from '@shared/types.js';
import { createTestBackend, MemoryApp } from '../../../components/testing/memory-app.js';
import { makeModel } from '../../../components/testing/fixtures.js';
import { findingMarkers, useFindingsInspection, type FindingsInspection } from './findings-side.js';

const cameraJson = JSON.stringify(
  // two cameras looking along +z at the origin from z = −5, and one looking along −z from z = +5
  [
    {
      id: 0,
      img_name: 'front_a.jpg',
      position: [0, 0, -5],
      rotation: [
        [1, 0, 0],
        [0, 1, 0],
        [0, 0, 1],
      ],
    },
    {
      id: 1,
      img_name: 'front_b.jpg',
      position: [1, 0, -5],
      rotation: [
        [1, 0, 0],
        [0, 1, 0],
        [0, 0, 1],
      ],
    },
    {
      id: 2,
      img_name: 'back.jpg',
      position: [0, 0, 5],
      rotation: [
        [-1, 0, 0],
        [0, 1, 0],
        [0, 0, -1],
      ],
    },
  ].map((c) => ({ ...c, width: 640, height: 480, fx: 500, fy: 500 })),
);

const model = makeModel('m1', {
  publicId: 'BOX-1',
  name: 'Box',
  projectId: 'p1',
  metadata: { annotationsCount: 1, annotationsSeq: 1 },
  files: { glbPath: 'models/m1/model.glb', cameraMetadata: 'models/m1/camera-metadata.json' },
});

const finding: Omit<Annotation, 'id'> = {
  modelId: 'm1',
  projectId: 'p1',
  seq: 1,
  kind: 'point',
  points: [{ x: 0.5, y: 0.5, z: 0.5 }],
  measure: null,
  up: null,
  title: 'Crack at the corner',
  note: '',
  category: 'crack',
  severity: 3,
  status: 'open',
  photos: [],
  author_uid: 'admin-uid',
  author_email: 'admin@demo.lab',
  followUpOf: null,
};

let latest: FindingsInspection | null = null;

function Harness({ openFinding = null }: { openFinding?: number | null }) {
  latest = useFindingsInspection(model, openFinding);
  return <p data-testid="state">{latest.side ? 'side' : 'no side'}</p>;
}

beforeEach(() => {
  // the camera metadata's download (jsdom has no server at the test backend's links)
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => new Response(cameraJson)),
  );
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  latest = null;
});

describe('useFindingsInspection', () => {
  it('picks, marks, selects, flies and takes a measurement; photo choices leave out the cameras behind the surface', async () => {
    const test = createTestBackend('admin', { models: [model] });
    test.store.writeDocument('annotations', 'm1_1', finding);
    render(
      <MemoryApp backend={test.backend} path="/viewer" pattern="/viewer">
        <Harness />
      </MemoryApp>,
    );
    await waitFor(() => expect(latest).not.toBeNull());
    expect(latest!.viewport.pickMode).toBe(false);
    expect(latest!.viewport.markers).toEqual([]);
    expect(latest!.side).toBeNull();

    act(() => latest!.toggle());
    await waitFor(() => expect(latest!.side?.annotations.status).toBe('success'));
    expect(latest!.viewport.pickMode).toBe(true);
    expect(latest!.viewport.markers).toEqual([{ id: 'm1_1', points: finding.points, label: 'F-1 Crack at the corner', tone: 'finding' }]);
    expect(latest!.side!.draft).toBeNull();

    // a pick on the surface facing −z (towards the two front cameras)
    const point = { x: 0, y: 0, z: 0 };
    act(() => latest!.viewport.onPick({ point, part: 'mesh', normal: { x: 0, y: 0, z: -1 } }));
    expect(latest!.side!.draft).toEqual({ points: [point], measure: null });
    expect(latest!.viewport.markers.at(-1)).toEqual({ id: 'picked-point', points: [point], label: 'Picked point', tone: 'measure' });
    await waitFor(() => expect(latest!.side!.cameras?.status).toBe('success'));
    expect(latest!.side!.photosAt(point)).toEqual(['front_a.jpg', 'front_b.jpg']);
    // without a normal (a splat pick) the camera behind is listed too (as near and head-on as front_a: a tie keeps the file order)
    act(() => latest!.viewport.onPick({ point: { ...point }, part: 'splat', normal: null }));
    expect(latest!.side!.photosAt(latest!.side!.draft!.points[0]!)).toEqual(['front_a.jpg', 'back.jpg', 'front_b.jpg']);

    // selecting a finding: the 'selected' tone, a flight to its point (a new key each time)
    act(() => latest!.side!.onSelect({ id: 'm1_1', ...finding }));
    expect(latest!.viewport.markers[0]!.tone).toBe('selected');
    expect(latest!.viewport.flyTo).toEqual({ point: finding.points[0], key: 1 });
    act(() => latest!.side!.onSelect({ id: 'm1_1', ...finding }));
    expect(latest!.viewport.flyTo?.key).toBe(2);
    expect(latest!.side!.picked?.point).toEqual(finding.points[0]);

    // closed and a measurement saved: the panel opens with the measurement as the draft
    act(() => latest!.toggle());
    expect(latest!.side).toBeNull();
    const points = [point, { x: 3, y: 4, z: 0 }];
    act(() => latest!.saveMeasurement({ points, measure: 'distance', up: null }));
    expect(latest!.open).toBe(true);
    await waitFor(() => expect(latest!.side).not.toBeNull());
    expect(latest!.side!.draft).toEqual({ points, measure: 'distance', up: null });
    // the measurement's own markers are the measure tool's: no picked-point marker then
    expect(latest!.viewport.markers.some((m) => m.id === 'picked-point')).toBe(false);
    expect(screen.getByTestId('state').textContent).toBe('side');
  });

  it("opens on the URL's finding: the panel starts open, selects F-1 once the list has it and flies there", async () => {
    const test = createTestBackend('admin', { models: [model] });
    test.store.writeDocument('annotations', 'm1_1', finding);
    render(
      <MemoryApp backend={test.backend} path="/viewer" pattern="/viewer">
        <Harness openFinding={1} />
      </MemoryApp>,
    );
    await waitFor(() => expect(latest?.side?.selectedId).toBe('m1_1'));
    expect(latest!.open).toBe(true);
    expect(latest!.viewport.flyTo).toEqual({ point: finding.points[0], key: 1 });
    expect(latest!.viewport.markers[0]!.tone).toBe('selected');
  });

  it('findingMarkers: one marker a finding (a polyline for a measurement), the selected one highlighted, then the pick', () => {
    const line: Annotation = {
      id: 'm1_2',
      ...finding,
      seq: 2,
      title: 'Span',
      kind: 'polyline',
      measure: 'distance',
      points: [
        { x: 0, y: 0, z: 0 },
        { x: 1, y: 0, z: 0 },
      ],
    };
    expect(findingMarkers([{ id: 'm1_1', ...finding }, line], 'm1_2', { x: 9, y: 9, z: 9 })).toEqual([
      { id: 'm1_1', points: finding.points, label: 'F-1 Crack at the corner', tone: 'finding' },
      { id: 'm1_2', points: line.points, label: 'F-2 Span', tone: 'selected' },
      { id: 'picked-point', points: [{ x: 9, y: 9, z: 9 }], label: 'Picked point', tone: 'measure' },
    ]);
  });
});
