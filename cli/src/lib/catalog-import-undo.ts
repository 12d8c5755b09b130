/**
 * Undoing a failed import: a record of what the import created, replaced and wrote, with the
 * replaced files' previous bytes kept in a private temporary folder, and the undo itself.
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { AppError, ErrorCode } from '@shared/errors.js';
import type { Backend, StoredFile, WriteOp } from '@shared/ports/index.js';
import type { CollectionName } from '@shared/types.js';

/** Documents per batch write on import and on its undo (the server accepts 500). */
export const BATCH_SIZE = 400;

/**
 * What an import has written, to undo it when it cannot finish: the files it created (deleted on
 * undo), the files it replaced (their previous bytes kept in a private temporary folder and put
 * back), and the documents it wrote with their previous data (set back, or deleted when new).
 * Accounts are written last, in one all-or-nothing request, so they never need undoing.
 */
export class ImportUndo {
  private readonly createdFiles: string[] = [];
  private readonly replacedFiles: Array<{ path: string; backup: string; contentType: string | null; size: number }> = [];
  private readonly docs: Array<{ collection: CollectionName; id: string; before: Record<string, unknown> | null }> = [];
  private backupDir: string | null = null;

  constructor(private readonly backend: Pick<Backend, 'catalog' | 'files'>) {}

  /** Keeps the bytes of a stored file about to be replaced. */
  async keepPrevious(stored: StoredFile): Promise<void> {
    this.backupDir ??= await mkdtemp(join(tmpdir(), 'catalog-import-undo-'));
    const backup = join(this.backupDir, String(this.replacedFiles.length));
    const response = await fetch(await this.backend.files.getDownloadUrl(stored.path));
    if (!response.ok || !response.body)
      throw new AppError(ErrorCode.Network, `Keeping ${stored.path} before replacing it failed: HTTP ${response.status}`, {
        context: { path: stored.path },
      });
    await pipeline(Readable.fromWeb(response.body as WebReadableStream), createWriteStream(backup, { flags: 'wx', mode: 0o600 }));
    this.replacedFiles.push({ path: stored.path, backup, contentType: stored.contentType ?? null, size: stored.size });
  }

  /** A file about to be created (recorded before it is sent, so a half-sent one is removed too). */
  created(path: string): void {
    this.createdFiles.push(path);
  }

  /** Documents about to be written, with their data before (null: new). */
  writing(entries: ReadonlyArray<{ collection: CollectionName; id: string; before: Record<string, unknown> | null }>): void {
    this.docs.push(...entries);
  }

  /**
   * Undoes everything recorded, documents first (newest first), then files.
   * @returns one line per thing that could not be undone (empty when all was)
   */
  async undo(): Promise<string[]> {
    const failed: string[] = [];
    const ops: WriteOp[] = this.docs
      .reverse()
      .map(({ collection, id, before }) =>
        before === null ? { op: 'delete', collection, id } : { op: 'set', collection, id, data: before },
      );
    for (let i = 0; i < ops.length; i += BATCH_SIZE) {
      const chunk = ops.slice(i, i + BATCH_SIZE);
      try {
        await this.backend.catalog.batch(chunk);
      } catch {
        // one at a time, to undo all that can be
        for (const op of chunk) {
          try {
            await this.backend.catalog.batch([op]);
          } catch (error) {
            failed.push(`${op.collection}/${op.id}: ${(error as Error).message}`);
          }
        }
      }
    }
    for (const path of this.createdFiles.reverse()) {
      try {
        await this.backend.files.delete(path);
      } catch (error) {
        if ((error as AppError).code !== ErrorCode.ObjectNotFound) failed.push(`${path}: ${(error as Error).message}`);
      }
    }
    for (const file of this.replacedFiles.reverse()) {
      try {
        await this.backend.files.upload(
          file.path,
          { size: file.size, input: createReadStream(file.backup), name: basename(file.path), localPath: file.backup },
          file.contentType ? { contentType: file.contentType } : {},
        );
      } catch (error) {
        failed.push(`${file.path}: ${(error as Error).message}`);
      }
    }
    return failed;
  }

  /** Removes the kept bytes. */
  async dispose(): Promise<void> {
    if (this.backupDir) await rm(this.backupDir, { recursive: true, force: true });
  }
}
