// The findings report route: /projects/:projectId/findings on the in-memory
// backend: the rows of the models a user can open (a hidden model's findings withheld), their
// order and columns, the viewer links, the filters, Export CSV (its content and file name), the
// change region a finding was made from, Print, the empty state, the page title, and the 'Findings report' link on project detail.
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryBackendAs } from '@shared/adapters/memory/index.js';
import { findingModelFacts, findingRows, findingsCsv } from '@shared/annotations.js';
import type { Annotation, Model } from '@shared/types.js';
import { createAnnotation, listProjectAnnotations } from '@shared/workflows/index.js';
import { createTestBackend, MemoryApp, type TestBackend } from '../../../components/testing/memory-app.js';
import { makeModel, makeProject } from '../../../components/testing/fixtures.js';
import { FindingsReport } from '../../../features/findings/components/findings-report.js';
import { findingsFileName } from '../../../features/findings/lib/download.js';
import { success } from '../../../lib/resource.js';
import FindingsRoute from './findings.js';
import ProjectRoute from './project.js';

afterEach(cleanup);

const project = makeProject({ name: 'Harbour Crane', structure_id: 'HBC-001', slug: 'harbour-crane' });
const models: Model[] = [
  makeModel('m24', { publicId: 'HBC-2024', name: '2024 survey', projectId: 'p1', metadata: { captureDate: '2024-05-01' } }),
  makeModel('m25', {
    publicId: 'HBC-2025',
    name: '2025 survey',
    projectId: 'p1',
    metadata: { captureDate: '2025-06-01', unitsPerMetre: 2 },
  }),
  makeModel('mh', { publicId: 'HBC-HID', name: 'Hidden survey', projectId: 'p1', visible: false, metadata: {} }),
];
const p = (x: number, y: number, z: number) => ({ x, y, z });
const author = { uid: 'admin-uid', email: 'admin@demo.lab' };

/** A user's test backend with four findings written by an admin (one on the hidden model). */
async function seeded(role: 'user' | 'admin' = 'user') {
  const test = createTestBackend(role, { projects: [project], models });
  const admin = createMemoryBackendAs('admin', { store: test.store, uid: 'writer-uid' });
  await createAnnotation(admin.catalog, 'm25', { title: 'Rust, heavy', category: 'corrosion', severity: 2, points: [p(0, 0, 0)] }, author);
  await createAnnotation(
    admin.catalog,
    'm25',
    { title: 'Crack at weld', category: 'crack', severity: 5, status: 'monitoring', points: [p(0, 0, 0), p(3, 4, 0)] },
    author,
  );
  await createAnnotation(
    admin.catalog,
    'm24',
    { title: 'Spalling at base', category: 'spalling', severity: 3, points: [p(1, 1, 1)] },
    author,
  );
  await createAnnotation(admin.catalog, 'mh', { title: 'Secret', category: 'other', severity: 4, points: [p(1, 1, 1)] }, author);
  return test;
}

function renderRoute(backend: Parameters<typeof MemoryApp>[0]['backend'], path = '/projects/p1/findings') {
  render(
    <MemoryApp backend={backend} path={path} pattern="/projects/:projectId/findings">
      <FindingsRoute />
    </MemoryApp>,
  );
}

const cellsOf = (row: HTMLElement) => [...row.querySelectorAll('th, td')].map((c) => c.textContent);

describe('Findings report route', () => {
  it("lists the findings of the user's models in report order with the report columns, titled 'Findings · {project}'", async () => {
    const test = await seeded('user');
    renderRoute(test.backend);
    const table = await screen.findByTestId('findings-table');
    expect(document.title).toMatch(/^Findings · Harbour Crane · /);
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Findings report');
    expect([...table.querySelectorAll('thead th')].map((th) => th.textContent)).toEqual([
      'Finding',
      'Model',
      'Capture Date',
      'Title',
      'Category',
      'Severity',
      'Status',
      'Measurement',
    ]);
    const rows = within(table).getAllByTestId('finding-row');
    expect(rows.map(cellsOf)).toEqual([
      ['F-1', '2024 surveyHBC-2024', 'May 1, 2024', 'Spalling at base', 'Spalling', '3 · Moderate', 'Open', '—'],
      ['F-2', '2025 surveyHBC-2025', 'Jun 1, 2025', 'Crack at weld', 'Crack', '5 · Critical', 'Monitoring', 'Distance: 5 units (2.5 m)'],
      ['F-1', '2025 surveyHBC-2025', 'Jun 1, 2025', 'Rust, heavy', 'Corrosion', '2 · Low', 'Open', '—'],
    ]);
    // the hidden model's finding is not shown to a user
    expect(screen.queryByText('Secret')).toBeNull();
    expect(screen.getByRole('heading', { name: 'Findings (3)' })).toBeTruthy();
    // each finding links to the viewer at its model
    const link = within(rows[1]!).getByRole('link', { name: 'F-2, 2025 survey: open in the viewer' });
    expect(link.getAttribute('href')).toBe('https://viewer.test/?id=HBC-2025&finding=2');
    expect(screen.getByRole('link', { name: 'Harbour Crane' }).getAttribute('href')).toBe('/projects/p1');
  });

  it('an admin sees the hidden model’s finding too', async () => {
    const test = await seeded('admin');
    renderRoute(test.backend);
    await screen.findByTestId('findings-table');
    expect(screen.getAllByTestId('finding-row')).toHaveLength(4);
    expect(screen.getByText('Secret')).toBeTruthy();
  });

  it('filters by category, status and minimum severity', async () => {
    const test = await seeded('user');
    renderRoute(test.backend);
    await screen.findByTestId('findings-table');
    const titles = () => screen.queryAllByTestId('finding-row').map((r) => r.querySelector('.findings-title')?.textContent);
    const choose = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });
    expect(screen.getByText('Showing 3 findings').getAttribute('role')).toBe('status');
    choose('Minimum severity', '3');
    expect(titles()).toEqual(['Spalling at base', 'Crack at weld']);
    expect(screen.getByText('Showing 2 of 3 findings')).toBeTruthy();
    choose('Status', 'monitoring');
    expect(titles()).toEqual(['Crack at weld']);
    choose('Category', 'corrosion');
    expect(titles()).toEqual([]);
    expect(screen.getByText('No findings match these filters.')).toBeTruthy();
    choose('Minimum severity', '1');
    choose('Status', '');
    expect(titles()).toEqual(['Rust, heavy']);
  });

  it('shows new findings as they are created (the live models carry the count)', async () => {
    const test = await seeded('user');
    renderRoute(test.backend);
    await screen.findByTestId('findings-table');
    const admin = createMemoryBackendAs('admin', { store: test.store, uid: 'writer-uid' });
    await act(async () => {
      await createAnnotation(admin.catalog, 'm24', { title: 'New crack', category: 'crack', severity: 1, points: [p(0, 1, 0)] }, author);
    });
    await waitFor(() => expect(screen.getAllByTestId('finding-row')).toHaveLength(4));
    expect(screen.getByText('New crack')).toBeTruthy();
  });

  it("shows 'No findings yet' for a project without findings", async () => {
    const test = createTestBackend('user', { projects: [project], models });
    renderRoute(test.backend);
    expect(await screen.findByRole('heading', { name: 'No findings yet' })).toBeTruthy();
    expect(screen.queryByTestId('findings-table')).toBeNull();
  });

  it('project detail links to the report', async () => {
    const test = createTestBackend('user', { projects: [project], models });
    render(
      <MemoryApp backend={test.backend} path="/projects/p1" pattern="/projects/:projectId">
        <ProjectRoute />
      </MemoryApp>,
    );
    expect((await screen.findByRole('link', { name: 'Findings report' })).getAttribute('href')).toBe('/projects/p1/findings');
  });
});

/**
 * The report of the findings on `shown` (read from `test`'s backend), without a viewer URL yet.
 * @returns the findings, and what Export CSV downloaded ([file name, text, type] each) and Print printed
 */
async function showReport(test: TestBackend, shown: Model[]) {
  const findings: Annotation[] = await listProjectAnnotations(
    test.backend.catalog,
    shown.map((m) => m.id),
  );
  const downloads: Array<[string, string, string]> = [];
  const prints = { count: 0 };
  render(
    <MemoryApp backend={test.backend} path="/r" pattern="/r">
      <FindingsReport
        project={project}
        models={shown}
        findings={success(findings)}
        viewerUrl={null}
        download={(name, text, type) => downloads.push([name, text, type])}
        print={() => (prints.count += 1)}
      />
    </MemoryApp>,
  );
  return { findings, downloads, prints };
}

describe('FindingsReport: Export CSV and Print', () => {
  it('exports the rows shown as {structure_id}-findings.csv and prints through window.print', async () => {
    const test = await seeded('user');
    const visible = models.filter((m) => m.visible !== false);
    const { findings, downloads, prints } = await showReport(test, visible);
    // no viewer URL yet: the number is plain text
    expect(screen.queryByRole('link', { name: /open in the viewer/ })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Export CSV' }));
    expect(downloads).toEqual([
      ['HBC-001-findings.csv', findingsCsv(findingRows(findings, findingModelFacts(visible))), 'text/csv;charset=utf-8'],
    ]);
    expect(downloads[0]![1].split('\r\n')).toHaveLength(5); // header, 3 rows, final CRLF
    fireEvent.change(screen.getByLabelText('Category'), { target: { value: 'crack' } });
    fireEvent.click(screen.getByRole('button', { name: 'Export CSV' }));
    expect(
      downloads[1]![1]
        .split('\r\n')
        .slice(1, -1)
        .map((line) => line.split(',')[4]),
    ).toEqual(['Crack at weld']);
    fireEvent.click(screen.getByRole('button', { name: 'Print' }));
    expect(prints.count).toBe(1);
  });

  it('names the change region a finding was made from, in the table and as the last column of the CSV', async () => {
    const test = await seeded('admin');
    const admin = createMemoryBackendAs('admin', { store: test.store, uid: 'writer-uid' });
    await createAnnotation(
      admin.catalog,
      'm25',
      { title: 'Change region 2: added or moved', category: 'other', severity: 3, points: [p(1, 2, 3)] },
      author,
      { changeRegion: { referenceModelId: 'm24', regionId: 2, maxDistance: 0.62 } },
    );
    const { downloads } = await showReport(test, models);
    const row = screen.getAllByTestId('finding-row').find((r) => r.textContent?.includes('Change region 2: added or moved'))!;
    // the 2025 survey has 2 units a metre: 0.62 units is 0.31 m
    expect(cellsOf(row).at(-1)).toBe('Change region 2 against 2024 survey: max +0.31 m');
    // a finding without one keeps its measurement, or '—'
    expect(cellsOf(screen.getAllByTestId('finding-row').find((r) => r.textContent?.includes('Crack at weld'))!).at(-1)).toBe(
      'Distance: 5 units (2.5 m)',
    );
    fireEvent.click(screen.getByRole('button', { name: 'Export CSV' }));
    const lines = downloads[0]![1].split('\r\n');
    expect(lines[0]!.endsWith(',ID,Change Region')).toBe(true);
    expect(
      lines.find((line) => line.includes('Change region 2: added or moved'))!.endsWith(',Change region 2 against 2024 survey: max +0.31 m'),
    ).toBe(true);
  });

  it('names the file by structure ID, else slug, else id, without characters a file name cannot hold', () => {
    expect(findingsFileName({ id: 'x', structure_id: 'TWR-001' })).toBe('TWR-001-findings.csv');
    expect(findingsFileName({ id: 'x', structure_id: '', slug: 'north' })).toBe('north-findings.csv');
    expect(findingsFileName({ id: 'abc', structure_id: null })).toBe('abc-findings.csv');
    expect(findingsFileName({ id: 'x', structure_id: 'A/B: C' })).toBe('A-B-C-findings.csv');
  });
});
