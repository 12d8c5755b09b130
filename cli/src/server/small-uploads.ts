/**
 * Uploads of small files in one request on the embedded backend: the size limit of a one-shot
 * upload (`routes.putFile`) and of each file of a batch, and the reading of a batch upload
 * (`routes.fileBatch`, multipart/form-data) into files stored all or none. Larger files go
 * through the resumable uploads (`tus-uploads.ts`).
 */
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { UPLOAD_BATCH_MAX_BYTES, UPLOAD_BATCH_MAX_FILES } from '@shared/constants.js';
import { AppError, ErrorCode } from '@shared/errors.js';
import { validateModelFilePath } from '@shared/paths.js';
import type { StoredFile } from '@shared/ports/files.js';
import { FILE_BATCH_PARTS, fileBatchEntrySchema } from '@shared/wire/routes.js';
import type { FileStore } from './file-store.js';
import { parse } from './serve-route.js';

/** Largest body of a one-shot upload, and of each file of a batch, in bytes (files above 256 KB are uploaded resumably; some slack). */
export const SIMPLE_UPLOAD_LIMIT = 1024 * 1024;

/** Largest `manifest` field of a batch upload in bytes (64 KiB). */
export const BATCH_MANIFEST_LIMIT = 64 * 1024;

const batchManifestSchema = z
  .array(fileBatchEntrySchema.extend({ size: fileBatchEntrySchema.shape.size.max(SIMPLE_UPLOAD_LIMIT) }))
  .min(1)
  .max(UPLOAD_BATCH_MAX_FILES)
  .refine((entries) => entries.reduce((sum, entry) => sum + entry.size, 0) <= UPLOAD_BATCH_MAX_BYTES, {
    message: `more than ${UPLOAD_BATCH_MAX_BYTES} bytes in all`,
  });

/**
 * Reads a batch upload (`routes.fileBatch`, multipart/form-data): first a `manifest` field
 * (JSON `[{path, size, contentType?}]`), then one `file` part per manifest entry, in order.
 * Every part is checked against its entry (size) and held in memory (the manifest may list
 * at most UPLOAD_BATCH_MAX_BYTES in all, so that is what a batch can cost the server); only when
 * all arrived are they stored, all or none ({@link FileStore.putMany}). From its manifest until
 * it is stored, the batch's paths are held from storage repairs.
 * @param request the multipart request (@fastify/multipart registered on its scope)
 * @param files the server's file store
 * @returns the stored files, in manifest order
 * @throws AppError `invalid-argument` (bad manifest or path, a missing, extra or wrong-sized
 *   part, a part over 1 MiB, more than UPLOAD_BATCH_MAX_FILES files or UPLOAD_BATCH_MAX_BYTES bytes)
 */
export async function receiveBatch(request: FastifyRequest, files: FileStore): Promise<StoredFile[]> {
  // From its manifest until it is stored, a batch is an upload in progress for storage repairs.
  const held: Array<() => void> = [];
  try {
    return await readAndStoreBatch(request, files, (paths) => held.push(files.hold(paths)));
  } finally {
    for (const release of held) release();
  }
}

/** {@link receiveBatch}'s work; `onManifest` gets the batch's paths once its manifest is read. */
async function readAndStoreBatch(request: FastifyRequest, files: FileStore, onManifest: (paths: string[]) => void): Promise<StoredFile[]> {
  const bad = (reason: string): AppError => new AppError(ErrorCode.InvalidArgument, `Invalid file batch: ${reason}`);
  let manifest: z.infer<typeof batchManifestSchema> | null = null;
  const bodies: Buffer[] = [];
  try {
    for await (const part of request.parts()) {
      if (part.type === 'field') {
        if (part.fieldname !== FILE_BATCH_PARTS.manifest || manifest !== null) throw bad(`unexpected field '${part.fieldname}'`);
        let raw: unknown;
        try {
          raw = JSON.parse(String(part.value));
        } catch {
          throw bad('the manifest is not JSON');
        }
        manifest = parse(batchManifestSchema, raw, 'file batch manifest');
        for (const entry of manifest) validateModelFilePath(entry.path);
        if (new Set(manifest.map((entry) => entry.path)).size !== manifest.length) throw bad('a path is listed twice');
        onManifest(manifest.map((entry) => entry.path));
        continue;
      }
      if (manifest === null) throw bad('the manifest must come before the files');
      const entry = manifest[bodies.length];
      if (entry === undefined) throw bad('more files than the manifest lists');
      const body = await part.toBuffer();
      if (body.length !== entry.size) throw bad(`${entry.path} has ${body.length} bytes, the manifest says ${entry.size}`);
      bodies.push(body);
    }
  } catch (error) {
    // @fastify/multipart's limit errors (too many files, file too large) are request errors.
    const code = (error as { code?: unknown }).code;
    if (typeof code === 'string' && code.startsWith('FST_')) throw bad((error as Error).message);
    throw error;
  }
  if (manifest === null) throw bad('no manifest');
  if (bodies.length !== manifest.length) throw bad(`${manifest.length} files listed, ${bodies.length} sent`);
  return files.putMany(manifest.map((entry, i) => ({ path: entry.path, body: bodies[i], contentType: entry.contentType })));
}
