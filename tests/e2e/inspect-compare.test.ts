/**
 * Findings across captures in compare mode, headless Chromium with
 * software WebGL against a real `catalog serve` with the demo accounts. Two captures of one
 * project are the same generated GLB (the 2×1×1 inspection box, tests/support/inspection-scene.ts),
 * so their frames agree; the reference has a finding written through the service backend.
 * - An admin opens compare, the 'Findings' panel says 'These captures are not aligned'; 'Align
 *   with 3 points' takes 3 picks in the model's viewport and 3 in the reference's (clicks at the
 *   same places of the linked views), shows the RMS error and saves an alignment whose matrix maps
 *   each picked model point onto its reference point (and, the captures being one file, is close
 *   to the identity); 'Remove alignment' removes it; 'Same frame' saves the identity; 'Carry over'
 *   creates the follow-up on the model (followUpOf, same point, status open), exactly one, and the
 *   model's annotationsCount equals the number stored; 'Follow-up of F-1' selects the original.
 * - A user sees the aligned pair, no align or remove button, and carries a second finding over.
 * The carried markers are found by their colour in the model's canvas. axe is clean in the
 * unaligned, aligning and aligned states. Screenshots looked at: test-results/inspect/compare-carried.png
 * (one finding carried over, one still to carry), compare-carried-admin.png, compare-align-3-points.png.
 */
import type { Locator, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { applyAlignment } from '@shared/alignment.js';
import { alignmentId } from '@shared/annotations.js';
import type { Alignment, Annotation, Model, ModelPoint } from '@shared/types.js';
import { createAnnotation } from '@shared/workflows/annotations.js';
import { axeViolations } from '../support/axe.js';
import { browserSkipReason, screenshotOnFailure, viewerSettled } from '../support/browser.js';
import { DEMO_ADMIN, DEMO_USER, INSPECT_SHOTS, startInspectionScene, type InspectionScene } from '../support/inspection-fixture.js';
import type { EmbeddedServer } from '../support/server.js';

const skipReason = browserSkipReason();
if (skipReason) console.info(`[e2e inspect-compare] skipping: ${skipReason}`);

const RENDER_TIMEOUT_MS = 60_000;
/** Where the 3 alignment points are clicked, as fractions of a canvas (on the box, not on one line). */
const PICKS: Array<[number, number]> = [
  [0.42, 0.45],
  [0.58, 0.45],
  [0.5, 0.6],
];

describe.skipIf(skipReason !== null)('findings across captures in compare mode (software WebGL)', () => {
  let scene: InspectionScene | undefined;
  let seeded: EmbeddedServer;
  let reference: Model;
  let later: Model;
  let current: Page | null = null;
  beforeEach(screenshotOnFailure('inspect-compare-failure', () => current));

  beforeAll(async () => {
    scene = await startInspectionScene({
      prefix: 'inspect-compare',
      project: { name: 'Inspection Box Captures', structureId: 'BOX-CMP' },
      models: [
        { publicId: 'BOX-2024', name: 'Box 2024-06-01', files: 'glb', captureDate: '2024-06-01' },
        { publicId: 'BOX-2025', name: 'Box 2025-06-01', files: 'glb', captureDate: '2025-06-01' },
      ],
    });
    seeded = scene.server;
    [reference, later] = scene.models as [Model, Model];
    // The reference's finding, on the box's front face (z = 0.5).
    await createAnnotation(
      seeded.service.catalog,
      reference.id,
      { title: 'Crack in the front face', category: 'crack', severity: 3, points: [{ x: 0.2, y: 0.6, z: 0.5 }] },
      { uid: 'cli', email: null },
    );
  }, 120_000);

  afterAll(async () => {
    await scene?.stop();
    expect(scene?.pageErrors ?? []).toEqual([]);
  });

  /** Signs in as `who`, opens the compare view of the pair and its 'Findings' panel. */
  async function openCompare(who: readonly [string, string]): Promise<{ page: Page; panel: Locator }> {
    const page = await scene!.signedInPage(who, { width: 1400, height: 860 }, (opened) => (current = opened));
    await page.goto(`${seeded.url}/viewer?compareMode=true&id=BOX-2025&referenceId=BOX-2024`);
    expect(await viewerSettled(page, RENDER_TIMEOUT_MS)).toEqual(['ready', 'ready']);
    const toggle = page.getByRole('button', { name: 'Findings', exact: true });
    await toggle.click();
    expect(await toggle.getAttribute('aria-pressed')).toBe('true');
    const panel = page.getByTestId('compare-findings');
    await panel.getByTestId('compare-reference-finding').first().waitFor();
    return { page, panel };
  }

  /** Clicks a compare viewport's canvas at (fx, fy) of its size and waits for the pick; returns the picked model point. */
  async function pick(page: Page, side: 'model' | 'reference', fx: number, fy: number): Promise<ModelPoint> {
    const viewport = page.locator(side === 'model' ? '.compare-model' : '.compare-reference');
    const before = await viewport.getAttribute('data-picked');
    const box = (await viewport.locator('canvas').boundingBox())!;
    await page.mouse.click(box.x + box.width * fx, box.y + box.height * fy);
    await expect.poll(() => viewport.getAttribute('data-picked')).not.toBe(before);
    return JSON.parse((await viewport.getAttribute('data-picked'))!) as ModelPoint;
  }

  /**
   * How many pixels of a compare viewport's canvas have the colour of a carried marker (lime,
   * lib/markers.ts MARKER_COLOURS.carried #a3e635; the box's faces are far from it).
   */
  async function carriedPixels(page: Page, side: 'model' | 'reference'): Promise<number> {
    const png = await page.locator(side === 'model' ? '.compare-model canvas' : '.compare-reference canvas').screenshot();
    const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
    let count = 0;
    for (let i = 0; i < data.length; i += info.channels) {
      if (Math.abs(data[i]! - 0xa3) < 40 && Math.abs(data[i + 1]! - 0xe6) < 40 && Math.abs(data[i + 2]! - 0x35) < 50) count += 1;
    }
    return count;
  }

  const storedAlignment = async () =>
    (await seeded.service.catalog.get('alignments', alignmentId(reference.id, later.id))) as Alignment | null;
  const followUps = async () =>
    (await seeded.service.catalog.query('annotations', { where: [['modelId', '==', later.id]] })) as Annotation[];

  it('an admin aligns with 3 points, removes it, declares the same frame and carries the finding over', { timeout: 150_000 }, async () => {
    const { page, panel } = await openCompare(DEMO_ADMIN);
    await panel.getByTestId('compare-unaligned').waitFor();
    expect(await panel.getByTestId('compare-unaligned').textContent()).toContain('These captures are not aligned.');
    expect(await panel.getByRole('button', { name: 'Carry over finding F-1 to Box 2025-06-01' }).count()).toBe(0);
    expect(await axeViolations(page, 'compare findings, not aligned')).toEqual([]);

    // 3-point alignment: 3 picks on the model, the same 3 on the reference.
    await panel.getByRole('button', { name: 'Align with 3 points' }).click();
    await panel.getByTestId('compare-align').waitFor();
    expect(await panel.getByTestId('align-count-model').textContent()).toBe('Model: 0 of 3 points');
    const modelPoints: ModelPoint[] = [];
    for (const [fx, fy] of PICKS) modelPoints.push(await pick(page, 'model', fx, fy));
    await expect.poll(() => panel.getByTestId('align-count-model').textContent()).toBe('Model: 3 of 3 points');
    // A fourth click on the model is not taken: its pick mode is over.
    const referencePoints: ModelPoint[] = [];
    for (const [fx, fy] of PICKS) referencePoints.push(await pick(page, 'reference', fx, fy));
    await expect.poll(() => panel.getByTestId('align-count-reference').textContent()).toBe('Reference model: 3 of 3 points');
    await expect.poll(() => panel.getByTestId('align-result').textContent()).toMatch(/^RMS error: [0-9.e+-]+ reference units$/);
    expect(await axeViolations(page, 'compare findings, aligning with 3 points')).toEqual([]);
    await page.screenshot({ path: `${INSPECT_SHOTS}/compare-align-3-points.png` });
    await panel.getByRole('button', { name: 'Save alignment' }).click();
    await panel.getByTestId('compare-aligned').waitFor();
    const threePoint = await storedAlignment();
    expect(threePoint?.method).toBe('3-point');
    expect(threePoint?.pairs).toEqual(modelPoints.map((model, i) => ({ model, reference: referencePoints[i] })));
    // The matrix maps each picked model point onto its reference point (one file: the same points, about the identity).
    for (const { model, reference: target } of threePoint!.pairs) {
      const mapped = applyAlignment(threePoint!.matrix, model);
      expect(Math.hypot(mapped.x - target.x, mapped.y - target.y, mapped.z - target.z)).toBeLessThan(1e-3);
    }
    expect(threePoint!.rmsError).toBeLessThan(1e-3);
    const identity = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];
    expect(Math.max(...threePoint!.matrix.map((v, i) => Math.abs(v - identity[i]!)))).toBeLessThan(1e-2);
    expect(await panel.getByTestId('compare-aligned').textContent()).toContain('Aligned with 3 points (RMS error');

    // Remove it; then declare the same frame.
    await panel.getByRole('button', { name: 'Remove alignment' }).click();
    await panel.getByTestId('compare-unaligned').waitFor();
    expect(await storedAlignment()).toBeNull();
    await panel.getByRole('button', { name: 'Same frame' }).click();
    await panel.getByTestId('compare-aligned').waitFor();
    const same = await storedAlignment();
    expect(same?.method).toBe('same-frame');
    expect(same?.matrix).toEqual(identity);
    expect(await panel.getByTestId('compare-aligned').textContent()).toContain('Aligned: both captures are in one frame.');
    // The reference's finding is drawn on the model where the alignment puts it (a carried marker), not on the reference.
    await expect.poll(() => carriedPixels(page, 'model'), { timeout: 10_000 }).toBeGreaterThan(20);
    expect(await carriedPixels(page, 'reference')).toBe(0);

    // Carry the finding over.
    await panel.getByRole('button', { name: 'Carry over finding F-1 to Box 2025-06-01' }).click();
    await panel.getByTestId('carried-over').waitFor();
    expect(await panel.getByTestId('carried-over').textContent()).toBe('Carried over as F-1');
    await panel.getByRole('status').filter({ hasText: 'Finding F-1 carried over to Box 2025-06-01 as F-1.' }).waitFor();
    const stored = await followUps();
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({
      id: `${later.id}_1`,
      title: 'Crack in the front face',
      status: 'open',
      category: 'crack',
      severity: 3,
      points: [{ x: 0.2, y: 0.6, z: 0.5 }],
      note: 'Follow-up of F-1 (Jun 1, 2024)',
      followUpOf: { annotationId: `${reference.id}_1`, modelId: reference.id },
    });
    expect((await seeded.service.catalog.get('models', later.id))?.metadata?.annotationsCount).toBe(stored.length);
    const own = panel.getByTestId('compare-model-finding');
    await own.first().waitFor();
    expect(await own.count()).toBe(1);
    expect(await own.textContent()).toContain('Crack in the front face');
    expect(await axeViolations(page, 'compare findings, carried over')).toEqual([]);
    // Carried over: the follow-up is the model's own finding now, the carried marker goes.
    await expect.poll(() => carriedPixels(page, 'model'), { timeout: 10_000 }).toBe(0);
    await page.screenshot({ path: `${INSPECT_SHOTS}/compare-carried-admin.png` });

    // The follow-up's link selects the original in the reference's list.
    await own.getByRole('button', { name: /^Follow-up of F-1 on Box 2024-06-01/ }).click();
    const original = panel.getByTestId('compare-reference-finding').first().getByRole('button', { name: /F-1/ }).first();
    await expect.poll(() => original.getAttribute('aria-pressed')).toBe('true');
    // The swipe view keeps the panel.
    await page.getByRole('button', { name: 'Swipe', exact: true }).click();
    expect(await panel.getByTestId('carried-over').count()).toBe(1);
    expect(await axeViolations(page, 'compare findings, swipe view')).toEqual([]);
    await page.context().close();
  });

  it('a user sees the alignment but cannot align or remove it, and carries a second finding over', { timeout: 90_000 }, async () => {
    await createAnnotation(
      seeded.service.catalog,
      reference.id,
      { title: 'Rust stain', category: 'corrosion', severity: 2, points: [{ x: 0.5, y: 0.3, z: 0.5 }] },
      { uid: 'cli', email: null },
    );
    const { page, panel } = await openCompare(DEMO_USER);
    await panel.getByTestId('compare-aligned').waitFor();
    expect(await panel.getByRole('button', { name: 'Remove alignment' }).count()).toBe(0);
    expect(await panel.getByRole('button', { name: 'Same frame' }).count()).toBe(0);
    expect(await panel.getByRole('button', { name: 'Align with 3 points' }).count()).toBe(0);
    await expect.poll(() => panel.getByTestId('compare-reference-finding').count()).toBe(2);
    expect(await panel.getByTestId('carried-over').count()).toBe(1);
    // F-1 carried over (the model's own amber marker), F-2 not yet (a lime marker on the model).
    await expect.poll(() => carriedPixels(page, 'model'), { timeout: 10_000 }).toBeGreaterThan(20);
    await page.screenshot({ path: `${INSPECT_SHOTS}/compare-carried.png` });
    await panel.getByRole('button', { name: 'Carry over finding F-2 to Box 2025-06-01' }).click();
    await expect.poll(() => panel.getByTestId('carried-over').count()).toBe(2);
    const stored = await followUps();
    expect(stored).toHaveLength(2);
    const second = stored.find((a) => a.followUpOf?.annotationId === `${reference.id}_2`);
    expect(second).toMatchObject({ id: `${later.id}_2`, title: 'Rust stain', author_email: DEMO_USER[0], status: 'open' });
    expect((await seeded.service.catalog.get('models', later.id))?.metadata?.annotationsCount).toBe(2);
    expect(await axeViolations(page, 'compare findings, user')).toEqual([]);
    // At phone width the panel goes below the stage.
    await page.setViewportSize({ width: 390, height: 844 });
    const stage = (await page.getByTestId('compare-stage').boundingBox())!;
    const below = (await panel.boundingBox())!;
    expect(below.y).toBeGreaterThanOrEqual(stage.y + stage.height - 1);
    expect(below.width).toBeLessThanOrEqual(390);
    expect(await axeViolations(page, 'compare findings, user, 390 px')).toEqual([]);
    await page.screenshot({ path: `${INSPECT_SHOTS}/compare-findings-phone.png` });
    await page.context().close();
  });
});
