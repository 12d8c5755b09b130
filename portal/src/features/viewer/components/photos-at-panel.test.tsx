/**
 * "Photos of this point" in jsdom: for a point in front of three cameras and behind a
 * fourth, the three are listed best first with the point marked where the pinhole model puts it
 * (hand-computed here), the one behind is not; a photo opens large and can fly the view to its
 * camera; a model without camera metadata, before a pick, and a point no camera sees say so.
 */
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { FileStorePort } from '@shared/ports/files.js';
import type { CameraMetadataEntry } from '@shared/types.js';
import { success } from '../../../lib/resource.js';
import type { ViewerCamera } from '../api/camera-poses.js';
import { PhotosAtPanel, viewsOfPoint } from './photos-at-panel.js';

const identity: CameraMetadataEntry['rotation'] = [
  [1, 0, 0],
  [0, 1, 0],
  [0, 0, 1],
];

/** Cameras looking along +z (identity camera-to-world), 640×480, fx = fy = 500. */
function camera(id: number, position: [number, number, number], imagePath: string | null): ViewerCamera {
  const entry: CameraMetadataEntry = {
    id,
    img_name: `frame_${id}`,
    position,
    rotation: identity,
    width: 640,
    height: 480,
    fx: 500,
    fy: 500,
  };
  return { entry, label: entry.img_name, imagePath, matchedBy: imagePath ? 'name' : null };
}

const cameras: ViewerCamera[] = [
  camera(0, [2, 0, -5], 'models/m1/images/frame_0.png'), // c = (-2, 0, 5): u = 500·(-0.4) + 320 = 120, v = 240
  camera(1, [0, 0, -5], 'models/m1/images/frame_1.png'), // c = (0, 0, 5): u = 320, v = 240 (head-on, nearest)
  camera(2, [0, 0, 5], 'models/m1/images/frame_2.png'), // the point is behind it
  camera(3, [1, 1, -5], null), // c = (-1, -1, 5): u = 220, v = 140
];

const files: FileStorePort = {
  getDownloadUrl: async (path: string) => `http://files.test/${path}`,
} as unknown as FileStorePort;

afterEach(cleanup);

describe('PhotosAtPanel', () => {
  it('lists the cameras that see the point, best first, each photo with the point marked at (u/width, v/height)', async () => {
    const onViewFrom = vi.fn();
    render(<PhotosAtPanel point={{ x: 0, y: 0, z: 0 }} cameras={success(cameras)} files={files} onViewFrom={onViewFrom} />);
    const items = screen.getAllByTestId('photo-at');
    // camera 1 (5 units, 0°), camera 3 (√27 ≈ 5.20, 15.8°), camera 0 (√29 ≈ 5.39, 21.8°); camera 2 is behind
    expect(items.map((i) => i.dataset.cameraIndex)).toEqual(['1', '3', '0']);
    const marks = items.map((i) => within(i).getByTestId('photo-at-mark'));
    expect(marks.map((m) => [m.dataset.u, m.dataset.v])).toEqual([
      ['320.00', '240.00'],
      ['220.00', '140.00'],
      ['120.00', '240.00'],
    ]);
    expect(marks.map((m) => [m.style.left, m.style.top])).toEqual([
      ['50%', '50%'],
      [`${(220 / 640) * 100}%`, `${(140 / 480) * 100}%`],
      ['18.75%', '50%'],
    ]);
    expect(items[0]!.textContent).toContain('5.00 units away · 0.0° off axis');
    expect(items[2]!.textContent).toContain('5.39 units away · 21.8° off axis');
    await waitFor(() =>
      expect(within(items[0]!).getByTestId('photo-at-image').getAttribute('src')).toBe('http://files.test/models/m1/images/frame_1.png'),
    );
    expect(within(items[1]!).getByText('No photo')).toBeTruthy();
    expect(screen.getByRole('status').textContent).toBe('3 photos see the point.');
    expect(screen.getByText(/3 of 4 cameras see the point/)).toBeTruthy();

    // opens large, with the mark; flies the view to its camera
    fireEvent.click(within(items[2]!).getByRole('button'));
    const open = screen.getByTestId('photo-at-open');
    expect(within(open).getByTestId('photo-at-mark').style.left).toBe('18.75%');
    expect(open.textContent).toContain('the point at pixel (120, 240)');
    fireEvent.click(within(open).getByRole('button', { name: 'View from this camera' }));
    expect(onViewFrom).toHaveBeenCalledWith(0);
    fireEvent.click(within(open).getByRole('button', { name: 'Close photo' }));
    expect(screen.queryByTestId('photo-at-open')).toBeNull();
  });

  it('says so without camera metadata, before a pick, and when no camera sees the point', () => {
    const { rerender } = render(<PhotosAtPanel point={{ x: 0, y: 0, z: 0 }} cameras={null} files={files} onViewFrom={() => undefined} />);
    expect(screen.getByText('This model has no camera metadata, so the photos that see a point cannot be found.')).toBeTruthy();
    rerender(<PhotosAtPanel point={null} cameras={success(cameras)} files={files} onViewFrom={() => undefined} />);
    expect(screen.getByText(/Click the model to pick a point/)).toBeTruthy();
    rerender(<PhotosAtPanel point={{ x: 0, y: 0, z: -50 }} cameras={success(cameras)} files={files} onViewFrom={() => undefined} />);
    expect(screen.getByTestId('photos-at-none').textContent).toBe("None of the model's 4 cameras sees this point.");
    expect(screen.queryAllByTestId('photo-at')).toHaveLength(0);
  });

  it('viewsOfPoint gives nothing for a point that is not finite', () => {
    expect(viewsOfPoint(cameras, { x: Number.NaN, y: 0, z: 0 })).toEqual([]);
    expect(viewsOfPoint(cameras, { x: 0, y: 0, z: 0 }).map((v) => v.index)).toEqual([1, 3, 0]);
  });
});
