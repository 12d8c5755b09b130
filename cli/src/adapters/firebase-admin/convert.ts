/**
 * Value conversion between the ports (plain JSON, ISO timestamps, the SERVER_TIMESTAMP sentinel)
 * and Firestore (Timestamp, FieldValue.serverTimestamp()).
 */
import { FieldValue } from 'firebase-admin/firestore';
import type { Query as AdminQuery, CollectionReference } from 'firebase-admin/firestore';
import { AppError, ErrorCode } from '@shared/errors.js';
import { validateDocumentData, validateFieldPath, validateUpdateData } from '@shared/field-path.js';
import { isServerTimestamp } from '@shared/ports/index.js';
import type { Query } from '@shared/ports/index.js';

/**
 * Checks write data by the shared rule (`shared/field-path.ts`: no `__proto__`, `constructor` or
 * `prototype` key or path segment, nesting bounded), then replaces SERVER_TIMESTAMP sentinels (at
 * any depth of plain objects) by Firestore's server-time transform; arrays and other values are kept.
 * @param data write data of a port call
 * @param kind 'update' when the keys are field paths (`update`, a batch's update op)
 * @returns data for the Admin SDK
 * @throws AppError `invalid-argument`
 */
export function toFirestore(data: Record<string, unknown>, kind: 'document' | 'update' = 'document'): Record<string, unknown> {
  if (kind === 'update') validateUpdateData(data);
  else validateDocumentData(data);
  return convertValues(data);
}

function convertValues(data: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(data)) out[key] = toValue(value);
  return out;
}

function toValue(value: unknown): unknown {
  if (isServerTimestamp(value)) return FieldValue.serverTimestamp();
  if (value !== null && typeof value === 'object' && !Array.isArray(value) && Object.getPrototypeOf(value) === Object.prototype) {
    return convertValues(value as Record<string, unknown>);
  }
  return value;
}

/**
 * Converts document data read from Firestore: Timestamps become ISO strings (the ports' time
 * format), recursively through maps and arrays.
 * @param data `snapshot.data()`
 */
export function fromFirestore(data: Record<string, unknown>): Record<string, unknown> {
  return fromValue(data) as Record<string, unknown>;
}

function fromValue(value: unknown): unknown {
  // Timestamps, also of another copy of @google-cloud/firestore (so no instanceof)
  if (value !== null && typeof value === 'object' && typeof (value as { toDate?: unknown }).toDate === 'function') {
    return ((value as { toDate: () => Date }).toDate()).toISOString();
  }
  if (Array.isArray(value)) return value.map(fromValue);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(value)) out[key] = fromValue(inner);
    return out;
  }
  return value;
}

/** Checks a field path of a filter or ordering (the shared rule). @throws AppError `invalid-argument` */
export const checkFieldPath = (field: string): string => validateFieldPath(field);

/**
 * Builds an Admin SDK query from a port query (where, orderBy, limit), in that order.
 * @param ref the collection
 * @param query the port query; undefined means the whole collection
 * @throws AppError `invalid-argument` (field path, limit below 1)
 */
export function buildAdminQuery(ref: CollectionReference, query: Query | undefined): AdminQuery {
  let q: AdminQuery = ref;
  for (const [field, op, value] of query?.where ?? []) q = q.where(checkFieldPath(field), op, value);
  for (const [field, direction] of query?.orderBy ?? []) q = q.orderBy(checkFieldPath(field), direction ?? 'asc');
  if (query?.limit !== undefined) {
    if (!Number.isInteger(query.limit) || query.limit < 1) throw new AppError(ErrorCode.InvalidArgument, `Invalid limit ${query.limit}`);
    q = q.limit(query.limit);
  }
  return q;
}
