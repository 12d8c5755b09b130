// `catalog import` treats an export folder as untrusted input (end to end, execa): a link to the
// data folder's auth-secret, a linked folder, hard links and unlisted files, a bad document after
// good ones, a bad path after good files, a file failing its content check, accounts that would
// take over an existing admin or promote an existing user — each imports nothing (documents, file
// rows, bytes on disk and accounts unchanged) and exits 1 naming the problem; a server failure in
// the middle of writing leaves nothing behind; the good export imports, again without resending;
// and an export writes no secret of the data folder. One server for the whole file.
import { createHash, randomUUID, scryptSync } from 'node:crypto';
import {
  cpSync,
  existsSync,
  linkSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join, relative, sep } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalBackend } from '@shared/adapters/local/index.js';
import type { CollectionName } from '@shared/types.js';
import { listFilesDeep } from '@shared/workflows/util.js';
import { parseJson, runCli } from '../support/cli.js';
import { createAccount, type HostileAccount } from '../support/hostile.js';
import { cameraEntry, gaussianPly, jpegPhoto, triangleGlb } from '../support/model-fixtures.js';
import { tempDir } from '../support/paths.js';
import { startEmbeddedServer, type EmbeddedServer } from '../support/server.js';

const COLLECTIONS: CollectionName[] = ['users', 'admins', 'projects', 'models', 'annotations', 'alignments', 'changeMaps'];
const NOW = '2026-03-04T05:06:07.000Z';

let target: EmbeddedServer;
let work: string;
let good: string;
let admin: HostileAccount;
let user: HostileAccount;
const A = randomUUID();
const B = randomUUID();
const OLD = randomUUID();
const NEW_UID = 'importedAccountUid0000000001';

/** A password hash in the embedded server's format (scrypt N 16384, r 8, p 1). */
function scryptHash(password: string): string {
  const salt = Buffer.from('0123456789abcdef');
  const key = scryptSync(password, salt, 64, { N: 16384, r: 8, p: 1, maxmem: 64 * 1024 * 1024 });
  return `scrypt$16384$8$1$${salt.toString('base64')}$${key.toString('base64')}`;
}

/** Writes an export folder by the layout: documents by collection, files by storage path, accounts. */
function writeExport(
  dir: string,
  docs: Partial<Record<CollectionName, Array<Record<string, unknown>>>>,
  files: Record<string, Uint8Array | string>,
  accounts: unknown[],
): void {
  mkdirSync(join(dir, 'documents'), { recursive: true });
  for (const collection of COLLECTIONS) writeFileSync(join(dir, 'documents', `${collection}.json`), JSON.stringify(docs[collection] ?? []));
  const listed = Object.entries(files).map(([path, bytes]) => {
    mkdirSync(join(dir, 'files', path, '..'), { recursive: true });
    writeFileSync(join(dir, 'files', path), bytes);
    return { path, size: Buffer.byteLength(bytes), contentType: null };
  });
  writeFileSync(join(dir, 'accounts.json'), JSON.stringify(accounts), { mode: 0o600 });
  writeManifest(dir, listed);
}

function writeManifest(dir: string, files: Array<{ path: string; size: number; contentType: string | null }>): void {
  const manifest = { format: 'inspection-catalog-export', version: 1, exportedAt: NOW, source: 'test', counts: {}, files };
  writeFileSync(join(dir, 'catalog.json'), JSON.stringify(manifest));
}

/** A copy of the good export to spoil. */
function copyOfGood(name: string): string {
  const dir = join(work, name);
  cpSync(good, dir, { recursive: true });
  return dir;
}

const readJson = <T>(path: string): T => JSON.parse(readFileSync(path, 'utf8')) as T;

/** Everything an import could change on the target: documents, file rows, bytes on disk, accounts. */
async function targetState(): Promise<string> {
  const collections = await Promise.all(COLLECTIONS.map((c) => target.service.catalog.query(c)));
  for (const docs of collections) docs.sort((a, b) => (a.id < b.id ? -1 : 1));
  const rows = await Promise.all(
    (await listFilesDeep(target.service.files, 'models/'))
      .sort()
      .map(async (p) => `${p}:${(await target.service.files.getMetadata(p)).size}`),
  );
  const root = join(target.dataDir, 'storage');
  const disk = readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((entry) => !entry.isDirectory())
    .map((entry) => {
      const path = join(entry.parentPath, entry.name);
      return `${relative(root, path).split(sep).join('/')}:${createHash('sha256').update(readFileSync(path)).digest('hex')}`;
    })
    .sort();
  const response = await fetch(`${target.url}/v1/admin/accounts`, { headers: { authorization: `Bearer ${target.serviceKey}` } });
  const accounts = ((await response.json()) as { accounts: unknown[] }).accounts;
  return JSON.stringify({ collections, rows, disk, accounts });
}

/** Runs an import that must be refused: exit 1, invalid-argument, every `expected` text in the message, nothing changed. */
async function expectRefused(dir: string, expected: string[]): Promise<string> {
  const before = await targetState();
  const res = await runCli(['import', dir, '--data-dir', target.dataDir, '--json']);
  const out = parseJson(res.stdout);
  if (out.status !== 'error') throw new Error(`import succeeded:\n${res.stdout}\n${res.stderr}`);
  expect(res.exitCode).toBe(1);
  expect(out.error.code).toBe('invalid-argument');
  expect(out.error.message).toContain('nothing was imported');
  for (const text of expected) expect(out.error.message).toContain(text);
  expect(await targetState()).toBe(before);
  return out.error.message;
}

beforeAll(async () => {
  target = await startEmbeddedServer({ prefix: 'import-target' });
  work = tempDir('import-untrusted');
  admin = await createAccount(target.url, target.service, 'admin@target.test', 'admin-pass-1', 'admin');
  user = await createAccount(target.url, target.service, 'user@target.test', 'user-pass-1', 'user');
  const glb = await triangleGlb();
  // The target already holds a project and a model with two files (one of them the export replaces).
  await target.service.catalog.set('projects', 'proj-old', {
    name: 'Old tower',
    structure_id: 'OLD-1',
    description: '',
    slug: 'old-tower',
  });
  await target.service.catalog.set('models', OLD, {
    uuid: OLD,
    publicId: 'OLD-1',
    name: 'Old model',
    projectId: 'proj-old',
    visible: true,
    files: { glbPath: `models/${OLD}/model.glb`, glbSize: glb.byteLength, assets: [`models/${OLD}/assets/old.txt`] },
    metadata: { annotationsCount: 0, annotationsSeq: 0 },
  });
  await target.service.files.upload(`models/${OLD}/model.glb`, new Blob([glb]));
  await target.service.files.upload(`models/${OLD}/assets/old.txt`, new Blob(['old notes\n']));

  const ply = gaussianPly(4);
  const photo = await jpegPhoto();
  good = join(work, 'good');
  writeExport(
    good,
    {
      users: [{ id: NEW_UID, uid: NEW_UID, email: 'new@import.test', role: 'user', created_at: NOW }],
      projects: [
        {
          id: 'proj-import',
          name: 'Imported tower',
          structure_id: 'IMP-1',
          description: '',
          slug: 'imported-tower',
          reference_model_id: A,
          location: { lat: 1, lng: 2, address: null, mapUrl: null },
          created_at: NOW,
        },
      ],
      models: [
        {
          id: A,
          uuid: A,
          publicId: 'IMP-A',
          name: 'Imported A',
          projectId: 'proj-import',
          isReference: true,
          visible: true,
          files: {
            splatPath: `models/${A}/model.ply`,
            splatSize: ply.byteLength,
            cameraMetadata: `models/${A}/camera-metadata.json`,
            images: [`models/${A}/images/a.jpg`],
            assets: [`models/${A}/assets/big.bin`, `models/${A}/assets/readme.txt`],
          },
          metadata: { annotationsCount: 1, annotationsSeq: 1 },
          created_at: NOW,
        },
        {
          id: B,
          uuid: B,
          publicId: 'IMP-B',
          name: 'Imported B',
          projectId: 'proj-import',
          visible: true,
          files: { glbPath: `models/${B}/model.glb`, glbSize: glb.byteLength },
          metadata: { annotationsCount: 0, annotationsSeq: 0 },
          created_at: NOW,
        },
        {
          id: OLD,
          uuid: OLD,
          publicId: 'OLD-1',
          name: 'Old model (imported)',
          projectId: 'proj-old',
          visible: true,
          files: { glbPath: `models/${OLD}/model.glb`, glbSize: glb.byteLength, assets: [`models/${OLD}/assets/old.txt`] },
          metadata: { annotationsCount: 0, annotationsSeq: 0 },
        },
      ],
      annotations: [
        {
          id: `${A}_1`,
          modelId: A,
          projectId: 'proj-import',
          seq: 1,
          kind: 'point',
          points: [{ x: 0, y: 1, z: 2 }],
          measure: null,
          title: 'Crack at the weld',
          note: '',
          category: 'crack',
          severity: 3,
          status: 'open',
          photos: [],
          author_uid: user.uid,
          author_email: null,
          created_at: NOW,
          last_updated: NOW,
        },
      ],
      alignments: [
        {
          id: `${A}__${B}`,
          referenceModelId: A,
          modelId: B,
          projectId: 'proj-import',
          matrix: [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1],
          method: 'same-frame',
          pairs: [],
          rmsError: 0,
          created_by: 'cli',
          created_at: NOW,
        },
      ],
      changeMaps: [
        {
          id: `${A}__${B}`,
          referenceModelId: A,
          modelId: B,
          projectId: 'proj-import',
          valuesPath: `models/${B}/changes/${A}.bin`,
          inputs: { modelFile: `models/${B}/model.glb`, referenceFile: `models/${A}/model.ply`, alignment: null },
          registration: { matrix: [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1], rmsError: 0.01, iterations: 3, pairs: 4 },
          levelOfDetection: 0.02,
          pointCount: 4,
          referencePointCount: 4,
          histogram: { min: 0, max: 0, counts: [4] },
          regions: [],
          computed_by: 'cli',
          computed_at: NOW,
        },
      ],
    },
    {
      // over 256 KB: sent as a resumable (tus) upload, read through the checked descriptor
      [`models/${A}/assets/big.bin`]: Buffer.alloc(300 * 1024, 7),
      [`models/${A}/assets/readme.txt`]: 'Read me\n',
      [`models/${A}/camera-metadata.json`]: JSON.stringify([cameraEntry()]),
      [`models/${A}/images/a.jpg`]: photo,
      [`models/${A}/model.ply`]: ply,
      [`models/${B}/model.glb`]: glb,
      [`models/${B}/changes/${A}.bin`]: Buffer.alloc(16, 1),
      [`models/${OLD}/assets/old.txt`]: 'new notes, a longer text\n',
    },
    [{ uid: NEW_UID, email: 'new@import.test', password_hash: scryptHash('new-pass-1'), disabled: false }],
  );
}, 120_000);

afterAll(async () => {
  await target?.stop();
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('catalog import refuses an untrusted export whole', () => {
  it('a file that is a link to the data folder’s auth-secret', { timeout: 60_000 }, async () => {
    const dir = copyOfGood('link-to-secret');
    const rel = `models/${A}/assets/readme.txt`;
    const secret = join(target.dataDir, 'auth-secret');
    rmSync(join(dir, 'files', rel));
    symlinkSync(secret, join(dir, 'files', rel));
    // the manifest agrees with the link's target, so only the link itself is wrong
    const manifest = readJson<{ files: Array<{ path: string; size: number }> }>(join(dir, 'catalog.json'));
    manifest.files.find((f) => f.path === rel)!.size = statSync(secret).size;
    writeManifest(dir, manifest.files as never);
    const message = await expectRefused(dir, [`files/${rel}: is a symbolic link`, '(1 problem)']);
    expect(message).not.toContain(readFileSync(secret, 'utf8').trim());
  });

  it('a folder that is a link (files/models/<uuid>/images → elsewhere)', { timeout: 60_000 }, async () => {
    const dir = copyOfGood('linked-folder');
    const elsewhere = join(work, 'elsewhere-images');
    cpSync(join(dir, 'files', 'models', A, 'images'), elsewhere, { recursive: true });
    rmSync(join(dir, 'files', 'models', A, 'images'), { recursive: true });
    symlinkSync(elsewhere, join(dir, 'files', 'models', A, 'images'));
    await expectRefused(dir, [
      `files/models/${A}/images: is a symbolic link`,
      `files/models/${A}/images/a.jpg: its folder files/models/${A}/images is a symbolic link`,
    ]);
  });

  it('every problem at once: a linked document file, a hard link, an unlisted file', { timeout: 60_000 }, async () => {
    const dir = copyOfGood('several');
    const users = join(dir, 'documents', 'users.json');
    const outside = join(work, 'outside-users.json');
    cpSync(users, outside);
    rmSync(users);
    symlinkSync(outside, users);
    const hard = join(dir, 'files', 'models', B, 'model.glb');
    linkSync(hard, join(work, 'second-name.glb'));
    writeFileSync(join(dir, 'files', 'models', B, 'extra.bin'), 'not listed');
    await expectRefused(dir, [
      'documents/users.json: is a symbolic link',
      `files/models/${B}/model.glb: has other hard links`,
      `files/models/${B}/extra.bin: is not listed in catalog.json`,
      '(3 problems)',
    ]);
  });

  it('a bad document after good ones (an empty-title finding)', { timeout: 60_000 }, async () => {
    const dir = copyOfGood('bad-finding');
    const findings = readJson<Array<Record<string, unknown>>>(join(dir, 'documents', 'annotations.json'));
    findings.push({ ...findings[0], id: `${A}_2`, seq: 2, title: '' });
    writeFileSync(join(dir, 'documents', 'annotations.json'), JSON.stringify(findings));
    const models = readJson<Array<Record<string, unknown>>>(join(dir, 'documents', 'models.json'));
    models[0]!.metadata = { annotationsCount: 2, annotationsSeq: 2 };
    writeFileSync(join(dir, 'documents', 'models.json'), JSON.stringify(models));
    await expectRefused(dir, [`annotations/${A}_2: Finding title is required`]);
  });

  it(
    "a change map of a model the export does not hold, and one whose values lie outside its capture's folder",
    { timeout: 60_000 },
    async () => {
      const dir = copyOfGood('bad-change-maps');
      const maps = readJson<Array<Record<string, unknown>>>(join(dir, 'documents', 'changeMaps.json'));
      const absent = randomUUID();
      maps.push({ ...maps[0], id: `${absent}__${B}`, referenceModelId: absent, valuesPath: `models/${B}/changes/${absent}.bin` });
      maps.push({ ...maps[0], id: `${B}__${A}`, referenceModelId: B, modelId: A, valuesPath: `models/${B}/changes/${B}.bin` });
      writeFileSync(join(dir, 'documents', 'changeMaps.json'), JSON.stringify(maps));
      await expectRefused(dir, [
        `changeMaps/${absent}__${B}: its referenceModelId ${absent} is neither in the export nor in the catalog`,
        `changeMaps/${B}__${A}: its valuesPath models/${B}/changes/${B}.bin is not in its capture's folder models/${A}/`,
        '(2 problems)',
      ]);
    },
  );

  it('a bad path after good files, and a file whose content fails its check', { timeout: 60_000 }, async () => {
    const dir = copyOfGood('bad-path');
    const manifest = readJson<{ files: Array<{ path: string; size: number; contentType: string | null }> }>(join(dir, 'catalog.json'));
    mkdirSync(join(dir, 'files', 'models', 'not-a-uuid', 'assets'), { recursive: true });
    writeFileSync(join(dir, 'files', 'models', 'not-a-uuid', 'assets', 'x.txt'), 'x');
    manifest.files.push({ path: 'models/not-a-uuid/assets/x.txt', size: 1, contentType: null });
    const photo = `models/${A}/images/a.jpg`;
    const html = '<!DOCTYPE html><html><body>not a photo</body></html>';
    writeFileSync(join(dir, 'files', photo), html);
    manifest.files.find((f) => f.path === photo)!.size = html.length;
    writeManifest(dir, manifest.files);
    await expectRefused(dir, [
      "catalog.json lists a bad file: models/not-a-uuid/assets/x.txt: Invalid storage path 'models/not-a-uuid/assets/x.txt': 'not-a-uuid' is not a model uuid",
      `files/${photo}: `,
      '(2 problems)',
    ]);
  });

  it('accounts that would take over the admin’s uid, and a user record promoting an existing user', { timeout: 60_000 }, async () => {
    const dir = copyOfGood('takeover');
    const accounts = readJson<unknown[]>(join(dir, 'accounts.json'));
    accounts.push({ uid: admin.uid, email: 'attacker@evil.test', password_hash: scryptHash('attacker-1'), disabled: false });
    writeFileSync(join(dir, 'accounts.json'), JSON.stringify(accounts));
    const users = readJson<unknown[]>(join(dir, 'documents', 'users.json'));
    users.push({ uid: user.uid, email: user.email, role: 'admin' });
    writeFileSync(
      join(dir, 'documents', 'users.json'),
      JSON.stringify(users.map((u) => ({ ...(u as object), id: (u as { uid: string }).uid }))),
    );
    await expectRefused(dir, [
      `accounts.json: account 2 (uid "${admin.uid}", email "attacker@evil.test"): the uid belongs to the existing account admin@target.test`,
      `users/${user.uid} (user@target.test): the import would make this existing account an admin`,
    ]);
    // the admin still signs in with their own password; the attacker's does not work
    const client = createLocalBackend({ baseUrl: target.url });
    try {
      await expect(client.identity.signIn('attacker@evil.test', 'attacker-1')).rejects.toThrow();
      expect((await client.identity.signIn(admin.email, admin.password)).uid).toBe(admin.uid);
    } finally {
      await client.close();
    }
  });
});

describe('catalog import writes all or nothing', () => {
  it('a server failure in the middle (after files and documents were written) undoes everything', { timeout: 60_000 }, async () => {
    // The target's database refuses the alignment (the last documents written) and logs every write before it.
    const db = new Database(join(target.dataDir, 'catalog.db'));
    db.pragma('busy_timeout = 5000');
    db.exec(`
      CREATE TABLE test_written (what TEXT);
      CREATE TRIGGER test_log_docs AFTER INSERT ON documents BEGIN INSERT INTO test_written VALUES ('doc ' || NEW.collection); END;
      CREATE TRIGGER test_log_files AFTER INSERT ON files BEGIN INSERT INTO test_written VALUES ('file ' || NEW.path); END;
      CREATE TRIGGER test_refuse BEFORE INSERT ON documents WHEN NEW.collection = 'alignments'
        BEGIN SELECT RAISE(ABORT, 'refused for the test'); END;`);
    try {
      const before = await targetState();
      const res = await runCli(['import', good, '--data-dir', target.dataDir, '--json']);
      const out = parseJson(res.stdout);
      if (out.status !== 'error') throw new Error(res.stdout);
      expect(res.exitCode).not.toBe(0);
      expect(out.error.message).toContain('failed while writing alignments (1–1 of 1)');
      expect(out.error.message).toContain('everything it had written was undone: nothing was imported');
      const written = (db.prepare('SELECT what FROM test_written').all() as Array<{ what: string }>).map((r) => r.what);
      expect(written).toEqual(expect.arrayContaining([`file models/${A}/model.ply`, 'doc projects', 'doc models', 'doc annotations']));
      expect(await targetState()).toBe(before);
    } finally {
      db.exec('DROP TRIGGER test_refuse; DROP TRIGGER test_log_docs; DROP TRIGGER test_log_files; DROP TABLE test_written;');
      db.close();
    }
  });

  it('the good export imports, again without resending, and its export writes no secret', { timeout: 90_000 }, async () => {
    const res = await runCli(['import', good, '--data-dir', target.dataDir, '--json']);
    expect(res.exitCode, res.stdout + res.stderr).toBe(0);
    expect(parseJson(res.stdout)).toMatchObject({
      status: 'ok',
      result: {
        counts: { files: 8, users: 1, projects: 1, models: 3, annotations: 1, alignments: 1, changeMaps: 1, accounts: 1 },
        newAdmins: [],
      },
    });
    expect((await target.service.catalog.get('models', OLD))?.name).toBe('Old model (imported)');
    expect((await target.service.catalog.get('annotations', `${A}_1`))?.title).toBe('Crack at the weld');
    const readme = await fetch(await target.service.files.getDownloadUrl(`models/${A}/assets/readme.txt`));
    expect(await readme.text()).toBe('Read me\n');
    const big = await fetch(await target.service.files.getDownloadUrl(`models/${A}/assets/big.bin`));
    expect(Buffer.from(await big.arrayBuffer()).equals(Buffer.alloc(300 * 1024, 7))).toBe(true);
    const client = createLocalBackend({ baseUrl: target.url });
    try {
      expect((await client.identity.signIn('new@import.test', 'new-pass-1')).uid).toBe(NEW_UID);
    } finally {
      await client.close();
    }
    const again = await runCli(['import', good, '--data-dir', target.dataDir, '--json']);
    expect(parseJson(again.stdout)).toMatchObject({ status: 'ok', result: { bytesSent: 0 } });

    const exported = join(work, 'export-of-target');
    expect((await runCli(['export', exported, '--data-dir', target.dataDir])).exitCode).toBe(0);
    expect(lstatSync(join(exported, 'accounts.json')).mode & 0o777).toBe(0o600);
    const secrets = [
      readFileSync(join(target.dataDir, 'auth-secret'), 'utf8').trim(),
      target.serviceKey,
      readJson<{ key: string }>(join(target.dataDir, 'service-key.json')).key,
    ];
    const everything = readdirSync(exported, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => readFileSync(join(e.parentPath, e.name)).toString('latin1'))
      .join('\n');
    for (const secret of secrets) expect(everything).not.toContain(secret);
    expect(existsSync(join(exported, 'catalog.db'))).toBe(false);
  });
});
