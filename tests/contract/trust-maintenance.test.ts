// Maintenance never races live work, against `catalog serve` over raw HTTP: the storage scan and
// repair (`routes.storageScan`, `routes.storageRepair`) are the service key's alone and refuse a
// bad grace period, each refusal with its message and nothing changed (the world holds a file
// without a record and a record without bytes, which a repair with grace 0 would remove); the
// service's repair leaves alone what is recent and the folders of resumable uploads; and storage
// repairs in a loop (grace 0) beside 25 parallel file batches, with doctor's repairs beside them,
// lose no acknowledged file.
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FILE_BATCH_PARTS, routes, UPLOADS_PATH } from '@shared/wire/routes.js';
import type { StoredFile } from '@shared/ports/index.js';
import { embeddedStorageScanApi } from '../../cli/src/lib/catalog-io.js';
import { diagnose, repair } from '../../cli/src/lib/doctor.js';
import { authHeader, hostileTable, literally, startHostileWorld } from '../support/hostile.js';
import type { HostileCase, HostileWorld } from '../support/hostile.js';

let world: HostileWorld;
/** A file on disk that no file record describes (a kill between a move and its record leaves one). */
const stray = `models/${randomUUID()}/assets/stray.bin`;
/** A file record whose bytes are gone. */
const hollow = `models/${randomUUID()}/assets/hollow.bin`;
const disk = (path: string): string => join(world.handle.dataDir, 'storage', ...path.split('/'));

const scanPath = routes.storageScan.path();
const repairPath = routes.storageRepair.path();
const repairNow = routes.storageRepair.path(0);
const SERVICE_ONLY = literally('Missing permission: service key required');
const BAD_GRACE = literally('graceMs must be a whole number of milliseconds');

function maintenanceCases(): HostileCase[] {
  const cases: HostileCase[] = [];
  // every non-service caller, on the scan and on a repair that would remove the planted files
  const callers = [
    { who: 'signed out', as: 'anon', status: 401 },
    { who: 'user', as: 'user', status: 403 },
    { who: 'admin', as: 'admin', status: 403, message: SERVICE_ONLY },
    { who: 'forged token', as: { token: 'forged' }, status: 401, message: /Invalid ID token/ },
    { who: 'refresh token as bearer', as: { token: 'refresh' }, status: 401 },
    { who: 'service key with one character changed', as: { token: 'service-typo' }, status: 401 },
  ] as const;
  for (const caller of callers) {
    for (const [what, method, path] of [
      ['storage scan', 'GET', scanPath],
      ['storage repair with grace 0', 'POST', repairNow],
    ] as const) {
      cases.push({
        name: `${caller.who}: ${what}`,
        as: caller.as,
        method,
        path,
        status: caller.status,
        message: 'message' in caller ? caller.message : undefined,
      });
    }
  }
  cases.push(
    { name: 'user: storage repair with the default grace', as: 'user', method: 'POST', path: repairPath, status: 403 },
    { name: 'admin: storage scan asking for grace 0', as: 'admin', method: 'GET', path: routes.storageScan.path(0), status: 403 },
  );
  // the service key with a bad grace period: refused, nothing removed
  for (const [label, query] of [
    ['negative', 'graceMs=-1'],
    ['not a number', 'graceMs=abc'],
    ['empty', 'graceMs='],
    ['fractional', 'graceMs=1.5'],
    ['exponent', 'graceMs=1e3'],
    ['14 digits', 'graceMs=99999999999999'],
    ['hexadecimal', 'graceMs=0x10'],
    ['given twice', 'graceMs=0&graceMs=0'],
    ['with spaces', 'graceMs=%200'],
  ] as const) {
    cases.push({
      name: `service: storage repair with a ${label} grace`,
      as: 'service',
      method: 'POST',
      path: `${repairPath}?${query}`,
      status: 400,
      message: query === 'graceMs=0&graceMs=0' ? /Invalid storage repair/ : BAD_GRACE,
    });
  }
  cases.push(
    {
      name: 'service: storage repair with an unknown parameter (grace instead of graceMs)',
      as: 'service',
      method: 'POST',
      path: `${repairPath}?grace=0`,
      status: 400,
      message: /Invalid storage repair/,
    },
    {
      name: 'service: storage scan with a negative grace',
      as: 'service',
      method: 'GET',
      path: `${scanPath}?graceMs=-5`,
      status: 400,
      message: BAD_GRACE,
    },
    // the repair is a POST: a GET or DELETE of it changes nothing
    { name: 'service: GET of the repair route', as: 'service', method: 'GET', path: repairNow, status: 404 },
    { name: 'service: DELETE of the scan route', as: 'service', method: 'DELETE', path: scanPath, status: 404 },
    // the tus routes that the repair's live-upload tracking watches
    {
      name: 'admin: tus HEAD of an upload id climbing out of the uploads folder',
      as: 'admin',
      method: 'HEAD',
      path: `${UPLOADS_PATH}/..%2F..%2Fcatalog.db`,
      headers: { 'tus-resumable': '1.0.0' },
      status: 404,
    },
    {
      name: 'admin: tus HEAD of an upload id with a malformed escape (refused as a bad URL, no hang)',
      as: 'admin',
      method: 'HEAD',
      path: `${UPLOADS_PATH}/%E0%A4%A`,
      headers: { 'tus-resumable': '1.0.0' },
      status: 400,
    },
    {
      name: 'admin: tus PATCH of an upload id with a malformed escape: the API error format',
      as: 'admin',
      method: 'PATCH',
      path: `${UPLOADS_PATH}/%E0%A4%A`,
      raw: 'abc',
      headers: { 'tus-resumable': '1.0.0', 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
      status: 400,
      message: /"code":"invalid-argument".*Invalid request/,
    },
    {
      name: 'user: a document path with a malformed escape: the API error format',
      as: 'user',
      method: 'GET',
      path: '/v1/docs/models/%E0%A4%A',
      status: 400,
      message: /"code":"invalid-argument".*Invalid request/,
    },
    {
      name: 'service: tus PATCH of an unknown upload',
      as: 'service',
      method: 'PATCH',
      path: `${UPLOADS_PATH}/${randomUUID()}`,
      raw: 'abc',
      headers: { 'tus-resumable': '1.0.0', 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
      status: 404,
    },
    {
      name: 'user: tus PATCH of an unknown upload',
      as: 'user',
      method: 'PATCH',
      path: `${UPLOADS_PATH}/${randomUUID()}`,
      raw: 'abc',
      headers: { 'tus-resumable': '1.0.0', 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
      status: 403,
    },
  );
  return cases;
}

beforeAll(async () => {
  world = await startHostileWorld();
  world.tokensByName = {
    forged: `${world.admin.token.slice(0, -4)}AAAA`,
    refresh: world.user.refreshToken,
    'service-typo': `${world.handle.serviceKey.slice(0, -1)}${world.handle.serviceKey.endsWith('A') ? 'B' : 'A'}`,
  };
  mkdirSync(join(disk(stray), '..'), { recursive: true });
  writeFileSync(disk(stray), 'stray bytes');
  await world.service.files.upload(hollow, new Blob(['hollow bytes']));
  unlinkSync(disk(hollow));
});

afterAll(async () => {
  await world?.stop();
});

describe('storage scan and repair under hostile requests', () => {
  const cases = maintenanceCases();
  it('has its cases', () => expect(cases.length).toBe(33));
  hostileTable(() => world, cases);
});

/** Sends a storage scan or repair with the service key; returns its JSON reply. */
async function serviceCall<T>(method: string, path: string): Promise<T> {
  const response = await fetch(`${world.url}${path}`, { method, headers: authHeader(world, 'service') });
  expect(response.status, await response.clone().text()).toBe(200);
  return (await response.json()) as T;
}

describe("the service's storage repair", () => {
  it('leaves alone a recent file without a record (default grace 24 h), removes the record without bytes; with grace 0 the file too', async () => {
    const scan = await serviceCall<{ untracked: string[]; missing: string[]; leftAlone: unknown[]; graceMs: number }>('GET', scanPath);
    expect(scan).toMatchObject({
      untracked: [],
      missing: [hollow],
      leftAlone: [{ path: stray, reason: 'recent' }],
      graceMs: 24 * 3600_000,
    });
    expect(await serviceCall('POST', repairPath)).toEqual({
      removedFiles: 0,
      removedRows: 1,
      leftAlone: [{ path: stray, reason: 'recent' }],
    });
    expect(existsSync(disk(stray))).toBe(true);
    await expect(world.service.files.getMetadata(hollow)).rejects.toMatchObject({ code: 'storage/object-not-found' });
    expect(await serviceCall('POST', repairNow)).toEqual({ removedFiles: 1, removedRows: 0, leftAlone: [] });
    expect(existsSync(disk(stray))).toBe(false);
  });

  it('keeps the folder of a resumable tus upload: the scan names it, doctor leaves its files alone', async () => {
    const uuid = randomUUID();
    const stored = `models/${uuid}/images/a.jpg`;
    await world.service.files.upload(`models/${uuid}/assets/notes.txt`, new Blob(['stored first']));
    // an upload of the model's splat, 3 of its 10 bytes sent, then interrupted
    const tus = { ...authHeader(world, 'service'), 'tus-resumable': '1.0.0' };
    const created = await fetch(`${world.url}${UPLOADS_PATH}`, {
      method: 'POST',
      headers: { ...tus, 'upload-length': '10', 'upload-metadata': `path ${Buffer.from(`models/${uuid}/model.ply`).toString('base64')}` },
    });
    expect(created.status).toBe(201);
    const location = new URL(created.headers.get('location')!, world.url).pathname;
    const patched = await fetch(`${world.url}${location}`, {
      method: 'PATCH',
      headers: { ...tus, 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
      body: 'ply',
    });
    expect(patched.status).toBe(204);
    try {
      const scan = await serviceCall<{ liveUploads: unknown[] }>('GET', scanPath);
      expect(scan.liveUploads).toEqual([{ uuid, reason: 'resumable' }]);
      // grace 0: a stalled upload is not protected (only requests running now are)
      expect((await serviceCall<{ liveUploads: unknown[] }>('GET', routes.storageScan.path(0))).liveUploads).toEqual([]);
      const scanApi = embeddedStorageScanApi(world.url, world.handle.serviceKey);
      const report = await diagnose(world.service, scanApi);
      expect(report.leftAlone).toEqual([{ uuid, files: [`models/${uuid}/assets/notes.txt`], reason: 'resumable' }]);
      expect(report.filesWithoutRecords).toEqual([]);
      expect(stored).toContain(uuid);
    } finally {
      await fetch(`${world.url}${location}`, { method: 'DELETE', headers: tus });
      await world.service.files.delete(`models/${uuid}/assets/notes.txt`);
    }
  });
});

describe('storage repairs beside 25 parallel file batches', () => {
  it('lose no acknowledged file: each is listed, its record and bytes present, its content equal', { timeout: 120_000 }, async () => {
    const batches = Array.from({ length: 25 }, (_, b) => {
      const uuid = randomUUID();
      return Array.from({ length: 64 }, (_, i) => ({
        path: `models/${uuid}/assets/f${i}.bin`,
        body: `batch ${b} file ${i} ${randomUUID()}`,
      }));
    });
    const send = async (files: { path: string; body: string }[]): Promise<StoredFile[]> => {
      const form = new FormData();
      form.append(FILE_BATCH_PARTS.manifest, JSON.stringify(files.map((f) => ({ path: f.path, size: Buffer.byteLength(f.body) }))));
      for (const f of files) form.append(FILE_BATCH_PARTS.file, new Blob([f.body]), 'f.bin');
      const response = await fetch(`${world.url}${routes.fileBatch.path()}`, {
        method: 'POST',
        headers: authHeader(world, 'service'),
        body: form,
      });
      expect(response.status, await response.clone().text()).toBe(200);
      return ((await response.json()) as { files: StoredFile[] }).files;
    };
    const scanApi = embeddedStorageScanApi(world.url, world.handle.serviceKey);
    let done = false;
    let repairs = 0;
    let doctors = 0;
    // three loops of the server's repair with grace 0 (only what is stored now is protected), as fast as it answers
    const repairing = Promise.all(
      [1, 2, 3].map(async () => {
        while (!done) {
          await serviceCall('POST', repairNow);
          repairs += 1;
        }
      }),
    );
    // doctor's diagnosis and repair with the default grace, beside it
    const doctoring = (async () => {
      while (!done) {
        await repair(world.service, await diagnose(world.service, scanApi), scanApi);
        doctors += 1;
      }
    })();
    let acknowledged: StoredFile[][];
    try {
      acknowledged = await Promise.all(batches.map(send));
    } finally {
      done = true;
      await Promise.all([repairing, doctoring]);
    }
    expect(repairs).toBeGreaterThan(2);
    expect(doctors).toBeGreaterThan(0);
    // each acknowledged file is listed with its size (its record), its bytes on disk equal to what was sent
    let checked = 0;
    for (const [b, files] of batches.entries()) {
      expect(acknowledged[b]!.map((f) => f.path)).toEqual(files.map((f) => f.path));
      const folder = files[0]!.path.slice(0, files[0]!.path.lastIndexOf('/') + 1);
      const listed = new Map((await world.service.files.list(folder)).items.map((item) => [item.path, item.size]));
      for (const f of files) {
        expect(listed.get(f.path), f.path).toBe(Buffer.byteLength(f.body));
        expect(existsSync(disk(f.path)), f.path).toBe(true);
        expect(readFileSync(disk(f.path), 'utf8')).toBe(f.body);
        checked += 1;
      }
    }
    expect(checked).toBe(1600);
  });
});
