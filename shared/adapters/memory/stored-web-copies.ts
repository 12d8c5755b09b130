/**
 * The stored web-sized copies' ports (`shared/ports/stored-web-copies.ts`) in memory, for the
 * workflow's tests: built on the in-memory stored-file checks (its bucket, its checks' records,
 * its catalog), with the copies' records in a map and a copy maker the test gives (the real one,
 * a worker thread over files, lives in cli/src/lib/web-splat.ts).
 *
 * Pure TypeScript (no Node modules).
 */
import { readAll } from '@shared/content-check/byte-source.js';
import { fileNameOf, parseModelPath, webSplatPath, webSplatPreviewPath } from '@shared/paths.js';
import type { CatalogPort } from '@shared/ports/catalog.js';
import type { StoredObjectVersion } from '@shared/ports/stored-file-checks.js';
import type { StoredWebCopiesPort, StoredWebCopy } from '@shared/ports/stored-web-copies.js';
import type { Model } from '@shared/types.js';
import type { MemoryStoredFileChecks } from './stored-file-checks.js';

/**
 * Makes a copy's bytes from a splat's bytes.
 * @returns the copy and the preview (null for none)
 * @throws AppError `invalid-argument` for a splat it cannot read
 */
export type MemoryWebSplatMaker = (splat: Uint8Array, name: string) => Promise<{ copy: Uint8Array; preview: Uint8Array | null }>;

/** The in-memory stored web-sized copies: the port plus what a test reads back. */
export interface MemoryStoredWebCopies extends StoredWebCopiesPort {
  /** Every recorded copy, by source path. */
  readonly records: ReadonlyMap<string, StoredWebCopy>;
  /** The generations the copy maker was run on, in order (`path@generation`). */
  readonly made: readonly string[];
}

/**
 * Creates the in-memory stored web-sized copies.
 * @param bucket the in-memory stored-file checks (its bucket and checks' records are shared)
 * @param catalog the same catalog port, as the service principal
 * @param maker the copy maker
 * @param options.beforeStore called after the copy is made and before it is stored (a test
 *   replaces the splat there, as a write during the copy would)
 */
export function createMemoryStoredWebCopies(
  bucket: MemoryStoredFileChecks,
  catalog: CatalogPort,
  maker: MemoryWebSplatMaker,
  options: { beforeStore?: (source: StoredObjectVersion) => void } = {},
): MemoryStoredWebCopies {
  const records = new Map<string, StoredWebCopy>();
  const made: string[] = [];
  return {
    records,
    made,
    stat: (path) => bucket.stat(path),
    recordedChecks: (paths) => bucket.recordedChecks(paths),
    readModel: (modelId) => bucket.readModel(modelId),
    async recordedWebCopy(source) {
      const record = records.get(source);
      return record ? structuredClone(record) : null;
    },
    async recordWebCopy(record) {
      const recorded = records.get(record.source);
      if (recorded && BigInt(recorded.sourceGeneration) >= BigInt(record.sourceGeneration)) return false;
      records.set(record.source, structuredClone(record));
      return true;
    },
    async makeWebSplat(source) {
      let bytes: Uint8Array;
      try {
        bytes = await readAll(bucket.open(source, fileNameOf(source.path)));
      } catch {
        return null;
      }
      made.push(`${source.path}@${source.generation}`);
      const result = await maker(bytes, fileNameOf(source.path));
      options.beforeStore?.(source);
      if ((await bucket.stat(source.path))?.generation !== source.generation) return null;
      const uuid = parseModelPath(source.path)!.uuid;
      const copy = bucket.store(webSplatPath(uuid), result.copy);
      const preview = result.preview === null ? null : bucket.store(webSplatPreviewPath(uuid), result.preview);
      if (preview === null) bucket.remove(webSplatPreviewPath(uuid));
      return { copy, preview };
    },
    async updateModel(modelId, source, decide) {
      return catalog.transaction(async (tx) => {
        const model = (await tx.get('models', modelId)) as Model | null;
        if (model === null) return null;
        const update = decide(model, records.get(source) ?? null);
        if (update === null) return null;
        tx.update('models', modelId, update);
        return update;
      });
    },
  };
}
