/**
 * "Photos of this point" in the built-in viewer, headless Chromium with software WebGL,
 * on the generated consistent scene of tests/support/inspection-scene.ts: a 2×1×1 box GLB with a
 * colour per face, six cameras in a ring looking at it (`cameras.json`) and a photo drawn from each
 * camera's pose by three.js, independently of shared/photo-projection.ts. Uploaded with the CLI as
 * a mesh-only model with its camera metadata and photos; a point picked on the box in the viewer
 * gives back exactly the cameras that face the picked face and have the point in their photo (not
 * those behind the box), and each photo shows the mark where the scene's own projection puts the
 * point (within 2 CSS px on screen; on the photo's own pixels, the face's colour under the mark).
 * The large view and the flight to the camera's pose are checked too. Screenshot:
 * test-results/inspect/photos-at.png.
 */
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ModelPoint } from '@shared/types.js';
import { axeViolations } from '../support/axe.js';
import { browserSkipReason, screenshotOnFailure, viewerSettled, VIEWER_TEST_WINDOW } from '../support/browser.js';
import { DEMO_ADMIN, INSPECT_SHOTS, startInspectionScene, type InspectionScene } from '../support/inspection-fixture.js';
import {
  INSPECTION_BOX,
  SCENE_CAMERA_COUNT,
  SCENE_PHOTO_HEIGHT,
  SCENE_PHOTO_WIDTH,
  drawnPixel,
  facesCamera,
  inspectionCameras,
  scenePhotoName,
  type BoxFace,
} from '../support/inspection-scene.js';
import type { EmbeddedServer } from '../support/server.js';

const skipReason = browserSkipReason();
if (skipReason) console.info(`[e2e inspect-photos] skipping: ${skipReason}`);

const RENDER_TIMEOUT_MS = 60_000;
/** On screen, how far the mark's centre may be from where the scene's projection puts the point (CSS px). */
const MARK_TOLERANCE_PX = 2;

/** The face of the box a surface point lies on (its coordinate at the box's extent). */
function faceOf(point: ModelPoint): BoxFace {
  const { min, max, faces } = INSPECTION_BOX;
  const near = (a: number, b: number) => Math.abs(a - b) < 1e-3;
  const name = near(point.x, max.x)
    ? '+x'
    : near(point.x, min.x)
      ? '-x'
      : near(point.y, max.y)
        ? '+y'
        : near(point.y, min.y)
          ? '-y'
          : near(point.z, max.z)
            ? '+z'
            : near(point.z, min.z)
              ? '-z'
              : null;
  if (!name) throw new Error(`the picked point ${JSON.stringify(point)} is not on the box's surface`);
  return faces.find((f) => f.name === name)!;
}

const inPhoto = (pixel: { u: number; v: number } | null) =>
  pixel !== null && pixel.u >= 0 && pixel.u < SCENE_PHOTO_WIDTH && pixel.v >= 0 && pixel.v < SCENE_PHOTO_HEIGHT;

describe.skipIf(skipReason !== null)('photos that see a picked point (software WebGL)', () => {
  let scene: InspectionScene | undefined;
  let seeded: EmbeddedServer;
  let current: Page | null = null;
  beforeEach(screenshotOnFailure('inspect-photos-failure', () => current));

  beforeAll(async () => {
    scene = await startInspectionScene({
      prefix: 'inspect-photos',
      project: { name: 'Inspection Box', structureId: 'BOX-002' },
      models: [{ publicId: 'BOX-P', name: 'Inspection box with photos', files: 'scene' }],
    });
    seeded = scene.server;
  }, 120_000);

  afterAll(async () => {
    await scene?.stop();
    expect(scene?.pageErrors ?? []).toEqual([]);
  });

  /** The mark's centre and where the scene puts the point, on screen, for a photo with its mark. */
  async function markOffset(photo: Locator, pixel: { u: number; v: number }): Promise<{ dx: number; dy: number }> {
    const img = (await photo.getByTestId('photo-at-image').boundingBox())!;
    const mark = (await photo.getByTestId('photo-at-mark').boundingBox())!;
    const expectedX = img.x + (pixel.u / SCENE_PHOTO_WIDTH) * img.width;
    const expectedY = img.y + (pixel.v / SCENE_PHOTO_HEIGHT) * img.height;
    return { dx: mark.x + mark.width / 2 - expectedX, dy: mark.y + mark.height / 2 - expectedY };
  }

  /** The photo's own pixel (its natural size) at (u, v), as [r, g, b]. */
  async function photoPixel(photo: Locator, pixel: { u: number; v: number }): Promise<number[]> {
    const image = photo.getByTestId('photo-at-image');
    await expect
      .poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth), { timeout: 20_000 })
      .toBe(SCENE_PHOTO_WIDTH);
    return image.evaluate((img: HTMLImageElement, at: { u: number; v: number }) => {
      const canvas = document.createElement('canvas');
      canvas.width = img.naturalWidth;
      canvas.height = img.naturalHeight;
      const context = canvas.getContext('2d')!;
      context.drawImage(img, 0, 0);
      return [...context.getImageData(Math.floor(at.u), Math.floor(at.v), 1, 1).data.slice(0, 3)];
    }, pixel);
  }

  it('lists the cameras facing the picked face, each photo marked where the geometry puts the point', { timeout: 150_000 }, async () => {
    const page = await scene!.signedInPage(DEMO_ADMIN, VIEWER_TEST_WINDOW, (opened) => (current = opened));
    await page.goto(`${seeded.url}/viewer?id=BOX-P`);
    expect(await viewerSettled(page, RENDER_TIMEOUT_MS)).toEqual(['ready']);
    await page.getByRole('button', { name: 'Findings', exact: true }).click();
    const panel = page.getByTestId('photos-at-panel');
    await panel.getByText('Click the model to pick a point: the photos that see it are listed here.').waitFor();

    // Pick the middle of the view: the default view looks at the box's front (+z) side.
    const viewport = page.getByTestId('viewport');
    const canvas = (await viewport.locator('canvas').boundingBox())!;
    await page.mouse.click(canvas.x + canvas.width * 0.5, canvas.y + canvas.height * 0.5);
    await expect.poll(() => viewport.getAttribute('data-picked')).not.toBeNull();
    const point = JSON.parse((await viewport.getAttribute('data-picked'))!) as ModelPoint;
    const face = faceOf(point);
    console.info(`[e2e inspect-photos] picked ${JSON.stringify(point)} on face ${face.name}`);
    expect(face.name).not.toBe('+y'); // a side face: some cameras are behind it

    // What the scene's own facts say: the cameras on the face's side with the point in their photo.
    const cameras = inspectionCameras();
    const expected = cameras.filter((_c, k) => facesCamera(k, face.name) && inPhoto(drawnPixel(k, point))).map((c) => c.img_name);
    const behind = cameras.filter((_c, k) => !facesCamera(k, face.name)).map((c) => c.img_name);
    expect(expected.length).toBeGreaterThan(0);
    expect(behind.length).toBeGreaterThan(0);
    // the point is inside the photos of some cameras behind the box too: only the surface's side rules them out
    expect(
      behind.some((name) =>
        inPhoto(
          drawnPixel(
            cameras.findIndex((c) => c.img_name === name),
            point,
          ),
        ),
      ),
    ).toBe(true);

    const items = panel.getByTestId('photo-at');
    await expect.poll(() => items.count()).toBe(expected.length);
    const listed = await items.evaluateAll((els) => els.map((el) => (el as HTMLElement).dataset.imgName ?? ''));
    expect([...listed].sort()).toEqual([...expected].sort());
    for (const name of behind) expect(listed).not.toContain(name);
    expect(await panel.getByText(/Cameras behind the picked surface are left out/).count()).toBe(1);

    // Each photo: the mark where three's projection of the scene puts the point, and the face's colour there.
    const faceRgb = [1, 3, 5].map((i) => parseInt(face.colour.slice(i, i + 2), 16));
    const report: string[] = [];
    for (let i = 0; i < expected.length; i += 1) {
      const item = items.nth(i);
      const name = listed[i]!;
      const k = cameras.findIndex((c) => c.img_name === name);
      const pixel = drawnPixel(k, point)!;
      const mark = item.getByTestId('photo-at-mark');
      expect(Number(await mark.getAttribute('data-u'))).toBeCloseTo(pixel.u, 0);
      expect(Math.abs(Number(await mark.getAttribute('data-u')) - pixel.u)).toBeLessThan(0.5);
      expect(Math.abs(Number(await mark.getAttribute('data-v')) - pixel.v)).toBeLessThan(0.5);
      const rgb = await photoPixel(item, pixel);
      const { dx, dy } = await markOffset(item, pixel);
      report.push(
        `${name}: u ${pixel.u.toFixed(1)} v ${pixel.v.toFixed(1)}, mark off by (${dx.toFixed(2)}, ${dy.toFixed(2)}) px, photo there rgb(${rgb.join(',')})`,
      );
      expect(Math.abs(dx)).toBeLessThanOrEqual(MARK_TOLERANCE_PX);
      expect(Math.abs(dy)).toBeLessThanOrEqual(MARK_TOLERANCE_PX);
      expect(rgb.reduce((sum, c, j) => sum + Math.abs(c - faceRgb[j]!), 0)).toBeLessThan(30);
    }
    console.info(`[e2e inspect-photos] ${SCENE_CAMERA_COUNT} cameras, listed ${listed.join(', ')}:\n  ${report.join('\n  ')}`);
    expect(await axeViolations(page, 'viewer photos of a point')).toEqual([]);

    // The best photo large, with its mark; then the view flies to that camera's pose.
    const first = items.first();
    const best = cameras.findIndex((c) => c.img_name === listed[0]);
    await first.getByRole('button').click();
    const open = panel.getByTestId('photo-at-open');
    await open.waitFor();
    const bestPixel = drawnPixel(best, point)!;
    await photoPixel(open, bestPixel);
    const large = await markOffset(open, bestPixel);
    expect(Math.abs(large.dx)).toBeLessThanOrEqual(MARK_TOLERANCE_PX);
    expect(Math.abs(large.dy)).toBeLessThanOrEqual(MARK_TOLERANCE_PX);
    expect(await axeViolations(page, 'viewer photo of a point, large')).toEqual([]);
    await page.screenshot({ path: join(INSPECT_SHOTS, 'photos-at.png') });
    await open.getByRole('button', { name: 'View from this camera' }).click();
    const position = cameras[best]!.position;
    await expect
      .poll(
        async () => {
          const state = (await viewport.getAttribute('data-camera')) ?? '';
          const flying = await viewport.getAttribute('data-flight');
          const [x, y, z] = state.split('|')[0]!.split(',').map(Number);
          return flying === 'off' && Math.hypot(x! - position[0], y! - position[1], z! - position[2]) < 0.01;
        },
        { timeout: 30_000, message: `the view does not reach ${scenePhotoName(best)}'s pose` },
      )
      .toBe(true);
    await page.context().close();
  });
});
