/**
 * Importing a catalog export into a backend: after `catalog-import-plan.ts` has read and checked
 * the whole export, the files are sent, then the documents in batches, then the new accounts; on
 * any failure everything written is undone (`catalog-import-undo.ts`).
 */
import { createReadStream } from 'node:fs';
import { basename, join } from 'node:path';
import { AppError, ErrorCode, errorMessage, rewrap } from '@shared/errors.js';
import { EXPORT_COLLECTIONS, EXPORT_FILES_DIR } from '@shared/export-layout.js';
import type { Backend } from '@shared/ports/index.js';
import { NOTHING_IMPORTED, planImport } from './catalog-import-plan.js';
import type { ImportOptions } from './catalog-import-plan.js';
import { BATCH_SIZE, ImportUndo } from './catalog-import-undo.js';
import { ExportFolder, currentIdentity, sameIdentity } from './export-folder.js';

export type { ImportOptions } from './catalog-import-plan.js';

/** What an import wrote. */
export interface ImportResult {
  counts: Record<string, number>;
  /** Bytes sent; files already stored with the same size are not sent again. */
  bytesSent: number;
  bytesSkipped: number;
  /** Emails (or uids) of the accounts new to the catalog that the import makes admins, sorted. */
  newAdmins: string[];
}

/**
 * Imports an export into a backend. An export folder is untrusted input (anyone may have prepared
 * it), so the whole export is read and checked before anything is written, and every problem is
 * reported at once, each naming its document or file, with "nothing was imported":
 * - every file it reads (`catalog.json`, `documents/*.json`, `accounts.json`, `files/**`) is a
 *   regular file reached without a symbolic link, with no other hard link, read from the
 *   descriptor that was checked (`export-folder.ts`); `files/` holds exactly the files the
 *   manifest lists;
 * - the manifest has the layout's keys and types; every stored path follows the server's rule
 *   (`models/{uuid}/…`), once;
 * - every document passes its collection's stored-document check (the schema of live writes) and
 *   is written as its output; the Public ID rule ((`publicIdClashes`, `catalog-import-plan.ts`)) and the projects'
 *   location ranges ((`projectLocationProblems`)) hold; the rules across documents hold
 *   (`importRuleProblems`: references, counts, stored files' models, no existing account made admin);
 * - every stored file has its listed size and passes the content check the server runs on upload;
 * - `accounts.json` (when the backend takes accounts) holds only well-formed accounts that take
 *   over no existing one (`importedAccountsProblems`).
 * Then files are sent (a file already stored at its path with the same size, stored after the
 * export's copy changed, is not sent again), then documents in batches (findings, alignments and
 * change maps after the models), then the new accounts in one all-or-nothing request. When any of it fails
 * (an I/O or server error, the file changed since it was checked, `options.signal` aborted),
 * everything the import wrote is undone ({@link ImportUndo}) before the error is reported.
 * Re-running it sends no file again and rewrites the same documents.
 * @param backend the opened backend (admin or service)
 * @param dir the export folder
 * @param options progress lines, the account API, the abort signal ({@link ImportOptions})
 * @returns counts by collection (and files, accounts), bytes sent and skipped, the new admins
 * @throws AppError `invalid-argument` (not an export; every problem found, nothing written); the
 *   failure's own code when writing failed ("… everything it had written was undone: nothing was
 *   imported", or the things that could not be undone); `storage/canceled` when aborted
 */
export async function importCatalog(
  backend: Pick<Backend, 'catalog' | 'files'>,
  dir: string,
  options: ImportOptions = {},
): Promise<ImportResult> {
  const plan = await planImport(backend, dir, options);
  const folder = await ExportFolder.open(dir);
  const undo = new ImportUndo(backend);
  const counts: Record<string, number> = { files: plan.files.length };
  let bytesSent = 0;
  let bytesSkipped = 0;
  let step = 'starting';
  const stopIfAborted = (): void => {
    if (options.signal?.aborted) throw new AppError(ErrorCode.Canceled, 'The import was interrupted');
  };
  try {
    for (const { entry, identity, mtimeMs } of plan.files) {
      stopIfAborted();
      const existing = plan.storedFiles.get(entry.path);
      const storedAt = existing?.updated ? Date.parse(existing.updated) : Number.NaN;
      if (existing && existing.size === entry.size && storedAt >= mtimeMs) {
        bytesSkipped += entry.size;
        continue;
      }
      step = `sending ${entry.path}`;
      if (existing) await undo.keepPrevious(existing);
      else undo.created(entry.path);
      const rel = `${EXPORT_FILES_DIR}/${entry.path}`;
      const file = await folder.openFile(rel);
      try {
        const changed = (): AppError =>
          new AppError(ErrorCode.InvalidArgument, `${rel} changed after it was checked`, { context: { path: entry.path } });
        if (!sameIdentity(file.identity, identity)) throw changed();
        // Read through the checked descriptor (`/proc/self/fd/N`) where the system names it.
        const readPath = file.descriptorPath ?? join(folder.root, ...rel.split('/'));
        await backend.files.upload(
          entry.path,
          { size: entry.size, input: createReadStream(readPath), name: basename(entry.path) },
          { ...(entry.contentType ? { contentType: entry.contentType } : {}), ...(options.signal ? { signal: options.signal } : {}) },
        );
        if (!sameIdentity(await currentIdentity(file), identity)) throw changed();
      } finally {
        await file.close();
      }
      bytesSent += entry.size;
      options.log?.(`imported ${entry.path}`);
    }
    for (const collection of EXPORT_COLLECTIONS) {
      const list = plan.docs.get(collection) ?? [];
      const previous = plan.before.get(collection) ?? new Map();
      counts[collection] = list.length;
      for (let i = 0; i < list.length; i += BATCH_SIZE) {
        stopIfAborted();
        const chunk = list.slice(i, i + BATCH_SIZE);
        step = `writing ${collection} (${i + 1}–${i + chunk.length} of ${list.length})`;
        undo.writing(chunk.map(({ id }) => ({ collection, id, before: previous.get(id) ?? null })));
        await backend.catalog.batch(chunk.map(({ id, ...data }) => ({ op: 'set', collection, id, data })));
      }
    }
    if (plan.accounts !== null && options.accounts) {
      stopIfAborted();
      step = `adding ${plan.accounts.length} accounts`;
      if (plan.accounts.length > 0) await options.accounts.write(plan.accounts);
      counts.accounts = plan.accountsListed;
    }
  } catch (error) {
    const left = await undo.undo();
    const why = errorMessage(error);
    throw rewrap(
      error,
      left.length === 0
        ? `The import of ${dir} failed while ${step} (${why}); everything it had written was undone: ${NOTHING_IMPORTED}.`
        : `The import of ${dir} failed while ${step} (${why}), and ${left.length} of the things it had written could not be undone (run the same import again to finish it, or \`catalog doctor\`):\n${left.join('\n')}`,
      { dir },
    );
  } finally {
    await undo.dispose();
  }
  return { counts, bytesSent, bytesSkipped, newAdmins: plan.newAdmins };
}
