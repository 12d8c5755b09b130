/**
 * The embedded server computes change maps by itself. When a write changes what a capture's change
 * map is computed from — a capture added to a project, its splat file replaced or its camera
 * metadata added, replaced or deleted (its stamp, `changeMapInputFile`, changed), a project's
 * reference model set or changed (or its stamp changed: then every other model of the project),
 * the pair's alignment saved or deleted — the capture is queued. One job runs at a time: it reads the
 * pair as `catalog models changes` does (the project's reference, both records, the alignment),
 * leaves a pair whose stored map is up to date (`changeMapOutOfDate` null), compares both splat
 * files, with their camera metadata where they have it, in a worker thread (so the server keeps answering) and stores the map through the same
 * code as the CLI (`computeAndStoreChangeMap`, over this server's own API with its service key,
 * so every rule applies), `computed_by` 'server'. A failure is recorded with its message and never
 * reaches the request that caused the job; a mesh-only model is compared by its GLB; a model with
 * neither a splat file nor a GLB is skipped with the reason. Each capture's latest job (queued, computing with its fraction, done, failed, skipped) is
 * kept in memory until the server stops and read through `routes.changeMapJob` (a server that starts
 * queues every capture of a project with a reference again, so none is left behind, and a map
 * stored by an earlier version of the maths, out of date by its stamps, is computed again); every change of a
 * job is announced on the event stream as a change of `changeMaps`, so clients read it again.
 */
import { changeMapOutOfDate, changeMapInputFile } from '@shared/change-map-document.js';
import { AppError, errorMessage, ErrorCode } from '@shared/errors.js';
import type { Backend } from '@shared/ports/index.js';
import type { ChangeMapJob } from '@shared/ports/jobs.js';
import type { ModelData } from '@shared/types.js';
import { getChangeMap } from '@shared/workflows/change-maps.js';
import { compareCaptureFilesInWorker } from '../lib/change-map/compare-in-worker.js';
import {
  changeMapPair,
  computeAndStoreChangeMap,
  projectReference,
  comparedPathOf,
  type ChangeMapPair,
  type ChangeMapStep,
} from '../lib/change-map/store-change-map.js';
import type { DocumentStore } from './documents/store.js';
import type { WrittenDoc } from './documents/query-cache.js';
import type { FileStore } from './file-store.js';

/**
 * How far a job is when each step starts (0 to 1): the shares of a comparison's wall time on the
 * generated tower pairs of 50,000 Gaussians (reading about 4 %, the ICP about 40 %, the change map
 * the rest), then storing.
 */
const STEP_FRACTIONS: Record<ChangeMapStep, number> = {
  downloading: 0,
  reading: 0.02,
  registering: 0.06,
  measuring: 0.45,
  storing: 0.95,
};

/** A kept job and whether it must run again once it ends (its inputs changed while it computed). */
type Entry = ChangeMapJob & { again: boolean };

/** What the jobs need of the server. */
export interface ChangeMapJobsDeps {
  /** The document store: which models a project has, when a trigger concerns every capture of it. */
  documents: DocumentStore;
  /** The file store: where a stored splat lies on disk. */
  files: FileStore;
  /** Announces that jobs changed (the server publishes a change of `changeMaps` on its event stream). */
  publish: () => void;
  /** Logs a job that failed (the server's logger); default none. */
  log?: (message: string) => void;
}

/** The text of a model record's field, or null. */
const text = (data: Record<string, unknown> | null, field: string): string | null => {
  const value = data?.[field];
  return typeof value === 'string' && value !== '' ? value : null;
};

/** The stamp of what a change map would read of a model record: its compared file (splat, else GLB), camera metadata, maths' version (null for no record). */
const stampOf = (data: Record<string, unknown> | null): string | null =>
  data === null ? null : changeMapInputFile(data as Pick<ModelData, 'files' | 'uploaded_at'>);

/** The change-map jobs of one embedded server. */
export class ChangeMapJobs {
  private readonly entries = new Map<string, Entry>();
  private readonly queue: string[] = [];
  private backend: Pick<Backend, 'catalog' | 'files' | 'close'> | null = null;
  private draining: Promise<void> | null = null;
  private closed = false;
  private readonly stop = new AbortController();

  constructor(private readonly deps: ChangeMapJobsDeps) {}

  /**
   * Starts running jobs: from now on they read and write through `backend` (a client of this
   * server's own API with its service key, made once the server listens). Queues every capture of
   * every project that has a reference model, since queued jobs do not outlive a server.
   * @param backend the service client; closed by {@link close}
   */
  start(backend: Pick<Backend, 'catalog' | 'files' | 'close'>): void {
    this.backend = backend;
    // Jobs live in memory: what a stopped server left queued (or never got to) is queued again,
    // every capture of a project with a reference; a map still up to date ends at once, unread
    // (one stored by another version of the maths is not: its stamps say so).
    try {
      for (const project of this.deps.documents.query('projects', {})) {
        const referenceId = text(project.data, 'reference_model_id');
        if (referenceId !== null) this.enqueueProject(project.id, referenceId);
      }
    } catch (error) {
      this.deps.log?.(`Change-map jobs: the captures to look at could not be listed: ${errorMessage(error)}`);
    }
    this.drain();
  }

  /**
   * Queues the captures whose change maps the committed writes concern (see the module's
   * comment). Never throws: a job's trouble is its own.
   * @param written the documents one commit wrote, each before and after (null: absent)
   */
  written(written: readonly WrittenDoc[]): void {
    try {
      for (const doc of written) this.trigger(doc);
    } catch (error) {
      this.deps.log?.(`Change-map jobs: a write could not be looked at: ${errorMessage(error)}`);
    }
  }

  /** The captures one written document concerns. */
  private trigger({ collection, id, before, after }: WrittenDoc): void {
    if (collection === 'alignments') {
      const modelId = text(after ?? before, 'modelId');
      if (modelId !== null) this.enqueue(modelId);
    } else if (collection === 'models') {
      if (after === null) {
        this.forget(id);
        return;
      }
      const projectId = text(after, 'projectId');
      // its splat file or camera metadata changed, or it moved to another project
      const fileChanged = stampOf(before) !== stampOf(after) || text(before, 'projectId') !== projectId;
      const reference = after.isReference === true;
      if (reference && (fileChanged || before?.isReference !== true)) {
        if (projectId !== null) this.enqueueProject(projectId, id);
      } else if (fileChanged && projectId !== null) {
        this.enqueue(id);
      }
    } else if (collection === 'projects') {
      const referenceId = text(after, 'reference_model_id');
      if (after !== null && referenceId !== null && referenceId !== text(before, 'reference_model_id'))
        this.enqueueProject(id, referenceId);
    }
  }

  /** Queues every model of a project but its reference. */
  private enqueueProject(projectId: string, referenceId: string): void {
    for (const model of this.deps.documents.query('models', { where: [['projectId', '==', projectId]] })) {
      if (model.id !== referenceId) this.enqueue(model.id);
    }
  }

  /**
   * Queues a capture's job: nothing when it is queued already; once more after the current run
   * when it is computing (its inputs may have changed meanwhile); else a new job at the end of the queue.
   */
  private enqueue(modelId: string): void {
    if (this.closed) return;
    const entry = this.entries.get(modelId);
    if (entry?.state === 'queued') return;
    if (entry?.state === 'computing') {
      entry.again = true;
      return;
    }
    this.entries.set(modelId, {
      modelId,
      referenceModelId: null,
      state: 'queued',
      fraction: 0,
      message: null,
      computations: entry?.computations ?? 0,
      updated_at: new Date().toISOString(),
      again: false,
    });
    this.queue.push(modelId);
    this.deps.publish();
    this.drain();
  }

  /** Drops what is kept of a capture (deleted, or nothing to compare it with). */
  private forget(modelId: string): void {
    if (this.entries.delete(modelId)) this.deps.publish();
  }

  /** Changes a job's state and announces it. */
  private update(entry: Entry, change: Partial<ChangeMapJob>): void {
    Object.assign(entry, change, { updated_at: new Date().toISOString() });
    this.deps.publish();
  }

  /** Runs the queued jobs one at a time, until the queue is empty (one runner at a time). */
  private drain(): void {
    if (this.draining !== null || this.backend === null || this.closed || this.queue.length === 0) return;
    this.draining = this.runQueue().finally(() => {
      this.draining = null;
      // a job queued between the last run's end and now
      this.drain();
    });
  }

  /** Takes the jobs off the queue in order and runs each to its end. */
  private async runQueue(): Promise<void> {
    while (!this.closed) {
      const modelId = this.queue.shift();
      if (modelId === undefined) return;
      await this.run(modelId);
    }
  }

  /** Runs one capture's job; records how it ended. */
  private async run(modelId: string): Promise<void> {
    const entry = this.entries.get(modelId);
    if (entry === undefined || entry.state !== 'queued') return;
    this.update(entry, { state: 'computing', fraction: 0 });
    try {
      const pair = await this.plan(entry);
      if (pair === null) return;
      const backend = this.backend!;
      const diskPath = (model: ChangeMapPair['capture']) => this.deps.files.diskPath(comparedPathOf(model));
      // the camera metadata, where a model has one, orients its surfaces (positive = towards the cameras)
      const camerasPath = (model: ChangeMapPair['capture']) =>
        model.files?.cameraMetadata ? this.deps.files.diskPath(model.files.cameraMetadata) : null;
      const { record } = await computeAndStoreChangeMap(
        backend,
        pair,
        {
          capture: diskPath(pair.capture),
          reference: diskPath(pair.reference),
          captureCameras: camerasPath(pair.capture),
          referenceCameras: camerasPath(pair.reference),
        },
        {
          computedBy: 'server',
          compare: (capture, reference, initial, names, onStep, cameras) =>
            compareCaptureFilesInWorker(capture, reference, initial, names, onStep, cameras, this.stop.signal),
          onStep: (step) => this.update(entry, { fraction: STEP_FRACTIONS[step] }),
          // another writer (the CLI, an import) may have stored the same map meanwhile: leave it
          storeIf: async () => !(await this.upToDate(pair)),
        },
      );
      this.update(entry, { state: 'done', fraction: 1, message: null, computations: entry.computations + (record === null ? 0 : 1) });
    } catch (error) {
      if (this.closed) return;
      this.deps.log?.(`Change map of model ${modelId}: ${errorMessage(error)}`);
      this.update(entry, { state: 'failed', message: errorMessage(error) });
    } finally {
      // its inputs changed while it ran: once more (a map found up to date is not computed again)
      if (entry.again && !this.closed) {
        entry.again = false;
        this.enqueue(modelId);
      }
    }
  }

  /**
   * What a job has to compute: the pair, read now; or null when there is nothing to compute (the
   * capture gone, no reference to compare it with, a map up to date: the entry says so).
   */
  private async plan(entry: Entry): Promise<ChangeMapPair | null> {
    const { catalog } = this.backend!;
    const capture = await catalog.get('models', entry.modelId);
    const reference = capture === null ? null : await projectReference(catalog, capture);
    if (capture === null || reference === null || reference.id === capture.id) {
      // nothing to compare: no job to show
      this.forget(entry.modelId);
      return null;
    }
    entry.referenceModelId = reference.id;
    let pair: ChangeMapPair;
    try {
      pair = await changeMapPair(catalog, capture, reference);
    } catch (error) {
      if (!(error instanceof AppError && error.code === ErrorCode.FailedPrecondition)) throw error;
      // a model with neither a splat file nor a GLB: nothing a change map can compare
      this.update(entry, { state: 'skipped', fraction: 0, message: error.message });
      return null;
    }
    if (await this.upToDate(pair)) {
      this.update(entry, { state: 'done', fraction: 1, message: null });
      return null;
    }
    return pair;
  }

  /** True when the pair's stored map describes it as it is (`changeMapOutOfDate` null). */
  private async upToDate({ capture, reference, alignment }: ChangeMapPair): Promise<boolean> {
    const stored = await getChangeMap(this.backend!.catalog, reference.id, capture.id);
    return stored !== null && changeMapOutOfDate(stored, capture, reference, alignment) === null;
  }

  /**
   * A capture's latest job.
   * @param modelId the capture's id
   * @returns a copy of the job, or null when none was queued since the server started (or it was dropped)
   */
  job(modelId: string): ChangeMapJob | null {
    const entry = this.entries.get(modelId);
    if (entry === undefined) return null;
    const { again: _again, ...job } = entry;
    return job;
  }

  /**
   * Stops: queued jobs are dropped, the running comparison's worker is stopped, and the service
   * client closed once the running job has ended.
   */
  async close(): Promise<void> {
    this.closed = true;
    this.queue.length = 0;
    this.stop.abort();
    await this.draining?.catch(() => undefined);
    await this.backend?.close().catch(() => undefined);
  }
}
