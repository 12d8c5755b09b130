/**
 * Value conversion between the ports (plain JSON, ISO timestamps, the SERVER_TIMESTAMP sentinel)
 * and Firestore (Timestamp, FieldValue.serverTimestamp()).
 */
import { FieldValue } from 'firebase-admin/firestore';
import type { Query as AdminQuery, CollectionReference } from 'firebase-admin/firestore';
import { checkQuery, fromFirestoreData, toFirestoreData } from '@shared/adapters/common.js';
import type { ToDateLike } from '@shared/format.js';
import { validateFieldPath } from '@shared/field-path.js';
import type { Query } from '@shared/ports/index.js';

/**
 * Write data for the Admin SDK ({@link toFirestoreData}: the shared data rule, SERVER_TIMESTAMP
 * sentinels as `FieldValue.serverTimestamp()`).
 * @param data write data of a port call
 * @param kind 'update' when the keys are field paths (`update`, a batch's update op)
 * @throws AppError `invalid-argument`
 */
export function toFirestore(data: Record<string, unknown>, kind: 'document' | 'update' = 'document'): Record<string, unknown> {
  return toFirestoreData(data, kind, () => FieldValue.serverTimestamp());
}

/** A Timestamp, also of another copy of @google-cloud/firestore (so no instanceof). */
const isTimestamp = (value: unknown): value is ToDateLike =>
  value !== null && typeof value === 'object' && typeof (value as { toDate?: unknown }).toDate === 'function';

/**
 * Converts document data read from Firestore: Timestamps become ISO strings (the ports' time
 * format), recursively through maps and arrays ({@link fromFirestoreData}).
 * @param data `snapshot.data()`
 */
export function fromFirestore(data: Record<string, unknown>): Record<string, unknown> {
  return fromFirestoreData(data, isTimestamp) as Record<string, unknown>;
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
  const checked = checkQuery(query);
  let q: AdminQuery = ref;
  for (const [field, op, value] of checked.where) q = q.where(field, op, value);
  for (const [field, direction] of checked.orderBy) q = q.orderBy(field, direction);
  return checked.limit === undefined ? q : q.limit(checked.limit);
}
