/**
 * Conversions between the ports and the Firestore web SDK: the SERVER_TIMESTAMP sentinel becomes
 * `serverTimestamp()`, Timestamps read back become ISO strings, and port queries become SDK
 * query constraints. Non-admin model queries get `visible == true` (the security rules only
 * allow such list queries for non-admins).
 */
import { Timestamp, limit as limitTo, orderBy, serverTimestamp, where } from 'firebase/firestore';
import type { QueryConstraint } from 'firebase/firestore';
import { checkQuery, fromFirestoreData, toFirestoreData } from '@shared/adapters/common.js';
import type { Query } from '@shared/ports/index.js';

/**
 * Write data for the web SDK ({@link toFirestoreData}: the shared data rule, SERVER_TIMESTAMP
 * sentinels as `serverTimestamp()`).
 * @param kind 'update' when the keys are field paths (`updateDoc`, a batch's update op)
 * @throws AppError `invalid-argument`
 */
export function toFirestore(data: Record<string, unknown>, kind: 'document' | 'update' = 'document'): Record<string, unknown> {
  return toFirestoreData(data, kind, serverTimestamp);
}

const isTimestamp = (value: unknown): value is Timestamp => value instanceof Timestamp;

/** Converts read data: Timestamps (any depth, arrays included) become ISO strings ({@link fromFirestoreData}). */
export function fromFirestore(value: unknown): unknown {
  return fromFirestoreData(value, isTimestamp);
}

/**
 * Builds the SDK constraints of a port query.
 * @param query the port query (where, orderBy, limit)
 * @param onlyVisible adds `visible == true` first (non-admin reads of models)
 * @returns the constraints, or null when the query can match nothing for this caller
 * @throws AppError `invalid-argument` for a field path that is not dotted identifiers, or a limit below 1
 */
export function buildConstraints(query: Query | undefined, onlyVisible = false): QueryConstraint[] | null {
  const checked = checkQuery(query);
  const constraints: QueryConstraint[] = [];
  if (onlyVisible) constraints.push(where('visible', '==', true));
  for (const [field, op, value] of checked.where) {
    // For a non-admin, visible == true is already there; any other filter on visible matches nothing.
    if (onlyVisible && field === 'visible') {
      if (op === '==' && value === true) continue;
      return null;
    }
    constraints.push(where(field, op, value));
  }
  for (const [field, direction] of checked.orderBy) constraints.push(orderBy(field, direction));
  if (checked.limit !== undefined) constraints.push(limitTo(checked.limit));
  return constraints;
}
