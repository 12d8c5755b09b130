// Findings stored malformed (written straight into the in-memory store, as a backend may hold
// them from before its writes were checked: status null, points ["x"] and [{}], an object title,
// a prototype-key category, a string severity, a map created_at, junk up, photos [{…}]) never
// break a reader: the project's findings report lists every one with what it has, its 'Export
// CSV' writes them, and the viewer's findings panel lists them and draws the markers it can.
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { findingModelFacts, findingRows, findingsCsv } from '@shared/annotations.js';
import type { Annotation } from '@shared/types.js';
import { createTestBackend, MemoryApp } from '../../../components/testing/memory-app.js';
import { makeModel, makeProject } from '../../../components/testing/fixtures.js';
import { FindingsReport } from '../../../features/findings/components/findings-report.js';
import { FindingsSide, useFindingsInspection, type FindingsInspection } from '../../../features/viewer/components/findings-side.js';
import { success } from '../../../lib/resource.js';
import FindingsRoute from './findings.js';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const project = makeProject({ name: 'Harbour Crane', structure_id: 'HBC-001', slug: 'harbour-crane' });
const model = makeModel('m1', {
  publicId: 'HBC-2025',
  name: '2025 survey',
  projectId: 'p1',
  metadata: { captureDate: '2025-06-01', annotationsCount: 6, annotationsSeq: 6 },
});
const good = {
  modelId: 'm1',
  projectId: 'p1',
  kind: 'point',
  points: [{ x: 1, y: 2, z: 3 }],
  measure: null,
  up: null,
  note: '',
  category: 'crack',
  severity: 3,
  status: 'open',
  photos: [],
  author_uid: 'user-uid',
  author_email: 'user@demo.lab',
  created_at: '2025-07-01T10:00:00.000Z',
  followUpOf: null,
};
/** Six stored findings of m1 by id: one well-formed, five malformed. */
const stored: Record<string, Record<string, unknown>> = {
  m1_1: { ...good, seq: 1, title: 'Well formed' },
  m1_2: { ...good, seq: 2, title: 'Null status', status: null, severity: 5 },
  m1_3: { ...good, seq: 3, title: 'Bad points', points: ['x'], measure: 'distance', created_at: { seconds: 1 }, up: 'junk' },
  m1_4: { ...good, seq: 4, title: 'Empty point', points: [{}], photos: [{ img: 'a.jpg' }], followUpOf: 'm0_1' },
  m1_5: { ...good, seq: 5, title: { html: '<b>x</b>' }, category: 'constructor', severity: '4' },
  m1_6: { ...good, seq: 'six', title: 'Odd number', points: null, photos: 'a.jpg', category: null },
};

function seeded(role: 'user' | 'admin') {
  const test = createTestBackend(role, { projects: [project], models: [model] });
  for (const [id, data] of Object.entries(stored)) test.store.writeDocument('annotations', id, data);
  return test;
}

const storedFindings = (): Annotation[] => Object.entries(stored).map(([id, data]) => ({ ...data, id }) as unknown as Annotation);
const cellsOf = (row: HTMLElement) => [...row.querySelectorAll('th, td')].map((c) => c.textContent);

describe('the findings report with malformed stored findings', () => {
  it('lists every finding with what it has; any severity keeps the unknown ones', async () => {
    const test = seeded('user');
    render(
      <MemoryApp backend={test.backend} path="/projects/p1/findings" pattern="/projects/:projectId/findings">
        <FindingsRoute />
      </MemoryApp>,
    );
    const table = await screen.findByTestId('findings-table');
    expect(screen.getByRole('heading', { name: 'Findings (6)' })).toBeTruthy();
    expect(within(table).getAllByTestId('finding-row').map(cellsOf)).toEqual([
      ['F-2', '2025 surveyHBC-2025', 'Jun 1, 2025', 'Null status', 'Crack', '5 · Critical', '', '—'],
      ['F-1', '2025 surveyHBC-2025', 'Jun 1, 2025', 'Well formed', 'Crack', '3 · Moderate', 'Open', '—'],
      ['F-3', '2025 surveyHBC-2025', 'Jun 1, 2025', 'Bad points', 'Crack', '3 · Moderate', 'Open', '—'],
      ['F-4', '2025 surveyHBC-2025', 'Jun 1, 2025', 'Empty point', 'Crack', '3 · Moderate', 'Open', '—'],
      ['F-6', '2025 surveyHBC-2025', 'Jun 1, 2025', 'Odd number', '', '3 · Moderate', 'Open', '—'],
      ['F-5', '2025 surveyHBC-2025', 'Jun 1, 2025', '', 'constructor', '—', 'Open', '—'],
    ]);
    fireEvent.change(screen.getByLabelText('Minimum severity'), { target: { value: '4' } });
    expect(screen.getAllByTestId('finding-row').map((r) => r.getAttribute('data-finding-id'))).toEqual(['m1_2']);
  });

  it('Export CSV of malformed findings is the rows as findingsCsv writes them', () => {
    const downloads: string[] = [];
    render(
      <MemoryApp backend={createTestBackend('user').backend} path="/" pattern="/">
        <FindingsReport
          project={project}
          models={[model]}
          findings={success(storedFindings())}
          viewerUrl="https://viewer.test/"
          download={(_name, text) => downloads.push(text)}
        />
      </MemoryApp>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Export CSV' }));
    expect(downloads).toEqual([findingsCsv(findingRows(storedFindings(), findingModelFacts([model])))]);
    expect(downloads[0]!.split('\r\n')).toHaveLength(8); // header, 6 rows, final CRLF
  });
});

describe('the viewer with malformed stored findings', () => {
  let latest: FindingsInspection | null = null;
  function Viewer() {
    latest = useFindingsInspection(model);
    return latest.side ? <FindingsSide {...latest.side} /> : null;
  }

  it('the findings panel lists them, the markers keep only well-formed points, selecting one does not fail', async () => {
    vi.stubGlobal('CSS', { escape: (id: string) => id }); // jsdom has no CSS.escape (the panel scrolls to the selected finding)
    const test = seeded('admin');
    render(
      <MemoryApp backend={test.backend} path="/viewer" pattern="/viewer">
        <Viewer />
      </MemoryApp>,
    );
    await waitFor(() => expect(latest).not.toBeNull());
    act(() => latest!.toggle());
    await waitFor(() => expect(screen.getAllByTestId('finding-item')).toHaveLength(6));
    const items = screen.getAllByTestId('finding-item').map((li) => li.querySelector('.finding-main')?.textContent);
    expect(items).toEqual([
      'F-1 3 Well formedCrack · Severity 3 · Moderate · Open',
      'F-2 5 Null statusCrack · Severity 5 · Critical · —',
      'F-3 3 Bad pointsCrack · Severity 3 · Moderate · Open',
      'F-4 3 Empty pointCrack · Severity 3 · Moderate · Open',
      'F-5 — constructor · Severity — · Open',
      'F-6 3 Odd number— · Severity 3 · Moderate · Open',
    ]);
    expect(latest!.viewport.markers.map((m) => [m.id, m.points])).toEqual([
      ['m1_1', [{ x: 1, y: 2, z: 3 }]],
      ['m1_2', [{ x: 1, y: 2, z: 3 }]],
      ['m1_3', []],
      ['m1_4', []],
      ['m1_5', [{ x: 1, y: 2, z: 3 }]],
      ['m1_6', []],
    ]);
    fireEvent.click(screen.getAllByTestId('finding-item')[2]!.querySelector('button')!);
    await waitFor(() => expect(latest!.side?.selectedId).toBe('m1_3'));
    expect(latest!.viewport.flyTo).toBeNull();
  });
});
