// The embedded server computes change maps by itself: against a fresh `catalog serve`, uploading
// the generated changed pair of the demo tower (a bent brace, a removed antenna panel, an added
// cabinet), each with its flight's camera metadata, as a project's reference and a later capture
// queues the capture's job, which the server runs in the background and reports through its job
// route (queued, computing with a fraction, done) until the stored map holds the pair's three
// change regions, computed by 'server', each with the sign of its change (the surfaces facing the
// cameras: the cabinet and the bent brace positive, the antenna gone negative). Saving an alignment computes it again from that alignment; a second trigger while a
// job waits in the queue does not compute it twice; a mesh-only model is computed by its GLB;
// a capture whose file cannot be read fails with the reason, and the write that queued it
// succeeds all the same. Camera metadata replaced or deleted (the capture's, or the reference's)
// computes the map again, stamped with it. The job route is for signed-in readers. A server that
// starts queues the captures again (jobs do not outlive it): a map missing when it stopped is
// computed, and so is one stored by an earlier version of the maths (its stamps without a version).
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalBackend } from '@shared/adapters/local/index.js';
import { changeMapInputFile } from '@shared/change-map-document.js';
import type { ChangeMapJob } from '@shared/ports/index.js';
import type { Model } from '@shared/types.js';
import { saveAlignment } from '@shared/workflows/alignments.js';
import { deleteChangeMap, getChangeMap } from '@shared/workflows/change-maps.js';
import { routes } from '@shared/wire/routes.js';
import { startServer } from '../../cli/src/server/index.js';
import { encodeChangedPair, makeChangedPair } from '../../cli/src/lib/demo-data/index.js';
import { jsonCli } from '../support/cli.js';
import { triangleGlb } from '../support/model-fixtures.js';
import { tempDir } from '../support/paths.js';
import { startEmbeddedServer, type EmbeddedServer } from '../support/server.js';

/** Gaussians of the generated reference: the change map finds exactly the three changes from 100,000 up. */
const COUNT = 100_000;

let server: EmbeddedServer;
let env: Record<string, string>;
const work = tempDir('change-map-jobs');
const pair = makeChangedPair({ count: COUNT });
let reference: Model;
let capture: Model;
/** A second capture of the project (from the queue's test on). */
let second: Model;
/** Every state the job route reported for the first capture while it was computed on upload. */
const seen: ChangeMapJob[] = [];

const { ok } = jsonCli(() => env);

/** Writes `bytes` as the model file of a new model folder, with `cameras` as its camera metadata when given; returns the folder. */
function folderWith(name: string, file: string, bytes: Uint8Array, cameras?: unknown[]): string {
  const dir = join(work, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, file), bytes);
  if (cameras) writeFileSync(join(dir, 'cameras.json'), JSON.stringify(cameras));
  return dir;
}

/** Uploads a model folder with the CLI; returns the stored record. */
async function upload(dir: string, publicId: string, extra: string[] = []): Promise<Model> {
  const args = ['models', 'upload', dir, '--project', 'JOB-001', '--public-id', publicId, '--name', publicId, ...extra];
  return (await ok<{ model: Model }>(args)).model;
}

/** The job route's answer for a model, as the service reads it. */
async function jobOf(modelId: string): Promise<ChangeMapJob | null> {
  return server.service.jobs.changeMapJob(modelId);
}

/**
 * Polls a model's job until `done` holds of it (every 50 ms, at most 60 s).
 * @param log where to add every answer seen (default none)
 */
async function jobUntil(modelId: string, done: (job: ChangeMapJob | null) => boolean, log?: ChangeMapJob[]): Promise<ChangeMapJob | null> {
  const until = Date.now() + 60_000;
  for (;;) {
    const job = await jobOf(modelId);
    if (job !== null) log?.push(job);
    if (done(job)) return job;
    if (Date.now() > until) throw new Error(`The change-map job of ${modelId} is still ${JSON.stringify(job)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * Waits until this process holds no kept-alive connection to the server stopped at `url` (every
 * client here shares Node's fetch pool): until a request there is refused. A request that meets
 * such a connection fails and drops it, so the restarted server's own first requests (its jobs')
 * cannot meet one. At most 100 requests.
 */
async function stoppedServerGone(url: string): Promise<void> {
  for (let i = 0; i < 100; i++) {
    try {
      await fetch(url);
    } catch (error) {
      if ((error as { cause?: { code?: string } }).cause?.code === 'ECONNREFUSED') return;
    }
  }
  throw new Error(`Connections to the stopped server at ${url} are still kept`);
}

const settled = (job: ChangeMapJob | null) => job !== null && job.state !== 'queued' && job.state !== 'computing';

beforeAll(async () => {
  server = await startEmbeddedServer({ prefix: 'change-map-jobs', changeMaps: true });
  ({ env } = server);
  await ok(['projects', 'create', '--name', 'Jobs Tower', '--structure-id', 'JOB-001']);
  const files = encodeChangedPair(pair);
  reference = await upload(folderWith('reference', 'point_cloud.ply', files.reference, pair.cameras.reference), 'JOB-2025', [
    '--reference',
  ]);
  capture = await upload(folderWith('capture', 'point_cloud.ply', files.capture, pair.cameras.capture), 'JOB-2026');
  await jobUntil(capture.id, settled, seen);
}, 120_000);

afterAll(async () => {
  await server?.stop();
  rmSync(work, { recursive: true, force: true });
});

describe('change maps computed by the embedded server', () => {
  it('computes the change map of a capture added to a project with a reference, reporting its progress', async () => {
    const last = seen.at(-1)!;
    expect(last).toMatchObject({
      modelId: capture.id,
      referenceModelId: reference.id,
      state: 'done',
      fraction: 1,
      message: null,
      computations: 1,
    });
    // progress on the way: computing, with fractions from 0 to 1 that never go back
    const computing = seen.filter((job) => job.state === 'computing');
    expect(computing.length).toBeGreaterThan(0);
    const fractions = computing.map((job) => job.fraction);
    expect(fractions.every((f, i) => f >= 0 && f < 1 && (i === 0 || f >= fractions[i - 1]!))).toBe(true);

    const map = await getChangeMap(server.service.catalog, reference.id, capture.id);
    expect(map).toMatchObject({
      computed_by: 'server',
      pointCount: pair.capture.count,
      valuesPath: `models/${capture.uuid}/changes/${reference.id}.bin`,
    });
    expect(map!.registration.rmsError).toBeLessThan(0.02);
    // the pair's three changes: the bent brace and the cabinet on the capture, the antenna on the
    // reference; added or bowed out reads positive, gone negative (the surfaces face each model's cameras)
    expect(map!.regions).toHaveLength(3);
    for (const change of pair.truth.changes) {
      const region = map!.regions.find(
        (r) => r.side === change.side && Math.abs(Math.abs(r.maxDistance) - change.maxDistance) / change.maxDistance < 0.2,
      );
      expect(region, change.kind).toBeDefined();
      expect(Math.sign(region!.maxDistance), change.kind).toBe(change.kind === 'removed' ? -1 : 1);
    }
    // the values file is stored beside the capture
    expect((await server.service.files.getMetadata(map!.valuesPath)).size).toBeGreaterThan(pair.capture.count * 4);
  });

  it('computes it again when the pair is aligned, from that alignment; an up-to-date map is not computed again', async () => {
    const before = (await jobOf(capture.id))!.computations;
    await saveAlignment(server.service.catalog, {
      referenceModelId: reference.id,
      modelId: capture.id,
      method: 'same-frame',
      createdBy: 'test',
    });
    const job = await jobUntil(capture.id, (j) => settled(j) && j!.computations > before);
    expect(job).toMatchObject({ state: 'done', computations: before + 1 });
    const map = await getChangeMap(server.service.catalog, reference.id, capture.id);
    expect(map?.inputs.alignment?.method).toBe('same-frame');
    expect(map?.regions).toHaveLength(3);

    // the same alignment saved again: the map is up to date, so nothing is computed
    await saveAlignment(server.service.catalog, {
      referenceModelId: reference.id,
      modelId: capture.id,
      method: 'same-frame',
      createdBy: 'test',
    });
    expect(await jobUntil(capture.id, settled)).toMatchObject({ state: 'done', computations: before + 1 });
  });

  it("computes it again when camera metadata is replaced or deleted: the capture's, or the reference's (every capture of its project)", async () => {
    const computations = async () => (await jobOf(capture.id))!.computations;
    const stored = async () => (await getChangeMap(server.service.catalog, reference.id, capture.id))!;
    const record = async (id: string) => (await server.service.catalog.get('models', id))!;
    const camerasFile = (name: string, cameras: unknown[]) => {
      const path = join(work, name);
      writeFileSync(path, JSON.stringify(cameras));
      return path;
    };
    const mapBefore = await stored();

    // the capture's camera metadata uploaded again (the same cameras): its stamp changes, the map is computed again
    let before = await computations();
    await ok(['files', 'add', capture.id, camerasFile('capture-cameras.json', pair.cameras.capture), '--kind', 'cameras']);
    expect(await jobUntil(capture.id, (j) => settled(j) && j!.computations > before)).toMatchObject({ state: 'done' });
    const replaced = await stored();
    expect(replaced.inputs.modelFile).not.toBe(mapBefore.inputs.modelFile);
    expect(replaced.inputs.modelFile).toBe(changeMapInputFile(await record(capture.id)));
    expect(replaced.inputs.modelFile).toContain(`camera metadata models/${capture.uuid}/camera-metadata.json (uploaded 20`);
    // the pair's three changes, each with its sign (the capture's surfaces face its cameras)
    expect(replaced.regions).toHaveLength(3);
    for (const region of replaced.regions) expect(Math.sign(region.maxDistance)).toBe(region.side === 'reference' ? -1 : 1);

    // the reference's replaced: every capture of the project (here the one) is computed again
    before = await computations();
    await ok(['files', 'add', reference.id, camerasFile('reference-cameras.json', pair.cameras.reference), '--kind', 'cameras']);
    expect(await jobUntil(capture.id, (j) => settled(j) && j!.computations > before)).toMatchObject({ state: 'done' });
    expect((await stored()).inputs.referenceFile).toBe(changeMapInputFile(await record(reference.id)));

    // the capture's deleted: computed again without it
    before = await computations();
    await ok(['files', 'delete', capture.id, `models/${capture.uuid}/camera-metadata.json`, '--yes']);
    expect(await jobUntil(capture.id, (j) => settled(j) && j!.computations > before)).toMatchObject({
      state: 'done',
      computations: before + 1,
    });
    expect((await stored()).inputs.modelFile).toBe(changeMapInputFile(await record(capture.id)));
    expect((await stored()).inputs.modelFile).toContain('; camera metadata none; ');
  });

  it('computes a capture once when it is triggered twice while it waits in the queue', async () => {
    second = await upload(folderWith('second', 'point_cloud.ply', encodeChangedPair(pair).capture), 'JOB-2027');
    await jobUntil(second.id, settled);
    const [first, waiting] = [(await jobOf(capture.id))!.computations, (await jobOf(second.id))!.computations];
    expect(waiting).toBe(1);

    // the first capture's alignment deleted: its job computes; then the second's is saved twice while it waits behind it
    await server.service.catalog.delete('alignments', `${reference.id}__${capture.id}`);
    await jobUntil(capture.id, (j) => j?.state === 'computing');
    const align = () =>
      saveAlignment(server.service.catalog, {
        referenceModelId: reference.id,
        modelId: second.id,
        method: 'same-frame',
        createdBy: 'test',
      });
    await align();
    expect((await jobOf(second.id))?.state).toBe('queued');
    await align();
    expect((await jobOf(second.id))?.state).toBe('queued');

    expect(await jobUntil(capture.id, settled)).toMatchObject({ state: 'done', computations: first + 1 });
    expect(await jobUntil(second.id, settled)).toMatchObject({ state: 'done', computations: waiting + 1 });
    expect((await getChangeMap(server.service.catalog, reference.id, second.id))?.inputs.alignment?.method).toBe('same-frame');
  });

  it('computes a mesh-only model by its GLB, and records a failure without failing the write that queued it', async () => {
    const mesh = await upload(folderWith('mesh', 'model.glb', await triangleGlb()), 'JOB-MESH');
    expect(await jobUntil(mesh.id, settled)).toMatchObject({ state: 'done', message: null, computations: 1 });
    const meshMap = await getChangeMap(server.service.catalog, reference.id, mesh.id);
    expect(meshMap?.computed_by).toBe('server');
    expect(meshMap?.inputs.modelFile).toContain(mesh.files.glbPath!);

    // the capture's file gone from storage: its job cannot read it
    await server.service.files.delete(capture.files.splatPath!);
    await saveAlignment(server.service.catalog, {
      referenceModelId: reference.id,
      modelId: capture.id,
      method: 'same-frame',
      createdBy: 'test',
    });
    const failed = await jobUntil(capture.id, settled);
    expect(failed?.state).toBe('failed');
    expect(failed?.message).toMatch(/point_cloud\.ply|model\.ply/);
    // the server still answers, and the stored map is the one from before
    expect((await getChangeMap(server.service.catalog, reference.id, capture.id))?.computed_by).toBe('server');
  });

  it('answers the job route to signed-in callers only', async () => {
    const anonymous = await fetch(`${server.url}${routes.changeMapJob.path(capture.id)}`);
    expect(anonymous.status).toBe(401);
    const user = createLocalBackend({ baseUrl: server.url });
    try {
      await ok(['users', 'register', 'viewer@jobs.test', '--password', 'secret-1']);
      await user.identity.signIn('viewer@jobs.test', 'secret-1');
      expect((await user.jobs.changeMapJob(capture.id))?.modelId).toBe(capture.id);
      expect(await user.jobs.changeMapJob('no-such-model')).toBeNull();
    } finally {
      await user.close();
    }
  });

  it('a server that starts computes the maps its last run left undone, and those stored by an earlier version of the maths', async () => {
    const files = encodeChangedPair(pair);
    const later = await upload(folderWith('capture-later', 'point_cloud.ply', files.capture), 'JOB-2028');
    await jobUntil(later.id, settled);
    expect(await getChangeMap(server.service.catalog, reference.id, later.id)).not.toBeNull();
    // as if the server had stopped before the job: no map, and nothing queues one while it runs
    await deleteChangeMap(server.service, reference.id, later.id);
    // the second capture's map as the maths before the camera metadata stored it: the same
    // files, stamped without the camera metadata and the version (version 1)
    const stampOne = (model: Model) => `${model.files.splatPath} (${model.files.splatSize} bytes, uploaded ${model.uploaded_at})`;
    const [secondNow, referenceNow] = [
      await server.service.catalog.get('models', second.id),
      await server.service.catalog.get('models', reference.id),
    ];
    const old = (await getChangeMap(server.service.catalog, reference.id, second.id))!;
    await server.service.catalog.update('changeMaps', old.id, {
      'inputs.modelFile': stampOne(secondNow!),
      'inputs.referenceFile': stampOne(referenceNow!),
    });
    await server.server.close();
    await stoppedServerGone(server.url);
    const restarted = await startServer({ dataDir: server.dataDir, port: server.server.port, changeMaps: true });
    // a new client: the old one's kept-alive connections went with the old server
    const service = createLocalBackend({ baseUrl: server.url, serviceKey: server.serviceKey });
    try {
      for (const id of [later.id, second.id]) {
        await expect.poll(async () => (await service.jobs.changeMapJob(id))?.state, { timeout: 60_000, interval: 100 }).toBe('done');
        expect(await service.jobs.changeMapJob(id)).toMatchObject({ computations: 1 });
      }
      expect(await getChangeMap(service.catalog, reference.id, later.id)).toMatchObject({ computed_by: 'server' });
      // the earlier version's map computed again, stamped by this version
      const again = (await getChangeMap(service.catalog, reference.id, second.id))!;
      expect(again.inputs.modelFile).toBe(changeMapInputFile(secondNow!));
      expect(again.inputs.referenceFile).toBe(changeMapInputFile(referenceNow!));
      expect(again.computed_at! > old.computed_at!).toBe(true);
    } finally {
      await service.close();
      await restarted.close();
    }
  });
});
