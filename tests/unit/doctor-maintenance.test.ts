// Maintenance never races live work: the embedded server's storage scan and repair
// (cli/src/server/storage-scan.ts) leave alone what is being stored, what belongs to an upload in
// progress or resumable and what is younger than the grace period, and check each item again
// at the moment they remove it; `catalog doctor`'s repairs (cli/src/lib/doctor/repair.ts) leave alone
// folders of uploads in progress or resumable and check every item again at repair time. On a
// real SQLite file store in a temporary folder and on the in-memory backend.
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import type * as FsPromises from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createMemoryBackend, createMemoryStore } from '@shared/adapters/memory/index.js';
import type { Backend } from '@shared/ports/index.js';
import type { Annotation } from '@shared/types.js';
import { createAnnotation, deleteAnnotation } from '@shared/workflows/annotations.js';
import { openDatabase } from '../../cli/src/server/db.js';
import { FileStore } from '../../cli/src/server/file-store.js';
import type { StorageScanApi } from '../../cli/src/lib/catalog-io.js';
import { describeReport, diagnose, formatGrace, parseGrace, problemCount, repair } from '../../cli/src/lib/doctor.js';
import { tempDir } from '../support/paths.js';

// Moves into place (`rename`) and folder reads (`readdir`, once read) can be held back, to stop a
// store between its moves and its records, or a scan between reading a folder and reading the records.
const gates = vi.hoisted(() => ({
  rename: { suffix: null as string | null, opened: Promise.resolve() },
  readdir: { suffix: null as string | null, opened: Promise.resolve(), reached: (): void => undefined },
}));
vi.mock('node:fs/promises', async (importOriginal) => {
  const fs = await importOriginal<typeof FsPromises>();
  const rename: typeof fs.rename = async (from, to) => {
    if (gates.rename.suffix !== null && String(to).endsWith(gates.rename.suffix)) await gates.rename.opened;
    return fs.rename(from, to);
  };
  const readdir = (async (dir: string, options?: unknown) => {
    const entries = await (fs.readdir as (d: string, o?: unknown) => Promise<unknown>)(dir, options);
    if (gates.readdir.suffix !== null && String(dir).endsWith(gates.readdir.suffix)) {
      gates.readdir.reached();
      await gates.readdir.opened;
    }
    return entries;
  }) as typeof fs.readdir;
  return { ...fs, default: { ...fs, rename, readdir }, rename, readdir };
});

const work = tempDir('doctor-maintenance');
afterAll(() => rmSync(work, { recursive: true, force: true }));

const HOUR = 3_600_000;

describe('FileStore scan and repair (the embedded server)', () => {
  let store: FileStore;
  const disk = (path: string) => join(store.root, ...path.split('/'));
  /** A file on disk that no row describes, as a kill between a move and its row leaves it. */
  const untracked = (path: string) => {
    mkdirSync(join(disk(path), '..'), { recursive: true });
    writeFileSync(disk(path), 'stray');
  };
  beforeEach(() => {
    const dataDir = join(work, randomUUID());
    mkdirSync(dataDir, { recursive: true });
    store = new FileStore(openDatabase(join(dataDir, 'catalog.db')), dataDir);
  });

  it('an untracked file younger than the grace period is left alone as recent; older, or with grace 0, it is removed', async () => {
    const path = `models/${randomUUID()}/assets/stray.bin`;
    untracked(path);
    expect(await store.scan({ graceMs: HOUR })).toEqual({
      untracked: [],
      missing: [],
      leftAlone: [{ path, reason: 'recent' }],
      liveUploads: [],
      graceMs: HOUR,
    });
    expect(await store.repairScan({ graceMs: HOUR })).toEqual({ removedFiles: 0, removedRows: 0, leftAlone: [{ path, reason: 'recent' }] });
    expect(existsSync(disk(path))).toBe(true);
    expect((await store.scan({ graceMs: HOUR, now: Date.now() + 2 * HOUR })).untracked).toEqual([path]);
    expect(await store.repairScan({ graceMs: 0 })).toEqual({ removedFiles: 1, removedRows: 0, leftAlone: [] });
    expect(existsSync(disk(path))).toBe(false);
  });

  it('a path being stored is left alone (in flight) even with grace 0, and so is its folder; released, it goes', async () => {
    const uuid = randomUUID();
    const held = `models/${uuid}/images/a.jpg`;
    const beside = `models/${uuid}/assets/b.bin`;
    untracked(held);
    untracked(beside);
    const release = store.hold([held]);
    const scan = await store.scan({ graceMs: 0 });
    expect(scan.leftAlone).toEqual([
      { path: beside, reason: 'in-flight' },
      { path: held, reason: 'in-flight' },
    ]);
    expect(scan.liveUploads).toEqual([{ uuid, reason: 'in-flight' }]);
    expect((await store.repairScan({ graceMs: 0 })).removedFiles).toBe(0);
    expect(existsSync(disk(held)) && existsSync(disk(beside))).toBe(true);
    release();
    release(); // a second call changes nothing
    expect(await store.repairScan({ graceMs: 0 })).toMatchObject({ removedFiles: 2, leftAlone: [] });
  });

  it('a folder with a resumable upload keeps its untracked files, and is reported as a live upload', async () => {
    const uuid = randomUUID();
    const path = `models/${uuid}/assets/part.bin`;
    untracked(path);
    const scan = await store.scan({ graceMs: 0, uploads: [{ path: `models/${uuid}/model.ply`, reason: 'resumable' }] });
    expect(scan).toMatchObject({ untracked: [], leftAlone: [{ path, reason: 'resumable' }], liveUploads: [{ uuid, reason: 'resumable' }] });
  });

  it('a row without bytes is removed, unless its path is being stored', async () => {
    const path = `models/${randomUUID()}/assets/gone.bin`;
    await store.put(path, Buffer.from('bytes'), null);
    unlinkSync(disk(path));
    const release = store.hold([path]);
    expect(await store.repairScan({ graceMs: 0 })).toEqual({ removedFiles: 0, removedRows: 0, leftAlone: [{ path, reason: 'in-flight' }] });
    expect(store.list(join(path, '..').split('\\').join('/')).items).toHaveLength(1);
    release();
    expect((await store.scan({ graceMs: HOUR })).missing).toEqual([path]);
    expect(await store.repairScan({ graceMs: HOUR })).toEqual({ removedFiles: 0, removedRows: 1, leftAlone: [] });
  });

  it('a file stored after the scan read its folder, before it read the records, keeps its record', async () => {
    const uuid = randomUUID();
    const path = `models/${uuid}/assets/late.bin`;
    mkdirSync(join(disk(path), '..'), { recursive: true });
    // the repair reads the (empty) folder, then waits there while the file is stored with its record
    let open = (): void => undefined;
    const reached = new Promise<void>((resolve) => (gates.readdir.reached = resolve));
    gates.readdir.opened = new Promise<void>((resolve) => (open = resolve));
    gates.readdir.suffix = `${uuid}/assets`;
    const repairing = store.repairScan({ graceMs: 0 });
    await reached;
    gates.readdir.suffix = null;
    await store.put(path, Buffer.from('late'), null);
    open();
    // the scan sees a record whose bytes it did not list; the repair finds the bytes and keeps it
    expect(await repairing).toEqual({ removedFiles: 0, removedRows: 0, leftAlone: [] });
    expect(store.metadata(path).size).toBe(4);
    expect(existsSync(disk(path))).toBe(true);
  });

  it('a file moved into place whose record is not written yet survives a repair with grace 0', async () => {
    const uuid = randomUUID();
    const first = { path: `models/${uuid}/assets/a.bin`, body: Buffer.from('first'), contentType: null };
    const second = { path: `models/${uuid}/assets/b.bin`, body: Buffer.from('second'), contentType: null };
    // the second move waits, so the first file lies in place without its record (the rows come after all moves)
    let open = (): void => undefined;
    gates.rename.suffix = '/b.bin';
    gates.rename.opened = new Promise<void>((resolve) => (open = resolve));
    const storing = store.putMany([first, second]);
    while (!existsSync(disk(first.path))) await new Promise((resolve) => setImmediate(resolve));
    expect(() => store.metadata(first.path)).toThrow(/No file at/);
    const repaired = await store.repairScan({ graceMs: 0 });
    expect(repaired).toMatchObject({ removedFiles: 0, leftAlone: [{ path: first.path, reason: 'in-flight' }] });
    open();
    gates.rename.suffix = null;
    await storing;
    for (const entry of [first, second]) {
      expect(store.metadata(entry.path).size).toBe(entry.body.length);
      expect(existsSync(disk(entry.path))).toBe(true);
    }
    expect(await store.scan({ graceMs: 0 })).toMatchObject({ untracked: [], missing: [], leftAlone: [], liveUploads: [] });
  });
});

describe('doctor on the in-memory backend: left alone, and checked again at repair time', () => {
  const project = { id: 'p1', name: 'Tower', structure_id: 'TWR-001' };
  const fresh = async (): Promise<{ backend: Backend; uuid: string; path: string }> => {
    const backend = createMemoryBackend({ store: createMemoryStore({ documents: { projects: [project] } }), service: true });
    const uuid = randomUUID();
    const path = `models/${uuid}/assets/part.bin`;
    await backend.files.upload(path, new Blob(['part']));
    return { backend, uuid, path };
  };
  const stored = async (backend: Backend, uuid: string) => (await backend.files.list(`models/${uuid}/assets/`)).items.map((f) => f.path);
  const model = (uuid: string, extra: Record<string, unknown> = {}) => ({
    uuid,
    publicId: 'M-1',
    name: 'M',
    projectId: project.id,
    visible: true,
    files: {},
    ...extra,
  });

  it('files without a record younger than the grace period are left alone, not a problem; --fix keeps them', async () => {
    const { backend, uuid, path } = await fresh();
    const report = await diagnose(backend);
    expect(report.graceMs).toBe(24 * HOUR);
    expect(report.filesWithoutRecords).toEqual([]);
    expect(report.leftAlone).toEqual([{ uuid, files: [path], reason: 'recent' }]);
    expect(problemCount(report)).toBe(0);
    expect(describeReport(report)).toBe(
      `No problems found.\nleft alone (upload in progress or resumable): models/${uuid}/ holds 1 file(s) no model owns yet; younger than the grace period of 24 h (--grace changes it)`,
    );
    // 25 hours later they are files without a record
    const later = await diagnose(backend, undefined, { now: () => Date.now() + 25 * HOUR });
    expect(later.filesWithoutRecords).toEqual([{ uuid, files: [path] }]);
    // ... but a repair now finds them young again and keeps them
    const lines: string[] = [];
    expect(await repair(backend, later, undefined, { log: (line) => lines.push(line) })).toBe(0);
    expect(lines).toEqual([
      `left alone (upload in progress or resumable): models/${uuid}/; younger than the grace period of 24 h (--grace changes it)`,
    ]);
    expect(await stored(backend, uuid)).toEqual([path]);
    // with grace 0 they go
    const now = await diagnose(backend, undefined, { graceMs: 0 });
    expect(now.filesWithoutRecords).toEqual([{ uuid, files: [path] }]);
    expect(await repair(backend, now)).toBe(1);
    expect(await stored(backend, uuid)).toEqual([]);
  });

  it('a model record written after the diagnosis keeps its files (the upload finished)', async () => {
    const { backend, uuid, path } = await fresh();
    const report = await diagnose(backend, undefined, { graceMs: 0 });
    expect(report.filesWithoutRecords).toEqual([{ uuid, files: [path] }]);
    await backend.catalog.set('models', uuid, model(uuid, { files: { assets: [path] } }));
    expect(await repair(backend, report)).toBe(0);
    expect(await stored(backend, uuid)).toEqual([path]);
  });

  it("the embedded server's live uploads keep a folder even with grace 0, at diagnosis and at repair", async () => {
    const { backend, uuid, path } = await fresh();
    let reason: 'in-flight' | 'resumable' | null = 'in-flight';
    const scans: number[] = [];
    const scan: StorageScanApi = {
      scan: async (graceMs = 24 * HOUR) => {
        scans.push(graceMs);
        return { untracked: [], missing: [], leftAlone: [], liveUploads: reason ? [{ uuid, reason }] : [], graceMs };
      },
      repair: async () => ({ removedFiles: 0, removedRows: 0, leftAlone: [] }),
    };
    const report = await diagnose(backend, scan, { graceMs: 0 });
    expect(report.leftAlone).toEqual([{ uuid, files: [path], reason: 'in-flight' }]);
    expect(describeReport(report)).toContain(`models/${uuid}/ holds 1 file(s) no model owns yet; an upload to it runs now`);
    reason = null;
    const gone = await diagnose(backend, scan, { graceMs: 0 });
    expect(gone.filesWithoutRecords).toEqual([{ uuid, files: [path] }]);
    // the upload resumed between the diagnosis and the repair
    reason = 'resumable';
    const lines: string[] = [];
    expect(await repair(backend, gone, scan, { log: (line) => lines.push(line) })).toBe(0);
    expect(lines).toEqual([
      `left alone (upload in progress or resumable): models/${uuid}/; an unfinished upload to it can still be resumed`,
    ]);
    expect(await stored(backend, uuid)).toEqual([path]);
    expect(scans).toEqual([0, 0, 0]);
  });

  it('other repairs check again: a project back, a model back, a count already right are left as they are', async () => {
    const backend = createMemoryBackend({ store: createMemoryStore({ documents: { projects: [project] } }), service: true });
    const orphanModel = randomUUID();
    await backend.catalog.set('models', orphanModel, { ...model(orphanModel), projectId: 'p-gone' });
    const counted = randomUUID();
    await backend.catalog.set('models', counted, model(counted, { publicId: 'M-2' }));
    const author = { uid: 'cli', email: null };
    const crack = { title: 'Crack', category: 'crack', severity: 2, points: [{ x: 0, y: 0, z: 0 }] };
    // one finding stored while the model says 2; a copy of it whose model does not exist
    const first = await createAnnotation(backend.catalog, counted, crack, author);
    await backend.catalog.update('models', counted, { 'metadata.annotationsCount': 2, 'metadata.annotationsSeq': 2 });
    const { id: _id, ...data } = first;
    await backend.catalog.set('annotations', 'vanished_1', { ...data, modelId: 'vanished' });
    const report = await diagnose(backend);
    expect(report.modelsWithoutProject).toMatchObject([{ modelId: orphanModel, projectId: 'p-gone' }]);
    expect(report.findingCounts).toMatchObject([{ modelId: counted, count: 2, stored: 1 }]);
    expect(report.findingsWithoutModel).toEqual([{ id: 'vanished_1', modelId: 'vanished' }]);
    // since the diagnosis: the project is back, the second finding stored, the model written
    await backend.catalog.set('projects', 'p-gone', { name: 'Back', structure_id: 'BCK-001' });
    await backend.catalog.set('annotations', `${counted}_2`, { ...data, seq: 2 });
    await backend.catalog.set('models', 'vanished', model('vanished', { publicId: 'M-3' }));
    const lines: string[] = [];
    // only the backfill of the report the record lacks (no files: a report that says so)
    expect(await repair(backend, report, undefined, { log: (line) => lines.push(line) })).toBe(1);
    expect(lines).toEqual(['backfilled model M-2: report']);
    expect(await backend.catalog.get('models', orphanModel)).not.toBeNull();
    expect(await backend.catalog.get('annotations', 'vanished_1')).not.toBeNull();
    expect((await backend.catalog.get('models', counted))?.metadata).toMatchObject({ annotationsCount: 2, annotationsSeq: 2 });
  });
});

describe("doctor's finding-count repair", () => {
  it('counts a finding created and one deleted between its re-count and its write (one transaction)', async () => {
    const backend = createMemoryBackend({
      store: createMemoryStore({ documents: { projects: [{ id: 'p1', name: 'Tower', structure_id: 'TWR-001' }] } }),
      service: true,
    });
    const modelId = randomUUID();
    await backend.catalog.set('models', modelId, { uuid: modelId, publicId: 'M-1', name: 'M', projectId: 'p1', visible: true, files: {} });
    const author = { uid: 'cli', email: null };
    const crack = { title: 'Crack', category: 'crack', severity: 2, points: [{ x: 0, y: 0, z: 0 }] };
    const first: Annotation[] = [];
    for (let i = 0; i < 3; i += 1) first.push(await createAnnotation(backend.catalog, modelId, crack, author));
    // a count written by hand
    await backend.catalog.update('models', modelId, { 'metadata.annotationsCount': 9 });
    const report = await diagnose(backend);
    expect(report.findingCounts).toMatchObject([{ modelId, count: 9, stored: 3, seq: 3, highestSeq: 3 }]);
    // right after the repair lists the model's findings, a user adds one and an admin deletes one
    let raced = false;
    const catalog = new Proxy(backend.catalog, {
      get(target, prop, receiver) {
        if (prop !== 'query') return Reflect.get(target, prop, receiver) as unknown;
        return async (...args: Parameters<typeof target.query>) => {
          const listed = await target.query(...args);
          if (args[0] === 'annotations' && args[1]?.where && !raced) {
            raced = true;
            await createAnnotation(target, modelId, crack, author);
            await deleteAnnotation(target, first[0]!.id);
          }
          return listed;
        };
      },
    });
    await repair({ catalog, files: backend.files }, report);
    expect(raced).toBe(true);
    const stored = await backend.catalog.query('annotations', { where: [['modelId', '==', modelId]] });
    expect(stored.map((f) => f.seq).sort()).toEqual([2, 3, 4]);
    expect((await backend.catalog.get('models', modelId))?.metadata).toMatchObject({ annotationsCount: 3, annotationsSeq: 4 });
  });
});

describe('--grace', () => {
  it.each([
    ['0', 0],
    ['24h', 24 * HOUR],
    ['90m', 90 * 60_000],
    ['30 min', 30 * 60_000],
    ['1.5d', 36 * HOUR],
    ['45s', 45_000],
    ['250ms', 250],
    ['2H', 2 * HOUR],
  ])('reads %s', (text, ms) => expect(parseGrace(text)).toBe(ms));

  it.each(['', '-1h', '5', 'abc', '1w', '1e3s', 'Infinity', '366d', '24h30m'])('refuses %j with a clear message', (text) =>
    expect(() => parseGrace(text)).toThrow(
      /^Invalid grace period '.*': give a number and a unit \(ms, s, m, h, d\), e\.g\. 24h or 30m, or 0/,
    ),
  );

  it('says a duration in its largest whole unit', () => {
    expect([0, 250, 45_000, 90 * 60_000, 24 * HOUR, 36 * HOUR, 48 * HOUR, 1500].map(formatGrace)).toEqual([
      '0 s',
      '250 ms',
      '45 s',
      '90 min',
      '24 h',
      '36 h',
      '2 d',
      '1.5 s',
    ]);
  });
});
