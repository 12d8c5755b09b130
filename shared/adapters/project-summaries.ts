/**
 * Project summaries (`CatalogPort.projectSummaries`, `subscribeProjectSummaries`) for backends
 * that can count but cannot group: the two Firebase adapters. Firestore has no grouped count and
 * no live aggregation, so a summary is read with one `count()` aggregation per project (the
 * caller's visibility applies: the web adapter adds `visible == true` for a non-admin, as
 * firestore.rules require), one query of the models flagged `isReference` (about one per project)
 * and a get of any reference named by a project and not among them. Nothing here reads every
 * model: the reads grow with the projects.
 *
 * Live updates are read again on signals, since no listener can count:
 * - the projects (a listener on the collection: a project added, removed or given another reference);
 * - the model written last (a listener on the models ordered by `last_updated`, newest first,
 *   limit 1; the workflows stamp `last_updated` on every model they add, edit, move or hide), so a
 *   model added or changed elsewhere is seen at once;
 * - the number of models the caller may read (one `count()` every `pollMs`): a model deleted, or
 *   hidden from a non-admin, leaves no document to listen to, and is seen at the next poll.
 * Pure TypeScript over the port: no SDK here.
 */
import { sortModelsByPublicId } from '../order.js';
import type { CatalogPort, ProjectSummary, WithId } from '../ports/catalog.js';
import type { Unsubscribe } from '../ports/identity.js';
import { findReferenceModel, hasReferenceModel, thumbnailPathOf } from '../projects.js';
import type { ModelData, ProjectData } from '../types.js';

/** Count queries in flight at once while reading summaries. */
const COUNT_CONCURRENCY = 16;

/** Default interval of the model-count poll of {@link subscribeProjectSummariesByCounts}, ms. */
export const SUMMARY_POLL_MS = 30_000;

/** Runs `work` on every item, at most `limit` at once; results in input order. */
async function mapLimit<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const index = next;
      next += 1;
      results[index] = await work(items[index] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/**
 * Reads the summary of every project the caller may read through a catalog port's counts and
 * reads ({@link ProjectSummary}; the rule of `summarizeProjects` in `shared/projects.ts`): a
 * project's count is `count('models', projectId == id)` as the caller counts, and its reference
 * is the model its `reference_model_id` names (read with `get`, kept only when it belongs to the
 * project and the caller may read it) or else the first, in publicId order, of its models
 * flagged `isReference`.
 * @param catalog the adapter's own port (its visibility rules apply to every read)
 * @returns one summary per project, ordered by project id
 * @throws what the port's reads throw (`permission-denied`, `unauthenticated`, network codes)
 */
export async function projectSummariesByCounts(catalog: Pick<CatalogPort, 'query' | 'count' | 'get'>): Promise<ProjectSummary[]> {
  const [projects, flagged] = await Promise.all([
    catalog.query('projects'),
    catalog.query('models', { where: [['isReference', '==', true]] }),
  ]);
  const flaggedByProject = new Map<string, WithId<ModelData>[]>();
  for (const model of sortModelsByPublicId(flagged)) {
    if (typeof model.projectId !== 'string') continue;
    const list = flaggedByProject.get(model.projectId);
    if (list) list.push(model);
    else flaggedByProject.set(model.projectId, [model]);
  }
  const sorted = [...projects].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return mapLimit(sorted, COUNT_CONCURRENCY, async (project: WithId<ProjectData>): Promise<ProjectSummary> => {
    const own = flaggedByProject.get(project.id) ?? [];
    const [modelCount, named] = await Promise.all([
      catalog.count('models', { where: [['projectId', '==', project.id]] }),
      namedReference(catalog, project, own),
    ]);
    const reference = findReferenceModel(project, named ? [named, ...own] : own);
    return { projectId: project.id, modelCount, referenceThumbnailPath: reference ? thumbnailPathOf(reference) : null };
  });
}

/** The model a project's `reference_model_id` names, when it belongs to the project and the caller may read it; else null. */
async function namedReference(
  catalog: Pick<CatalogPort, 'get'>,
  project: WithId<ProjectData>,
  flagged: readonly WithId<ModelData>[],
): Promise<WithId<ModelData> | null> {
  if (!hasReferenceModel(project)) return null;
  const id = project.reference_model_id as string;
  const model = flagged.find((m) => m.id === id) ?? (await catalog.get('models', id));
  return model && model.projectId === project.id ? model : null;
}

/** Options of {@link subscribeProjectSummariesByCounts}. */
export interface SummaryPollOptions {
  /** How often the number of readable models is polled, ms (default {@link SUMMARY_POLL_MS}). */
  pollMs?: number;
  /**
   * How long one read of the summaries, or one poll, may take before it counts as failed, ms
   * (default {@link SUMMARY_READ_TIMEOUT_MS}).
   */
  readTimeoutMs?: number;
}

/**
 * Default of {@link SummaryPollOptions.readTimeoutMs}, ms. A read that never answers (a stream the
 * SDK is still re-opening) must not hold the subscription: later signals would only queue behind it.
 */
export const SUMMARY_READ_TIMEOUT_MS = 60_000;

/** `promise`, or a rejection after `ms` when it has not settled by then. */
function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Live project summaries for a backend that cannot count live (see the module comment): the
 * summaries are read once both listeners have answered, then again on each later change they
 * report and whenever the polled model count changes; `onNext` is called only when the summaries
 * changed. Reads overlapping one under way coalesce into one more read.
 * @param catalog the adapter's own port (listeners and counts as the caller)
 * @param read reads the summaries ({@link projectSummariesByCounts} over the same port)
 * @param onNext the summaries, first and on every change
 * @param onError a failure of a listener or of the first read; the subscription ends then. A
 *   later read that fails (or takes longer than `readTimeoutMs`) keeps the last summaries and is
 *   tried again at the next poll, whether or not the count changed meanwhile.
 * @returns stops the listeners and the poll
 */
export function subscribeProjectSummariesByCounts(
  catalog: Pick<CatalogPort, 'subscribe' | 'count'>,
  read: () => Promise<ProjectSummary[]>,
  onNext: (summaries: ProjectSummary[]) => void,
  onError: ((error: Error) => void) | undefined,
  options: SummaryPollOptions = {},
): Unsubscribe {
  let closed = false;
  let running = false;
  let again = false;
  let last: string | null = null;
  let total: number | null = null;
  // a read failed: the summaries shown may be old, whatever the count says
  let stale = false;
  let polling = false;
  const readTimeoutMs = options.readTimeoutMs ?? SUMMARY_READ_TIMEOUT_MS;
  const answered = { projects: false, models: false };
  const stops: Unsubscribe[] = [];
  let timer: ReturnType<typeof setInterval> | null = null;
  const stop = (): void => {
    closed = true;
    if (timer) clearInterval(timer);
    timer = null;
    for (const end of stops.splice(0)) end();
  };
  const fail = (error: Error): void => {
    if (closed) return;
    stop();
    onError?.(error);
  };
  const refresh = async (): Promise<void> => {
    if (closed || !answered.projects || !answered.models) return;
    if (running) {
      again = true;
      return;
    }
    running = true;
    try {
      do {
        again = false;
        // the model count the poll compares with, read with the summaries
        const [summaries, count] = await withTimeout(
          Promise.all([read(), catalog.count('models')]),
          readTimeoutMs,
          'reading the project summaries',
        );
        if (closed) return;
        total = count;
        stale = false;
        const key = JSON.stringify(summaries);
        if (key !== last) {
          last = key;
          onNext(summaries);
        }
      } while (again && !closed);
    } catch (error) {
      stale = true;
      if (last === null) fail(error instanceof Error ? error : new Error(String(error)));
    } finally {
      running = false;
    }
  };
  const signal = (which: keyof typeof answered) => (): void => {
    answered[which] = true;
    void refresh();
  };
  stops.push(catalog.subscribe('projects', undefined, signal('projects'), fail));
  if (!closed) stops.push(catalog.subscribe('models', { orderBy: [['last_updated', 'desc']], limit: 1 }, signal('models'), fail));
  if (!closed) {
    timer = setInterval(() => {
      if (polling) return;
      polling = true;
      withTimeout(catalog.count('models'), readTimeoutMs, 'counting the models')
        .then(
          // `total` is the count of the last read that succeeded: it moves only with the summaries
          (count) => {
            if (stale || (total !== null && count !== total)) void refresh();
          },
          () => undefined, // a failed poll (offline) tells nothing; the next one tries again
        )
        .finally(() => {
          polling = false;
        });
    }, options.pollMs ?? SUMMARY_POLL_MS);
  }
  return stop;
}
