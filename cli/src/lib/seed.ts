/**
 * `catalog seed`: the demo catalog, idempotent. Accounts are found by email, projects by
 * structure_id, models by publicId; only what is missing is created, so running it again creates
 * nothing (and generates no files). Models go through the `addModel` workflow, so they have real
 * files and sizes at the catalog's storage paths (`models/{uuid}/model.ply|model.glb`,
 * `camera-metadata.json`, `images/…`, `images_thumbnails/…`). What the files show, for the
 * built-in viewer (demo-data/): a lattice tower as a splat (y-down, as 3DGS writes it) and as a
 * GLB that coincide once the viewer turns the splat; drone flights as camera metadata with the
 * photo of each camera rendered from its pose; a changed second capture of the tower; a steel
 * footbridge GLB. Generating them takes a few seconds (most of it the reference survey's 50,000
 * Gaussians and their photos). The demo models get their scale (`metadata.unitsPerMetre`) and a few findings
 * (created with the finding workflow, so `metadata.annotationsCount` is exact; only on a
 * model that never had one, `metadata.annotationsSeq` unset, so a re-run adds none). Files are
 * seeded only where there is file storage
 * (`backend.capabilities.fileStorage`): on the Firebase emulators without the Storage emulator
 * the models are records without files, and the run says so ({@link NO_FILE_STORAGE_MESSAGE}).
 * The demo's changed capture (TWR-001-2025-09) gets its change map against the project's
 * reference, so the viewer's 'Changes' mode has something to show on the first run: the embedded
 * server computes it by itself once the capture is stored (the seed waits for the server's jobs of
 * the demo models, so it returns with nothing left running), and where no server computes change
 * maps (Firebase), or the stored map is missing or out of date, the seed computes and stores it
 * through the same code (`computeStoredChangeMap`).
 */
import { changeMapOutOfDate } from '@shared/change-map-document.js';
import { errorMessage } from '@shared/errors.js';
import { SERVER_TIMESTAMP } from '@shared/ports/catalog.js';
import type { Backend } from '@shared/ports/index.js';
import { annotationId } from '@shared/annotations.js';
import type { Model, Role } from '@shared/types.js';
import {
  addModel,
  createAnnotation,
  createProject,
  grantAdmin,
  registerUser,
  setModelVisibility,
  setUnitsPerMetre,
} from '@shared/workflows/index.js';
import type { AddModelInput } from '@shared/workflows/index.js';
import { getChangeMap } from '@shared/workflows/change-maps.js';
import { changeMapPair, computeStoredChangeMap } from './change-map/store-change-map.js';
import { nodeContentPlatform } from './content-platform.js';
import type { DemoModel } from './demo-data/index.js';
import { DEMO_ACCOUNTS, demoFindingInput, demoProjects, makeDemoModelFiles } from './demo-data/index.js';
import type { ProgressReporter } from './progress.js';

/**
 * Printed (and returned as `filesSkipped`) when the backend has no file storage: what was left out
 * and where files can be seeded instead.
 */
export const NO_FILE_STORAGE_MESSAGE =
  'No file storage on this backend (the Firebase emulators without the Storage emulator): models are seeded as records without files. For models with files, seed the embedded backend (`catalog serve`, then `catalog seed`) or run where the Storage emulator runs (.github/workflows/firebase.yml).';

/** What one seeded item became. */
export interface SeedItem {
  kind: 'account' | 'project' | 'model';
  /** Email, structure_id or publicId. */
  key: string;
  id: string;
  created: boolean;
}

/** Result of {@link seedDemoData}. */
export interface SeedResult {
  /** Number of accounts, projects and models created by this run (0 on a re-run). */
  created: number;
  /** Number of findings created by this run on the demo models (0 on a re-run). */
  findings: number;
  items: SeedItem[];
  accounts: { email: string; password: string; role: Role }[];
  /** Why no files were seeded ({@link NO_FILE_STORAGE_MESSAGE}), or null when they were. */
  filesSkipped: string | null;
  /** The demo captures whose change map against their project's reference is stored and up to date (Public IDs). */
  changeMaps: string[];
}

/**
 * Seeds the demo catalog (accounts, projects, models) into a backend, creating only what is
 * missing.
 * @param backend the backend, as the service principal (admin rights)
 * @param options.actorUid uid written as created_by / owner_uid
 * @param options.progress reporter for model uploads (optional)
 * @param options.log human progress lines (optional)
 * @param options.towerGaussians Gaussians of each demo tower capture (default 50,000, `DEMO_REFERENCE_GAUSSIANS`;
 *   see `demoProjects`); only models this run creates get it
 * @returns what exists now and what this run created, and why files were skipped (no file storage)
 * @throws AppError from the workflows (permission, network…)
 */
export async function seedDemoData(
  backend: Backend,
  options: { actorUid: string; progress?: (label: string) => ProgressReporter; log?: (line: string) => void; towerGaussians?: number },
): Promise<SeedResult> {
  const { catalog, identity } = backend;
  const projects = demoProjects(options.towerGaussians);
  const items: SeedItem[] = [];
  const log = options.log ?? (() => undefined);
  const filesSkipped = backend.capabilities.fileStorage ? null : NO_FILE_STORAGE_MESSAGE;
  if (filesSkipped) log(filesSkipped);

  for (const account of DEMO_ACCOUNTS) {
    const [existing] = await catalog.query('users', { where: [['email', '==', account.email]], limit: 1 });
    if (existing) {
      if (account.role === 'admin' && existing.role !== 'admin') await grantAdmin(catalog, existing.id);
      items.push({ kind: 'account', key: account.email, id: existing.id, created: false });
      continue;
    }
    const found = identity.findAccountByEmail ? await identity.findAccountByEmail(account.email) : null;
    if (found) {
      // an account without its user record (an interrupted earlier run): write the record
      await catalog.set('users', found.uid, {
        uid: found.uid,
        email: account.email,
        role: account.role,
        created_at: SERVER_TIMESTAMP,
        registered_at: SERVER_TIMESTAMP,
        created_by: options.actorUid,
      });
      items.push({ kind: 'account', key: account.email, id: found.uid, created: true });
      continue;
    }
    const record = await registerUser(backend, { email: account.email, password: account.password, role: account.role }, options.actorUid);
    log(`Created account ${account.email} (${account.role})`);
    items.push({ kind: 'account', key: account.email, id: record.id, created: true });
  }

  const admin = DEMO_ACCOUNTS.find((a) => a.role === 'admin');
  const author = {
    uid: items.find((i) => i.kind === 'account' && i.key === admin?.email)?.id ?? options.actorUid,
    email: admin?.email ?? null,
  };
  /** Finding ids by demo Public ID and number, for follow-ups. */
  const findingIds = new Map<string, string>();
  let findings = 0;

  for (const project of projects) {
    const [existing] = await catalog.query('projects', { where: [['structure_id', '==', project.structure_id]], limit: 1 });
    let projectId: string;
    if (existing) {
      projectId = existing.id;
      items.push({ kind: 'project', key: project.structure_id, id: projectId, created: false });
    } else {
      projectId = await createProject(catalog, {
        name: project.name,
        structure_id: project.structure_id,
        description: project.description,
        slug: '',
        address: project.address ?? '',
        mapUrl: '',
        lat: project.lat === undefined ? '' : String(project.lat),
        lng: project.lng === undefined ? '' : String(project.lng),
      });
      log(`Created project ${project.structure_id} ${project.name}`);
      items.push({ kind: 'project', key: project.structure_id, id: projectId, created: true });
    }
    for (const model of project.models) {
      const item = await seedModel(backend, projectId, model, { ...options, recordOnly: filesSkipped !== null }, log);
      items.push(item);
      findings += await seedFindings(backend, item.id, model, author, findingIds, log);
    }
  }

  // The server's change-map jobs of the demo models (queued by their uploads) end before the seed does.
  const models = items.filter((i) => i.kind === 'model');
  for (const item of models) await serverJobSettled(backend, item.id);
  const changeMaps: string[] = [];
  if (filesSkipped === null) {
    for (const model of projects.flatMap((p) => p.models).filter((m) => m.changedPair)) {
      const item = models.find((i) => i.key === model.publicId);
      if (item && (await seedChangeMap(backend, item.id, log))) changeMaps.push(model.publicId);
    }
  }

  return {
    created: items.filter((i) => i.created).length,
    findings,
    items,
    accounts: DEMO_ACCOUNTS.map((a) => ({ email: a.email, password: a.password, role: a.role })),
    filesSkipped,
    changeMaps,
  };
}

/** How often the seed asks how a server job stands (ms), and how long it waits at most (ms). */
const JOB_POLL_MS = 100;
const JOB_WAIT_MS = 120_000;

/**
 * Waits until the server's change-map job of a model is neither queued nor computing (at once
 * where no server computes change maps, or none was asked of it), at most {@link JOB_WAIT_MS}.
 */
async function serverJobSettled(backend: Backend, modelId: string): Promise<void> {
  const until = Date.now() + JOB_WAIT_MS;
  for (;;) {
    const job = await backend.jobs.changeMapJob(modelId);
    if (job === null || (job.state !== 'queued' && job.state !== 'computing') || Date.now() > until) return;
    await new Promise((resolve) => setTimeout(resolve, JOB_POLL_MS));
  }
}

/**
 * The change map of a demo capture against its project's reference: left as it is when one is
 * stored and up to date (the server's, or an earlier run's), else computed and stored here. A map
 * that cannot be computed is said in a line, not thrown: the demo catalog stands without it.
 * @returns true when an up-to-date map is stored now
 */
async function seedChangeMap(backend: Backend, modelId: string, log: (line: string) => void): Promise<boolean> {
  const capture = await backend.catalog.get('models', modelId);
  if (capture === null) return false;
  try {
    const pair = await changeMapPair(backend.catalog, capture);
    const stored = await getChangeMap(backend.catalog, pair.reference.id, capture.id);
    if (stored !== null && changeMapOutOfDate(stored, capture, pair.reference, pair.alignment) === null) return true;
    const { outcome } = await computeStoredChangeMap(backend, pair, { computedBy: 'seed' });
    const regions = outcome.map.regions.length;
    log(
      `Computed the change map of ${capture.publicId} against ${pair.reference.publicId}: ${regions} change region${regions === 1 ? '' : 's'}`,
    );
    return true;
  } catch (error) {
    log(`The change map of ${capture.publicId} could not be computed: ${errorMessage(error)}`);
    return false;
  }
}

async function seedModel(
  backend: Backend,
  projectId: string,
  model: DemoModel,
  options: { actorUid: string; progress?: (label: string) => ProgressReporter; recordOnly: boolean },
  log: (line: string) => void,
): Promise<SeedItem> {
  const { catalog } = backend;
  const [existing] = await catalog.query('models', { where: [['publicId', '==', model.publicId]], limit: 1 });
  if (existing) {
    if (model.hidden && existing.visible !== false) await setModelVisibility(catalog, existing.id, false);
    return { kind: 'model', key: model.publicId, id: existing.id, created: false };
  }
  const files = options.recordOnly ? {} : await demoModelFiles(model);

  const progress = options.progress?.(model.publicId);
  try {
    const { model: created } = await addModel(
      backend,
      {
        projectId,
        publicId: model.publicId,
        name: model.name,
        modelType: model.modelType,
        captureDate: model.captureDate,
        setAsReference: model.reference,
        files,
      },
      {
        ...(progress ? { onStage: progress.onStage, onFile: progress.onFile } : {}),
        ownerUid: options.actorUid,
        confirmReplaceReference: async () => false,
        recordOnly: options.recordOnly,
        content: nodeContentPlatform,
      },
    );
    if (model.hidden) await setModelVisibility(catalog, created.id, false);
    log(`Created model ${model.publicId}${model.reference ? ' (reference)' : ''}${model.hidden ? ' (hidden)' : ''}`);
    return { kind: 'model', key: model.publicId, id: created.id, created: true };
  } finally {
    progress?.stop();
  }
}

/**
 * The demo model's scale when it has none, and its findings (demo-data/catalog.ts) when it never had one
 * (`metadata.annotationsSeq` unset), each through the finding workflow (count and number in the
 * same write); a follow-up links to the finding of the earlier survey.
 * @returns how many findings were created
 */
async function seedFindings(
  backend: Backend,
  modelId: string,
  model: DemoModel,
  author: { uid: string; email: string | null },
  findingIds: Map<string, string>,
  log: (line: string) => void,
): Promise<number> {
  const { catalog } = backend;
  const stored: Model | null = await catalog.get('models', modelId);
  if (stored === null) return 0;
  if (model.unitsPerMetre !== undefined && stored.metadata?.unitsPerMetre === undefined) {
    await setUnitsPerMetre(catalog, modelId, model.unitsPerMetre);
  }
  const demo = model.findings ?? [];
  demo.forEach((_, i) => findingIds.set(`${model.publicId}#${i + 1}`, annotationId(modelId, i + 1)));
  if (demo.length === 0 || (stored.metadata?.annotationsSeq ?? 0) > 0) return 0;
  for (const finding of demo) {
    const original = finding.followUpOf ? findingIds.get(`${finding.followUpOf.publicId}#${finding.followUpOf.seq}`) : undefined;
    const originalModel = original?.slice(0, original.lastIndexOf('_'));
    await createAnnotation(catalog, modelId, demoFindingInput(model, finding), author, {
      followUpOf: original && originalModel ? { annotationId: original, modelId: originalModel } : null,
    });
  }
  log(`Created ${demo.length} finding${demo.length === 1 ? '' : 's'} on ${model.publicId}`);
  return demo.length;
}

/** Generates a demo model's files (demo-data/model-files.ts) as the add-model workflow's input. */
async function demoModelFiles(model: DemoModel): Promise<AddModelInput['files']> {
  const generated = await makeDemoModelFiles(model);
  const blob = (bytes: Uint8Array<ArrayBuffer>, type: string) => new Blob([bytes], { type });
  const files: AddModelInput['files'] = {
    images: generated.images.map((f) => ({ name: f.name, source: blob(f.bytes, 'image/png') })),
    thumbnails: generated.thumbnails.map((f) => ({ name: f.name, source: blob(f.bytes, 'image/png') })),
  };
  if (generated.splat) files.splat = { name: generated.splat.name, source: blob(generated.splat.bytes, 'application/octet-stream') };
  if (generated.glb) files.glb = { name: generated.glb.name, source: blob(generated.glb.bytes, 'model/gltf-binary') };
  if (generated.cameraMetadata) files.cameraMetadata = generated.cameraMetadata;
  return files;
}
