/**
 * How a write turns a stored document into its next state (Firestore semantics): server-time
 * sentinels, `set` with merge, dotted-path `update`s, `create` of an existing document and `update`
 * of a missing one refused. The embedded backend (`cli/src/server/documents.ts`) and the in-memory
 * one (`shared/adapters/memory/catalog.ts`) both compute their commits with these. Pure TypeScript;
 * field paths are checked by the shared rule (`shared/field-path.ts`).
 */
import { AppError, ErrorCode } from '@shared/errors.js';
import { validateFieldPath } from '@shared/field-path.js';
import { isServerTimestamp } from '@shared/ports/catalog.js';
import type { WriteOp } from '@shared/ports/catalog.js';

/** A document's data: a JSON object. */
export type Json = Record<string, unknown>;

/** True for a plain JSON object (not null, not an array). */
export function isPlainObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Replaces every SERVER_TIMESTAMP sentinel (at any depth) with `now` and drops undefined fields.
 * @param value document data or a field value
 * @param now the commit's ISO timestamp
 * @returns a new value (the argument is not changed)
 */
export function resolveSentinels(value: unknown, now: string): unknown {
  if (isServerTimestamp(value)) return now;
  if (Array.isArray(value)) return value.map((item) => resolveSentinels(item, now));
  if (isPlainObject(value)) {
    const out: Json = {};
    for (const [key, item] of Object.entries(value)) if (item !== undefined) out[key] = resolveSentinels(item, now);
    return out;
  }
  return value;
}

/**
 * Firestore `set(…, {merge: true})`: nested maps merge, everything else replaces.
 * @returns a new object; neither argument is changed
 */
export function deepMerge(base: Json, patch: Json): Json {
  const out: Json = { ...base };
  for (const [key, value] of Object.entries(patch)) {
    const current = Object.hasOwn(out, key) ? out[key] : undefined;
    out[key] = isPlainObject(value) && isPlainObject(current) ? deepMerge(current, value) : value;
  }
  return out;
}

/**
 * Applies `{ 'a.b': value }` field-path updates to a copy of `doc` (a JSON round trip; missing or
 * non-object intermediate fields become maps). Paths are checked by the shared rule (no
 * `__proto__`, `constructor` or `prototype` segment) and walked through own properties only, so
 * an update can never reach a prototype.
 * @param doc the document before (JSON data)
 * @param updates field paths to values (sentinels allowed)
 * @param now the commit's ISO timestamp
 * @returns the document after
 * @throws AppError `invalid-argument` for an invalid field path
 */
export function applyFieldUpdates(doc: Json, updates: Json, now: string): Json {
  const out = JSON.parse(JSON.stringify(doc)) as Json;
  for (const [path, raw] of Object.entries(updates)) {
    validateFieldPath(path);
    const value = resolveSentinels(raw, now);
    const parts = path.split('.');
    let target: Json = out;
    for (const part of parts.slice(0, -1)) {
      const next = Object.hasOwn(target, part) ? target[part] : undefined;
      if (!isPlainObject(next)) target[part] = {};
      target = target[part] as Json;
    }
    target[parts[parts.length - 1]!] = value;
  }
  return out;
}

/**
 * The state a document takes after one write of a batch.
 * @param op the write (already validated with `validateWriteOp`)
 * @param before the document's data before the write (null: absent)
 * @param now the commit's ISO timestamp, for server-time sentinels
 * @returns the data after the write, or null when the document is deleted
 * @throws AppError `already-exists` (create of an existing document), `not-found` (update of a
 *   missing one), `invalid-argument` (bad field path in an update)
 */
export function applyWrite(op: WriteOp, before: Json | null, now: string): Json | null {
  const context = { collection: op.collection, id: op.id };
  switch (op.op) {
    case 'create':
      if (before) throw new AppError(ErrorCode.AlreadyExists, `Document ${op.collection}/${op.id} already exists`, { context });
      return resolveSentinels(op.data, now) as Json;
    case 'set': {
      const data = resolveSentinels(op.data, now) as Json;
      return op.merge ? deepMerge(before ?? {}, data) : data;
    }
    case 'update':
      if (!before) throw new AppError(ErrorCode.NotFound, `Document ${op.collection}/${op.id} not found`, { context });
      return applyFieldUpdates(before, op.data, now);
    case 'delete':
      return null;
  }
}
