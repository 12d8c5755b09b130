/**
 * The demo photos: each drone camera's view of the tower splat, stills of the footbridge and a
 * thumbnail of each model, drawn by the software renderer and encoded as PNG with sharp.
 */
import type { CameraLike } from '@shared/camera-poses.js';
import { normalize as unit, type Vec3 } from '@shared/vec3.js';
import type { CameraMetadataEntry } from '@shared/types.js';
import sharp from 'sharp';
import { stillCamera } from './cameras.js';
import type { RGB } from './colour.js';
import { toYDown } from './frame.js';
import type { Gaussians } from './gaussians.js';
import { partsToTriangles } from './meshes.js';
import { renderView, type RenderScene } from './renderer.js';
import { BASE_PALETTE, bridgeParts } from './structures.js';

/** A generated photo: its file name and its PNG bytes. */
export interface DemoPhoto {
  name: string;
  bytes: Uint8Array<ArrayBuffer>;
}

/** Size of the stills and thumbnails, pixels (the flights' photos take their cameras' size). */
const STILL_WIDTH = 320;
const STILL_HEIGHT = 240;

/**
 * Encodes RGB pixels as a PNG (8-bit RGB, no interlace) with sharp. Adaptive row filters at
 * zlib level 4: these smooth renders come out about as small as at the default level, in about
 * half the time.
 * @param width width in pixels, a positive integer
 * @param height height in pixels, a positive integer
 * @param rgb width × height × 3 bytes, row-major from the top-left
 * @returns the PNG bytes
 * @throws RangeError (as a rejection) when `rgb` has the wrong length
 */
export async function encodePng(width: number, height: number, rgb: Uint8Array): Promise<Uint8Array<ArrayBuffer>> {
  if (rgb.length !== width * height * 3) throw new RangeError(`encodePng: ${rgb.length} bytes for ${width}×${height} RGB`);
  const png = await sharp(rgb, { raw: { width, height, channels: 3 } })
    .png({ compressionLevel: 4, adaptiveFiltering: true })
    .toBuffer();
  // a copy on its own ArrayBuffer, like every other generated file (sharp's Buffer may share one)
  return new Uint8Array(png);
}

/** Renders one view and encodes it: the render runs now, the encoding on sharp's threads while the next view renders. */
function photo(name: string, scene: RenderScene, camera: CameraLike): Promise<DemoPhoto> {
  const rgb = renderView(scene, camera);
  return encodePng(Math.round(camera.width), Math.round(camera.height), rgb).then((bytes) => ({ name, bytes }));
}

/**
 * The tower's photos: one per camera of its flight, drawn from exactly that pose, and a
 * thumbnail from a fixed still camera (south-east of the tower, looking at its middle).
 * @param splat the tower's Gaussians in the y-down frame the cameras are in
 * @param cameras the flight's camera entries (none for a model without a flight)
 * @returns `images` named after each camera's `img_name` ('.png' added when it has no such
 *   extension), in camera order, and `thumbnail` named 'thumbnail.png'
 */
export async function towerPhotos(
  splat: Gaussians,
  cameras: CameraMetadataEntry[],
): Promise<{ images: DemoPhoto[]; thumbnail: DemoPhoto }> {
  const scene: RenderScene = { splats: splat, up: [0, -1, 0] };
  const images = cameras.map((camera) =>
    photo(/\.png$/i.test(camera.img_name) ? camera.img_name : `${camera.img_name}.png`, scene, camera),
  );
  const still = stillCamera(toYDown([34, 17, 41]), toYDown([0, 23, 0]), [0, -1, 0], STILL_WIDTH, STILL_HEIGHT, 55);
  const thumbnail = photo('thumbnail.png', scene, still);
  const [done, thumb] = await Promise.all([Promise.all(images), thumbnail]);
  return { images: done, thumbnail: thumb };
}

/** Where the footbridge's stills are taken from and what they look at (y-up, metres): under the deck, then from afar. */
const BRIDGE_VIEWS: [Vec3, Vec3][] = [
  [
    [-4, 1.8, 5],
    [3, 3.6, -0.5],
  ],
  [
    [14, 7, 22],
    [0, 3.5, 0],
  ],
];

/**
 * The footbridge's photos: `count` stills (the views taken in turn), lit by a fixed sun, and a
 * thumbnail of the whole span.
 * @param tint the steelwork's paint colour, sRGB in [0, 1]
 * @param count how many stills, ≥ 0
 * @returns `images` named girder_001.png…, and `thumbnail` named 'thumbnail.png'
 */
export async function bridgePhotos(tint: RGB, count: number): Promise<{ images: DemoPhoto[]; thumbnail: DemoPhoto }> {
  const scene: RenderScene = {
    triangles: partsToTriangles(bridgeParts({ tint }), { ...BASE_PALETTE, paint: tint }),
    up: [0, 1, 0],
    sun: unit([0.35, 0.8, 0.45]),
  };
  const images = Array.from({ length: count }, (_, i) => {
    const [eye, target] = BRIDGE_VIEWS[i % BRIDGE_VIEWS.length]!;
    const camera = stillCamera(eye, target, [0, 1, 0], STILL_WIDTH, STILL_HEIGHT, 60);
    return photo(`girder_${String(i + 1).padStart(3, '0')}.png`, scene, camera);
  });
  const thumbnail = photo('thumbnail.png', scene, stillCamera([24, 9, 30], [0, 3.5, 0], [0, 1, 0], STILL_WIDTH, STILL_HEIGHT, 50));
  const [done, thumb] = await Promise.all([Promise.all(images), thumbnail]);
  return { images: done, thumbnail: thumb };
}
