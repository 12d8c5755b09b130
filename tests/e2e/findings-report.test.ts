/**
 * The per-project findings report in headless Chromium against `catalog
 * serve` with the seeded demo catalog (whose demo models carry findings) plus findings written
 * through the service backend with the finding workflow (one on the hidden draft, one whose text
 * needs CSV quoting and formula escaping): a user opens it from project detail, sees the rows of
 * the models they can open in report order with viewer links, filters them, downloads the CSV
 * (content = findingsCsv of those rows, name {structure_id}-findings.csv) and prints (print media:
 * no shell chrome); an admin also sees the hidden model's finding; a project without findings
 * shows 'No findings yet'; the scale an admin sets in Model Management ('Units per metre') shows in
 * the report's measurements. axe is clean at 1400 and 390 px. Screenshots: test-results/inspect/report.png,
 * test-results/inspect/report-print.png, report-390.png, model-scale.png.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { findingModelFacts, findingRows, findingsCsv } from '@shared/annotations.js';
import type { Model, Project } from '@shared/types.js';
import { createAnnotation, listProjectAnnotations } from '@shared/workflows/index.js';
import { DEMO_ACCOUNTS } from '../../cli/src/lib/demo-data/index.js';
import { axeViolations } from '../support/axe.js';
import { RESULTS, browserSkipReason, launchChromium, offlineContext, screenshotOnFailure, submitSignIn } from '../support/browser.js';
import { portalDist } from '../support/paths.js';
import { startEmbeddedServer, type EmbeddedServer } from '../support/server.js';

/** Where this file's screenshots go (test-results/inspect/). */
const SHOTS = join(RESULTS, 'inspect');
const account = (role: 'user' | 'admin') => DEMO_ACCOUNTS.find((a) => a.role === role)!;
const skipReason = browserSkipReason();
if (skipReason !== null) console.warn(`[e2e] findings-report test skipped: ${skipReason}`);

describe.skipIf(skipReason !== null)('findings report: filter, export as CSV, print', () => {
  let seeded: EmbeddedServer;
  let browser: Browser;
  let tower: Project;
  let mast: Project;
  let towerModels: Model[];
  let current: Page | null = null;
  const pageErrors: string[] = [];
  beforeEach(screenshotOnFailure('findings-report-failure', () => current));

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    seeded = await startEmbeddedServer({ prefix: 'findings-report', portalDir: portalDist, seed: true });
    const { catalog } = seeded.service;
    const projects = (await catalog.query('projects')) as Project[];
    tower = projects.find((p) => p.structure_id === 'TWR-001')!;
    mast = projects.find((p) => p.structure_id === 'MST-003')!;
    towerModels = (await catalog.query('models', { where: [['projectId', '==', tower.id]] })) as Model[];
    const byPublicId = (id: string) => towerModels.find((m) => m.publicId === id)!;
    const author = { uid: 'cli', email: null };
    await createAnnotation(
      catalog,
      byPublicId('TWR-001-2024-05').id,
      {
        title: 'Weld crack, "north" face',
        note: '=HYPERLINK("x")\nsecond line',
        category: 'crack',
        severity: 5,
        points: [{ x: 3, y: -8, z: -3 }],
      },
      author,
    );
    await createAnnotation(
      catalog,
      byPublicId('TWR-001-DRAFT').id,
      { title: 'Floaters near the mast', category: 'other', severity: 2, points: [{ x: 0, y: -44, z: 0 }] },
      author,
    );
    towerModels = (await catalog.query('models', { where: [['projectId', '==', tower.id]] })) as Model[];
    browser = await launchChromium();
  }, 150_000);

  afterAll(async () => {
    await browser?.close().catch(() => undefined);
    await seeded?.stop();
  });

  async function signedIn(role: 'user' | 'admin'): Promise<{ context: BrowserContext; page: Page }> {
    const context = await offlineContext(browser);
    const page = await context.newPage();
    current = page;
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await submitSignIn(page, seeded.url, account(role).email, account(role).password);
    await page.waitForURL(`${seeded.url}/projects`);
    return { context, page };
  }

  it('a user opens the report from project detail, filters, exports the CSV and prints it; axe clean at 1400 and 390 px', async () => {
    const { context, page } = await signedIn('user');
    await page.goto(`${seeded.url}/projects/${tower.id}`);
    await page.getByRole('link', { name: 'Findings report' }).click();
    await page.waitForURL(`${seeded.url}/projects/${tower.id}/findings`);
    const table = page.getByTestId('findings-table');
    await table.waitFor();
    expect(await page.title()).toMatch(/^Findings · North Ridge Telecom Tower · /);

    // the rows: the visible models' findings (the demo's five and the crack), report order
    const visible = towerModels.filter((m) => m.visible !== false);
    const expected = findingRows(
      await listProjectAnnotations(
        seeded.service.catalog,
        visible.map((m) => m.id),
      ),
      findingModelFacts(visible),
    );
    expect(expected).toHaveLength(6);
    const rows = table.getByTestId('finding-row');
    expect(await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-finding-id')))).toEqual(expected.map((r) => r.id));
    expect(await page.getByText('Floaters near the mast').count()).toBe(0);
    const first = await rows.first().locator('th, td').allTextContents();
    expect(first).toEqual([
      'F-3',
      'North Ridge Tower, May 2024 surveyTWR-001-2024-05',
      'May 14, 2024',
      'Weld crack, "north" face',
      'Crack',
      '5 · Critical',
      'Open',
      '—',
    ]);
    expect(await rows.nth(2).locator('td').last().textContent()).toBe('Distance: 7 units (7 m)');
    // each finding links to the viewer at its model, opening that finding (finding={seq})
    const link = rows.first().getByRole('link', { name: 'F-3, North Ridge Tower, May 2024 survey: open in the viewer' });
    expect(await link.getAttribute('href')).toBe(`${seeded.url}/viewer/?id=TWR-001-2024-05&finding=3`);

    expect(await axeViolations(page, 'findings report 1400')).toEqual([]);
    await page.screenshot({ path: join(SHOTS, 'report.png'), fullPage: true });

    // Export CSV: the rows shown, as findingsCsv writes them, named by the structure ID
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
    expect(download.suggestedFilename()).toBe('TWR-001-findings.csv');
    const csv = readFileSync(await download.path(), 'utf8');
    expect(csv).toBe(findingsCsv(expected));
    expect(csv).toContain(`"'=HYPERLINK(""x"")\nsecond line"`);

    // Print: the browser's print, and a print stylesheet without the shell and the controls
    await page.evaluate(() => {
      (window as unknown as { printed: number }).printed = 0;
      window.print = () => void ((window as unknown as { printed: number }).printed += 1);
    });
    await page.getByRole('button', { name: 'Print' }).click();
    expect(await page.evaluate(() => (window as unknown as { printed: number }).printed)).toBe(1);
    await page.emulateMedia({ media: 'print' });
    for (const hidden of ['.top-bar', '.side-nav', '.findings-actions', '.findings-filters select', '.breadcrumb']) {
      expect(await page.locator(hidden).first().isVisible(), hidden).toBe(false);
    }
    expect(await table.isVisible()).toBe(true);
    expect(await page.locator('.shell-main').evaluate((el) => getComputedStyle(el).marginLeft)).toBe('0px');
    await page.screenshot({ path: join(SHOTS, 'report-print.png'), fullPage: true });
    await page.emulateMedia({ media: 'screen' });

    // filters: minimum severity 4 leaves the crack (5) and the 2025 corrosion (4)
    await page.getByLabel('Minimum severity').selectOption('4');
    expect(await rows.evaluateAll((trs) => trs.map((tr) => tr.querySelector('.findings-title')?.textContent))).toEqual([
      'Weld crack, "north" face',
      'Bolt corrosion at lower leg jointFollow-up',
    ]);
    await page.getByText('Showing 2 of 6 findings').waitFor();
    await page.getByLabel('Category').selectOption('corrosion');
    expect(await rows.count()).toBe(1);

    // phone width
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByLabel('Category').selectOption('');
    await page.waitForTimeout(200);
    expect(await axeViolations(page, 'findings report 390')).toEqual([]);
    await page.screenshot({ path: join(SHOTS, 'report-390.png'), fullPage: true });
    expect(pageErrors).toEqual([]);
    await context.close();
  }, 90_000);

  it("an admin also sees the hidden model's finding, sets a model's scale in Model Management; a project without findings shows 'No findings yet'", async () => {
    const { context, page } = await signedIn('admin');
    await page.goto(`${seeded.url}/projects/${tower.id}/findings`);
    await page.getByTestId('findings-table').waitFor();
    expect(await page.getByTestId('finding-row').count()).toBe(7);
    await page.getByText('Floaters near the mast').waitFor();

    // the scale set in Model Management shows in the report's measurements
    const older = towerModels.find((m) => m.publicId === 'TWR-001-2024-05')!;
    await page.goto(`${seeded.url}/admin/model-management?modelId=${older.id}`);
    await page.getByRole('button', { name: 'Edit Model' }).click();
    const scale = page.getByLabel('Units per metre');
    expect(await scale.inputValue()).toBe('1');
    await scale.fill('0');
    await page.getByRole('button', { name: 'Save' }).click();
    expect(await scale.getAttribute('aria-invalid')).toBe('true');
    await page.getByText('Units per metre must be a positive number').waitFor();
    await scale.fill('2');
    await page.screenshot({ path: join(SHOTS, 'model-scale.png') });
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Model information updated successfully.').waitFor();
    expect((await seeded.service.catalog.get('models', older.id))?.metadata?.unitsPerMetre).toBe(2);
    await page.goto(`${seeded.url}/projects/${tower.id}/findings`);
    await page.getByText('Distance: 7 units (3.5 m)').waitFor();
    await page.goto(`${seeded.url}/projects/${mast.id}/findings`);
    await page.getByRole('heading', { name: 'No findings yet' }).waitFor();
    expect(await page.getByTestId('findings-table').count()).toBe(0);
    expect(await axeViolations(page, 'findings report empty')).toEqual([]);
    expect(pageErrors).toEqual([]);
    await context.close();
  }, 60_000);
});
