/**
 * Wire schemas of the embedded backend's document API (`catalog serve` /v1): the
 * shapes of collection names, document ids, queries and batch write operations as they travel
 * as JSON, checked with zod. The one home of these contracts: the server parses requests with
 * them; the types they check are those of `shared/ports/catalog.ts`.
 */
import { z } from 'zod';
import { validateFieldPath } from '../field-path.js';

/** True when `value` contains a C0 control character or DEL. */
function hasControlCharacter(value: string): boolean {
  for (let i = 0; i < value.length; i += 1) {
    const code = value.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}

/** Collection names: projects, models, users and admins, and `annotations`, `alignments` and `changeMaps`. */
export const collectionSchema = z.enum(['projects', 'models', 'users', 'admins', 'annotations', 'alignments', 'changeMaps']);

/** A field path on the wire: checked by the shared rule (`shared/field-path.ts`). */
const fieldPathSchema = z.string().superRefine((path, ctx) => {
  try {
    validateFieldPath(path);
  } catch (error) {
    ctx.addIssue({ code: 'custom', message: (error as Error).message });
  }
});

/** Document ids: 1–1500 characters, no '/', not '.' or '..', no control characters (as Firestore). */
export const docIdSchema = z
  .string()
  .min(1)
  .max(1500)
  .refine(
    (id) => !id.includes('/') && id !== '.' && id !== '..' && !hasControlCharacter(id) && !/^__.*__$/.test(id),
    'Invalid document id',
  );

const filterValueSchema = z.union([z.string(), z.number().finite(), z.boolean(), z.null()]);
const directionSchema = z.enum(['asc', 'desc']);

/** Wire schema of a `Query` (`shared/ports/catalog.ts`). */
export const querySchema = z
  .object({
    where: z
      .array(z.tuple([fieldPathSchema, z.enum(['==', '!=']), filterValueSchema]))
      .max(20)
      .optional(),
    orderBy: z
      .array(z.tuple([fieldPathSchema, directionSchema.nullable().optional()]))
      .max(8)
      .optional(),
    limit: z.number().int().min(1).max(100_000).optional(),
  })
  .strict();

const plainObject = z.record(z.string(), z.unknown());

/** Wire schema of a `WriteOp` (`shared/ports/catalog.ts`): create, set (merge or not), update, delete. */
export const writeOpSchema = z.discriminatedUnion('op', [
  z.object({ op: z.literal('create'), collection: collectionSchema, id: docIdSchema, data: plainObject }),
  z.object({ op: z.literal('set'), collection: collectionSchema, id: docIdSchema, data: plainObject, merge: z.boolean().optional() }),
  z.object({ op: z.literal('update'), collection: collectionSchema, id: docIdSchema, data: plainObject }),
  z.object({ op: z.literal('delete'), collection: collectionSchema, id: docIdSchema }),
]);

/** Longest document version accepted on the wire (the embedded server's are 43 characters). */
export const VERSION_MAX_LENGTH = 128;

/**
 * Wire schema of a transaction's precondition (`POST /v1/batch`'s `preconditions`): a document
 * the transaction read, with the version it read (`version` of the document reply; null: it read
 * no document). The server refuses the whole batch with `aborted` (HTTP 409) when the document,
 * as the caller may read it, has another version now. A version is opaque to clients.
 */
export const preconditionSchema = z
  .object({ collection: collectionSchema, id: docIdSchema, version: z.string().min(1).max(VERSION_MAX_LENGTH).nullable() })
  .strict();

/** A transaction's precondition: `{collection, id, version}` (version null: absent when read). */
export type Precondition = z.infer<typeof preconditionSchema>;
