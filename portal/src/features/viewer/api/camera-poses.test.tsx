/**
 * useViewerCameras: the viewport and the findings side ask for the same
 * model's cameras; the camera metadata is downloaded once for both, and again after the model
 * changes (a new `last_updated`).
 */
import { cleanup, render, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Model } from '@shared/types.js';
import { createTestBackend, MemoryApp } from '../../../components/testing/memory-app.js';
import { makeModel } from '../../../components/testing/fixtures.js';
import { useBackend } from '../../../lib/backend-context.js';
import type { Resource } from '../../../lib/resource.js';
import { useViewerCameras, type ViewerCamera } from './camera-poses.js';

const cameraJson = JSON.stringify([
  {
    id: 0,
    img_name: 'a.jpg',
    position: [0, 0, -5],
    rotation: [
      [1, 0, 0],
      [0, 1, 0],
      [0, 0, 1],
    ],
    width: 640,
    height: 480,
  },
]);

const model = makeModel('m1', {
  publicId: 'BOX-1',
  name: 'Box',
  projectId: 'p1',
  last_updated: '2026-01-01T00:00:00.000Z',
  files: { glbPath: 'models/m1/model.glb', cameraMetadata: 'models/m1/camera-metadata.json' },
});

const seen: Array<Resource<ViewerCamera[]>> = [];

function Two({ of }: { of: Model }) {
  const { files } = useBackend();
  seen[0] = useViewerCameras(files, of, true);
  seen[1] = useViewerCameras(files, of, true);
  return null;
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('useViewerCameras', () => {
  it('downloads a model’s camera metadata once for every caller, and again for a new version', async () => {
    const fetchMock = vi.fn(async () => new Response(cameraJson));
    vi.stubGlobal('fetch', fetchMock);
    const test = createTestBackend('admin', { models: [model] });
    const view = render(
      <MemoryApp backend={test.backend} path="/viewer" pattern="/viewer">
        <Two of={model} />
      </MemoryApp>,
    );
    await waitFor(() => expect(seen.map((r) => r.status)).toEqual(['success', 'success']));
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(seen[0]!.status === 'success' && seen[0]!.data.map((c) => c.label)).toEqual(['a.jpg']);

    view.rerender(
      <MemoryApp backend={test.backend} path="/viewer" pattern="/viewer">
        <Two of={{ ...model, last_updated: '2026-02-01T00:00:00.000Z' }} />
      </MemoryApp>,
    );
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(2));
  });
});
