/**
 * Conversions between the ports and the Firestore web SDK: the SERVER_TIMESTAMP sentinel becomes
 * `serverTimestamp()`, Timestamps read back become ISO strings, and port queries become SDK
 * query constraints. Non-admin model queries get `visible == true` (the security rules only
 * allow such list queries, SPEC.md §6).
 */
import { Timestamp, limit as limitTo, orderBy, serverTimestamp, where } from 'firebase/firestore';
import type { QueryConstraint } from 'firebase/firestore';
import { AppError, ErrorCode } from '@shared/errors.js';
import { validateDocumentData, validateFieldPath, validateUpdateData } from '@shared/field-path.js';
import { isServerTimestamp } from '@shared/ports/index.js';
import type { Query } from '@shared/ports/index.js';

/**
 * Checks write data by the shared rule (`shared/field-path.ts`: no `__proto__`, `constructor` or
 * `prototype` key or path segment, nesting bounded), then replaces SERVER_TIMESTAMP sentinels in
 * plain objects (any depth) by `serverTimestamp()`.
 * @param kind 'update' when the keys are field paths (`updateDoc`, a batch's update op)
 * @throws AppError `invalid-argument`
 */
export function toFirestore(data: Record<string, unknown>, kind: 'document' | 'update' = 'document'): Record<string, unknown> {
  if (kind === 'update') validateUpdateData(data);
  else validateDocumentData(data);
  return convertValues(data);
}

function convertValues(data: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(data)) {
    if (isServerTimestamp(value)) out[key] = serverTimestamp();
    else if (value !== null && typeof value === 'object' && !Array.isArray(value) && Object.getPrototypeOf(value) === Object.prototype) {
      out[key] = convertValues(value as Record<string, unknown>);
    } else out[key] = value;
  }
  return out;
}

/** Converts read data: Timestamps (any depth, arrays included) become ISO strings. */
export function fromFirestore(value: unknown): unknown {
  if (value instanceof Timestamp) return value.toDate().toISOString();
  if (Array.isArray(value)) return value.map(fromFirestore);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(value)) out[key] = fromFirestore(inner);
    return out;
  }
  return value;
}

/**
 * Builds the SDK constraints of a port query.
 * @param query the port query (where, orderBy, limit)
 * @param onlyVisible adds `visible == true` first (non-admin reads of models)
 * @returns the constraints, or null when the query can match nothing for this caller
 * @throws AppError `invalid-argument` for a field path that is not dotted identifiers, or a limit below 1
 */
export function buildConstraints(query: Query | undefined, onlyVisible = false): QueryConstraint[] | null {
  const check = (field: string): string => validateFieldPath(field);
  const constraints: QueryConstraint[] = [];
  if (onlyVisible) constraints.push(where('visible', '==', true));
  for (const [field, op, value] of query?.where ?? []) {
    // For a non-admin, visible == true is already there; any other filter on visible matches nothing.
    if (onlyVisible && field === 'visible') {
      if (op === '==' && value === true) continue;
      return null;
    }
    constraints.push(where(check(field), op, value));
  }
  for (const [field, direction] of query?.orderBy ?? []) constraints.push(orderBy(check(field), direction ?? 'asc'));
  if (query?.limit !== undefined) {
    if (!Number.isInteger(query.limit) || query.limit < 1) throw new AppError(ErrorCode.InvalidArgument, `Invalid limit ${query.limit}`);
    constraints.push(limitTo(query.limit));
  }
  return constraints;
}
