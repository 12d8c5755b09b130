// Findings through the `catalog` command against a fresh embedded server: `findings list` and
// `findings export` of one model and of a whole project (table, JSON, CSV, --out), and
// `models set-scale` (a number, 'none', refused input, a model that does not exist), the scale
// showing in `models list` and in the findings' measurements.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AnnotationMessages, FINDINGS_CSV_COLUMNS, findingModelFacts, findingRows, findingsCsv } from '@shared/annotations.js';
import type { Backend } from '@shared/ports/index.js';
import type { Annotation, Model } from '@shared/types.js';
import { createAnnotation } from '@shared/workflows/index.js';
import { jsonCli, runCli } from '../support/cli.js';
import { gaussianPly } from '../support/model-fixtures.js';
import { tempDir } from '../support/paths.js';
import { startEmbeddedServer, type EmbeddedServer } from '../support/server.js';

let server: EmbeddedServer;
let backend: Backend;
let env: Record<string, string>;
const work = tempDir('annotations18');
let older: Model;
let newer: Model;
let other: Model;
const author = { uid: 'inspector-1', email: 'inspector@example.com' };

const { ok, fails } = jsonCli(() => env);

/** Uploads a model folder with a small 3DGS PLY to project `project`. */
async function upload(project: string, publicId: string, captureDate: string): Promise<Model> {
  const folder = join(work, publicId);
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, 'scan.ply'), gaussianPly(8));
  const { model } = await ok<{ model: Model }>([
    'models',
    'upload',
    folder,
    '--project',
    project,
    '--public-id',
    publicId,
    '--name',
    `Survey ${publicId}`,
    '--capture-date',
    captureDate,
  ]);
  return model;
}

beforeAll(async () => {
  server = await startEmbeddedServer({ prefix: 'annotations18' });
  ({ service: backend, env } = server);
  await ok(['projects', 'create', '--name', 'Harbour Crane', '--structure-id', 'HBC-001']);
  await ok(['projects', 'create', '--name', 'Other Mast', '--structure-id', 'OTH-001']);
  older = await upload('HBC-001', 'HBC-001-2024', '2024-05-01');
  newer = await upload('HBC-001', 'HBC-001-2025', '2025-06-01');
  other = await upload('OTH-001', 'OTH-001-2025', '2025-06-01');
  const p = (x: number, y: number, z: number) => ({ x, y, z });
  await createAnnotation(
    backend.catalog,
    newer.id,
    { title: 'Rust, heavy', category: 'corrosion', severity: 2, points: [p(0, 0, 0)] },
    author,
  );
  await createAnnotation(
    backend.catalog,
    newer.id,
    { title: '=cmd', note: 'said "bad"\nnext line', category: 'crack', severity: 5, points: [p(0, 0, 0), p(3, 4, 0)] },
    author,
  );
  await createAnnotation(
    backend.catalog,
    older.id,
    { title: 'Spalling at base', category: 'spalling', severity: 3, points: [p(1, 1, 1)] },
    author,
  );
  await createAnnotation(backend.catalog, other.id, { title: 'Elsewhere', category: 'other', severity: 1, points: [p(1, 1, 1)] }, author);
}, 120_000);

afterAll(async () => {
  await server?.stop();
  rmSync(work, { recursive: true, force: true });
});

describe('catalog findings list and export', () => {
  it('list MODEL --json gives the stored findings by number; the table shows the report columns', async () => {
    const listed = await ok<Annotation[]>(['findings', 'list', newer.id]);
    expect(listed.map((a) => [a.id, a.seq, a.title, a.author_uid])).toEqual([
      [`${newer.id}_1`, 1, 'Rust, heavy', 'inspector-1'],
      [`${newer.id}_2`, 2, '=cmd', 'inspector-1'],
    ]);
    // by Public ID within its project, the same findings
    expect((await ok<Annotation[]>(['findings', 'list', 'HBC-001-2025', '--project', 'HBC-001'])).map((a) => a.id)).toEqual(
      listed.map((a) => a.id),
    );
    // the command's other name, after the stored collection
    expect((await ok<Annotation[]>(['annotations', 'list', newer.id])).map((a) => a.id)).toEqual(listed.map((a) => a.id));
    const table = await runCli(['findings', 'list', 'HBC-001-2025', '--project', 'HBC-001'], { env });
    expect(table.exitCode, table.stderr).toBe(0);
    const lines = table.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^FINDING\s+MODEL\s+CAPTURED\s+TITLE\s+CATEGORY\s+SEVERITY\s+STATUS\s+MEASUREMENT\s+ID$/);
    // severity 5 first within the model
    expect(lines[1]).toMatch(/^F-2\s+HBC-001-2025\s+2025-06-01\s+=cmd\s+Crack\s+5\s+Open\s+Distance: 5 units\s+/);
    expect(lines[2]).toMatch(/^F-1\s+HBC-001-2025\s+2025-06-01\s+Rust, heavy\s+Corrosion\s+2\s+Open\s+-\s+/);
    expect(lines).toHaveLength(3);
    expect(table.stderr).toContain('2 findings (model HBC-001-2025)');
    // a model without findings
    const empty = await runCli(['findings', 'list', other.id, '--format', 'table'], { env });
    expect(empty.stdout).not.toContain('No findings'); // it has one
    await ok(['models', 'upload', join(work, 'OTH-001-2025'), '--project', 'OTH-001', '--public-id', 'OTH-001-2026', '--name', 'Empty']);
    const none = await runCli(['findings', 'list', 'OTH-001-2026', '--project', 'OTH-001'], { env });
    expect(none.stdout.trim()).toBe('No findings');
  });

  it('--project without a model lists every model of that project only, in report order', async () => {
    const res = await runCli(['findings', 'list', '--project', 'HBC-001', '--format', 'csv'], { env });
    expect(res.exitCode, res.stderr).toBe(0);
    const stored = [
      ...(await ok<Annotation[]>(['findings', 'list', older.id])),
      ...(await ok<Annotation[]>(['findings', 'list', newer.id])),
    ];
    const expected = findingsCsv(findingRows(stored, findingModelFacts([older, newer])));
    // execa drops the final line end (CRLF here) of stdout
    expect(`${res.stdout}\r\n`).toBe(expected);
    const rows = res.stdout.split('\r\n');
    expect(rows[0]).toBe(FINDINGS_CSV_COLUMNS.map(([, h]) => h).join(','));
    // oldest capture first, then severity: the 2024 finding, then F-2 (5), then F-1 (2)
    expect(rows[1]).toMatch(/^F-1,Survey HBC-001-2024,HBC-001-2024,2024-05-01,Spalling at base,Spalling,3,Open,/);
    expect(rows[2]).toMatch(/^F-2,Survey HBC-001-2025,HBC-001-2025,2025-06-01,'=cmd,Crack,5,Open,Distance: 5 units,/);
    expect(rows[2]).toContain(',"said ""bad""\nnext line",');
    expect(rows[3]).toMatch(/^F-1,Survey HBC-001-2025,HBC-001-2025,2025-06-01,"Rust, heavy",Corrosion,2,/);
    expect(res.stdout).not.toContain('Elsewhere');
    expect(res.stderr).toContain('3 findings (project HBC-001)');
  });

  it('export --format json|csv to stdout or --out FILE', async () => {
    const out = join(work, 'report.csv');
    const written = await ok<{ file: string; format: string; count: number }>([
      'annotations',
      'export',
      '--project',
      'HBC-001',
      '--format',
      'csv',
      '--out',
      out,
    ]);
    expect(written).toEqual({ file: out, format: 'csv', count: 3 });
    const csv = readFileSync(out, 'utf8');
    expect(csv).toBe(`${(await runCli(['findings', 'list', '--project', 'HBC-001', '--format', 'csv'], { env })).stdout}\r\n`);
    expect(csv.endsWith('\r\n')).toBe(true);

    const jsonFile = join(work, 'model.json');
    await ok(['findings', 'export', newer.id, '--format', 'json', '--out', jsonFile]);
    const exported = JSON.parse(readFileSync(jsonFile, 'utf8')) as Annotation[];
    expect(exported).toEqual(await ok<Annotation[]>(['findings', 'list', newer.id]));
    expect(exported[1]).toMatchObject({
      measure: 'distance',
      points: [
        { x: 0, y: 0, z: 0 },
        { x: 3, y: 4, z: 0 },
      ],
    });

    const stdout = await runCli(['findings', 'export', newer.id, '--format', 'json'], { env });
    expect(JSON.parse(stdout.stdout)).toEqual(exported);
  });

  it('refuses what it cannot do, clearly', async () => {
    expect(await fails(['findings', 'list', 'no-such-model'])).toMatchObject({
      code: 'not-found',
      message: 'Model no-such-model not found',
    });
    expect(await fails(['findings', 'list', '--project', 'NOPE-404'])).toMatchObject({
      code: 'not-found',
      message: 'Project not found',
    });
    expect((await fails(['findings', 'list'])).message).toBe('Name a model, or a project with --project');
    expect((await fails(['findings', 'list', newer.id, '--format', 'xml'])).message).toContain('--format');
    expect((await fails(['findings', 'export', newer.id])).message).toContain('--format');
    expect((await fails(['findings', 'export', newer.id, '--format', 'table'])).message).toContain('--format');
  });
});

describe('catalog models set-scale', () => {
  it('sets, shows (models list, measurements in metres) and clears the scale', async () => {
    expect(await ok(['models', 'set-scale', 'HBC-001-2025', '2', '--project', 'HBC-001'])).toEqual({ id: newer.id, unitsPerMetre: 2 });
    expect((await backend.catalog.get('models', newer.id))?.metadata?.unitsPerMetre).toBe(2);
    const list = await runCli(['models', 'list', '--project', 'HBC-001'], { env });
    expect(list.stdout.split('\n')[0]).toMatch(/CAPTURED\s+SCALE\s+PROJECT/);
    expect(list.stdout).toMatch(/HBC-001-2025\s.*2025-06-01\s+2\/m\s/);
    expect(list.stdout).toMatch(/HBC-001-2024\s.*2024-05-01\s+-\s/);
    const table = await runCli(['findings', 'list', newer.id], { env });
    expect(table.stdout).toContain('Distance: 5 units (2.5 m)');

    expect(await ok(['models', 'set-scale', newer.id, 'none'])).toEqual({ id: newer.id, unitsPerMetre: null });
    expect((await backend.catalog.get('models', newer.id))?.metadata?.unitsPerMetre).toBeNull();
    expect((await runCli(['findings', 'list', newer.id], { env })).stdout).not.toContain(' m)');
  });

  it('refuses a bad number and a missing model, writing nothing', async () => {
    await ok(['models', 'set-scale', newer.id, '1000']);
    for (const bad of ['0', '-1', 'abc', '', 'Infinity']) {
      const error = await fails(['models', 'set-scale', newer.id, bad]);
      expect(error).toEqual({ code: 'invalid-argument', message: AnnotationMessages.unitsPerMetreInvalid });
    }
    expect((await backend.catalog.get('models', newer.id))?.metadata?.unitsPerMetre).toBe(1000);
    expect(await fails(['models', 'set-scale', 'no-such-model', '2'])).toMatchObject({
      code: 'not-found',
      message: 'Model no-such-model not found',
    });
  });
});
