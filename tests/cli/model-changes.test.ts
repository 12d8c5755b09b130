// `catalog models changes <capture>` against a fresh embedded server: the generated changed pair
// of the demo tower (a bent brace, a removed antenna, an added cabinet, 1 cm noise and a 0.5°
// misregistration) uploaded as a project's reference and a later capture gives a registration
// under 2 cm, change regions (neither has camera metadata: the ground faces up, so the cabinet on it
// reads positive and the antenna gone negative), a stored values file with one value per splat of
// the capture and a change-map document that reads back; with --accept the registration becomes the pair's 'icp'
// alignment (the map stays up to date, and the next run starts from it); a mesh-only capture (a GLB
// of the same tower, y-up, against the y-down splat reference) is compared by points sampled on its
// surface, starting from the 180° turn between the frames: registered within 3 cm, no change region,
// one stored value per sampled point and a stamp of its GLB; a capture with no reference model and
// a model compared with itself are refused with their messages and nothing is stored.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeChangeValues } from '@shared/change-map/index.js';
import type { ChangeRegion, Registration } from '@shared/change-map/index.js';
import { changeMapOutOfDate } from '@shared/change-map-document.js';
import { getAlignment } from '@shared/workflows/alignments.js';
import { getChangeMap } from '@shared/workflows/change-maps.js';
import type { Alignment, Model } from '@shared/types.js';
import { encodeChangedPair, makeChangedPair, makeTowerGlb } from '../../cli/src/lib/demo-data/index.js';
import { ChangesMessages } from '../../cli/src/commands/models/changes.js';
import { jsonCli, runCliOk } from '../support/cli.js';
import { tempDir } from '../support/paths.js';
import { startEmbeddedServer, type EmbeddedServer } from '../support/server.js';

interface Changes {
  model: { id: string; publicId: string };
  reference: { id: string; publicId: string };
  valuesPath: string;
  startedFrom: { method: string } | null;
  registration: Registration;
  accepted: Alignment | null;
  levelOfDetection: number;
  captureCount: number;
  pointCount: number;
  regions: ChangeRegion[];
  cameraCount: number;
  referenceCameraCount: number;
  captureKind: string;
  referenceKind: string;
}

let server: EmbeddedServer;
let env: Record<string, string>;
const work = tempDir('model-changes');
const pair = makeChangedPair({ count: 40_000 });
let reference: Model;
let capture: Model;
let mesh: Model;

const { ok, fails } = jsonCli(() => env);

/** Writes `bytes` as the only file of a new model folder; returns the folder. */
function folderWith(name: string, file: string, bytes: Uint8Array): string {
  const dir = join(work, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, file), bytes);
  return dir;
}

beforeAll(async () => {
  server = await startEmbeddedServer({ prefix: 'model-changes' });
  ({ env } = server);
  await ok(['projects', 'create', '--name', 'Changed Tower', '--structure-id', 'CHG-001']);
  await ok(['projects', 'create', '--name', 'No Reference', '--structure-id', 'NRF-001']);
  const files = encodeChangedPair(pair);
  const upload = async (dir: string, project: string, publicId: string, extra: string[] = []) =>
    (await ok<{ model: Model }>(['models', 'upload', dir, '--project', project, '--public-id', publicId, '--name', publicId, ...extra]))
      .model;
  reference = await upload(folderWith('reference', 'point_cloud.ply', files.reference), 'CHG-001', 'CHG-2025', ['--reference']);
  capture = await upload(folderWith('capture', 'point_cloud.ply', files.capture), 'CHG-001', 'CHG-2026');
  mesh = await upload(folderWith('mesh', 'model.glb', await makeTowerGlb()), 'CHG-001', 'CHG-MESH');
  await upload(folderWith('alone', 'point_cloud.ply', files.capture), 'NRF-001', 'NRF-2026');
}, 120_000);

afterAll(async () => {
  await server?.stop();
  rmSync(work, { recursive: true, force: true });
});

describe('catalog models changes', () => {
  it('measures a capture against its project reference and stores the values file and the change map', async () => {
    const result = await ok<Changes>(['models', 'changes', 'CHG-2026', '--project', 'CHG-001']);
    expect(result.model).toEqual({ id: capture.id, publicId: 'CHG-2026' });
    expect(result.reference).toEqual({ id: reference.id, publicId: 'CHG-2025' });
    // no alignment stored: ICP starts from the same frame and takes out the 0.5° misregistration
    expect(result.startedFrom).toBeNull();
    expect(result.registration.rmsError).toBeLessThan(0.02);
    expect(result.captureCount).toBe(pair.capture.count);
    expect(result.pointCount).toBeGreaterThan(0);
    expect(result.levelOfDetection).toBeGreaterThan(0);
    expect(result.regions.length).toBeGreaterThan(0);
    // the added cabinet (1.6 m tall) is the largest change, and stands out of the ground: positive
    const cabinet = result.regions.reduce((a, b) => (Math.abs(b.maxDistance) > Math.abs(a.maxDistance) ? b : a));
    expect(cabinet.maxDistance).toBeGreaterThan(1);
    expect(cabinet.meanDistance).toBeGreaterThan(0);
    // what is gone reads negative
    for (const removed of result.regions.filter((r) => r.side === 'reference')) expect(removed.maxDistance).toBeLessThan(0);
    expect(result).toMatchObject({ cameraCount: 0, referenceCameraCount: 0 });

    expect(result.valuesPath).toBe(`models/${capture.uuid}/changes/${reference.id}.bin`);
    const stored = await fetch(await server.service.files.getDownloadUrl(result.valuesPath));
    const values = decodeChangeValues(new Uint8Array(await stored.arrayBuffer()));
    expect(values.distances).toHaveLength(pair.capture.count);
    expect(values.levelOfDetection).toBeCloseTo(result.levelOfDetection, 6);
    const map = await getChangeMap(server.service.catalog, reference.id, capture.id);
    expect(map).toMatchObject({ modelId: capture.id, referenceModelId: reference.id, valuesPath: result.valuesPath });
    expect(map?.regions).toHaveLength(result.regions.length);
    expect(result.accepted).toBeNull();
    expect(await getAlignment(server.service.catalog, reference.id, capture.id)).toBeNull();
  });

  it("--accept stores the registration as the pair's 'icp' alignment; the map stays up to date and the next run starts from it", async () => {
    const result = await ok<Changes>(['models', 'changes', 'CHG-2026', '--project', 'CHG-001', '--accept']);
    expect(result.startedFrom).toBeNull();
    expect(result.accepted).toMatchObject({
      id: `${reference.id}__${capture.id}`,
      method: 'icp',
      matrix: result.registration.matrix,
      rmsError: result.registration.rmsError,
      pairs: [],
      previous: null,
      created_by: 'cli',
    });
    const catalog = server.service.catalog;
    const alignment = await getAlignment(catalog, reference.id, capture.id);
    expect(alignment).toMatchObject({ method: 'icp', matrix: result.registration.matrix });
    const map = await getChangeMap(catalog, reference.id, capture.id);
    const [captureNow, referenceNow] = [await catalog.get('models', capture.id), await catalog.get('models', reference.id)];
    expect(changeMapOutOfDate(map!, captureNow!, referenceNow!, alignment)).toBeNull();

    // computed again: ICP starts from the accepted registration, already in place
    const again = await ok<Changes>(['models', 'changes', 'CHG-2026', '--project', 'CHG-001']);
    expect(again.startedFrom).toMatchObject({ method: 'icp', matrix: result.registration.matrix });
    expect(again.registration.rmsError).toBeLessThan(0.02);
    expect(again.accepted).toBeNull();
    expect((await getAlignment(catalog, reference.id, capture.id))?.method).toBe('icp');
  });

  it('measures a mesh-only capture by points sampled on its GLB', async () => {
    const result = await ok<Changes>(['models', 'changes', 'CHG-MESH', '--project', 'CHG-001']);
    expect(result).toMatchObject({ captureKind: 'mesh', referenceKind: 'splat', startedFrom: null, cameraCount: 0 });
    expect(result.registration.rmsError).toBeLessThan(0.03);
    expect(result.regions).toEqual([]);
    expect(result.pointCount).toBe(result.captureCount);
    const stored = await getChangeMap(server.service.catalog, reference.id, mesh.id);
    expect(stored).toMatchObject({ pointCount: result.captureCount, computed_by: 'cli' });
    expect(stored!.inputs.modelFile).toContain(mesh.files.glbPath!);
    const values = await fetch(await server.service.files.getDownloadUrl(result.valuesPath));
    expect(decodeChangeValues(new Uint8Array(await values.arrayBuffer())).distances).toHaveLength(result.captureCount);

    const { stdout } = await runCliOk(['models', 'changes', 'CHG-MESH', '--project', 'CHG-001'], { env, timeout: 120_000 });
    expect(stdout).toContain("Outside of the surfaces (positive): the capture's along its GLB's triangle normals");
    expect(stdout).toContain('points sampled on the GLB in the capture');
    expect(stdout).toContain('the splat turned 180° about x onto the GLB');
  }, 120_000);

  it('refuses a capture whose project has no reference and a model compared with itself; nothing is stored', async () => {
    expect((await fails(['models', 'changes', 'NRF-2026', '--project', 'NRF-001'])).message).toBe(ChangesMessages.noReference('NRF-2026'));
    expect((await fails(['models', 'changes', 'CHG-2025', '--project', 'CHG-001'])).message).toBe(ChangesMessages.sameModel);
    const maps = await server.service.catalog.query('changeMaps');
    expect(maps.map((m) => m.modelId)).not.toContain(
      (await server.service.catalog.query('models', { where: [['publicId', '==', 'NRF-2026']] }))[0]!.id,
    );
  });
});
