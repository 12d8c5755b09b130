/**
 * The stored-file checks' ports (`shared/ports/stored-file-checks.ts`) in memory, for the
 * workflow's tests: a bucket that stores any bytes (as Cloud Storage does: no check on the way
 * in), each write of a path a new generation; the checks' records in a map; models read and
 * changed through a catalog port's transactions (the memory backend's, as the service principal).
 *
 * Pure TypeScript (no Node modules).
 */
import { bytesSource } from '@shared/content-check/byte-source.js';
import type { ByteSource } from '@shared/content-check/byte-source.js';
import { AppError, ErrorCode } from '@shared/errors.js';
import type { CatalogPort } from '@shared/ports/catalog.js';
import type { ModelChecksWrite, StoredFileCheck, StoredFileChecksPort, StoredObjectVersion } from '@shared/ports/stored-file-checks.js';
import type { Model } from '@shared/types.js';

/** The in-memory stored-file checks: the port plus what a test does to the bucket and reads back. */
export interface MemoryStoredFileChecks extends StoredFileChecksPort {
  /**
   * Stores bytes at a path as Cloud Storage does: whatever they are, as a new generation.
   * @returns the version stored (what a finalize event reports)
   */
  store(path: string, bytes: Uint8Array): StoredObjectVersion;
  /** Deletes what is stored at a path (no error when nothing is). */
  remove(path: string): void;
  /** The folders whose download links were revoked, in order. */
  readonly revoked: readonly string[];
  /** Every recorded check, by path. */
  readonly records: ReadonlyMap<string, StoredFileCheck>;
}

/**
 * Creates the in-memory stored-file checks.
 * @param catalog a catalog port acting as the service principal (reads hidden models, writes any field)
 * @param options.firstGeneration the generation of the first write (default 1000; each write adds 1)
 */
export function createMemoryStoredFileChecks(catalog: CatalogPort, options: { firstGeneration?: bigint } = {}): MemoryStoredFileChecks {
  const objects = new Map<string, { generation: string; bytes: Uint8Array }>();
  const records = new Map<string, StoredFileCheck>();
  const revoked: string[] = [];
  let nextGeneration = options.firstGeneration ?? 1000n;
  const gone = (path: string): AppError => new AppError(ErrorCode.ObjectNotFound, `No file at ${path}`, { context: { path } });

  return {
    revoked,
    records,
    store(path, bytes) {
      const generation = String(nextGeneration);
      nextGeneration += 1n;
      objects.set(path, { generation, bytes: bytes.slice() });
      return { path, generation, size: bytes.byteLength };
    },
    remove(path) {
      objects.delete(path);
    },
    async stat(path) {
      const object = objects.get(path);
      return object ? { path, generation: object.generation, size: object.bytes.byteLength } : null;
    },
    open(object, name): ByteSource {
      return {
        name,
        size: object.size,
        async read(offset, length) {
          const stored = objects.get(object.path);
          if (!stored || stored.generation !== object.generation) throw gone(object.path);
          return bytesSource(stored.bytes, name).read(offset, length);
        },
      };
    },
    async recordedChecks(paths) {
      const found = new Map<string, StoredFileCheck>();
      for (const path of paths) {
        const check = records.get(path);
        if (check) found.set(path, { ...check });
      }
      return found;
    },
    async recordCheck(check) {
      const recorded = records.get(check.path);
      if (recorded && BigInt(recorded.generation) >= BigInt(check.generation)) return false;
      records.set(check.path, { ...check });
      return true;
    },
    async readModel(modelId) {
      return (await catalog.get('models', modelId)) as Model | null;
    },
    async updateModel(modelId, pathsOf, decide): Promise<ModelChecksWrite | null> {
      return catalog.transaction(async (tx) => {
        const model = (await tx.get('models', modelId)) as Model | null;
        if (model === null) return null;
        const checks = new Map<string, StoredFileCheck>();
        for (const path of pathsOf(model)) {
          const check = records.get(path);
          if (check) checks.set(path, { ...check });
        }
        const update = decide(model, checks);
        if (update === null) return null;
        tx.update('models', modelId, update);
        return { before: model, update };
      });
    },
    async revokeDownloadUrls(folder) {
      revoked.push(folder);
      return [...objects.keys()].filter((path) => path.startsWith(folder)).length;
    },
  };
}
