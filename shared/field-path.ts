/**
 * The one rule for field paths and document data written through the catalog port (document
 * writes and model/project updates), shared by the embedded server and both Firebase
 * adapters so that no input can reach `Object.prototype` through a key or a dotted path:
 *
 * - a field path is dotted identifiers (`metadata.captureDate`), at most 300 characters;
 * - no segment of a path and no key at any depth of the data is `__proto__`, `constructor` or
 *   `prototype`;
 * - data nests at most {@link MAX_DOCUMENT_DEPTH} levels (Firestore's own limit is 20).
 *
 * Violations throw `AppError('invalid-argument')` with a message naming the offending path.
 */
import { AppError, ErrorCode } from './errors.js';
import type { Query, WriteOp } from './ports/catalog.js';

/** Dotted identifiers: `name`, `metadata.captureDate`, `files.images`. */
export const FIELD_PATH_PATTERN = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$/;

/** Longest field path, in characters. */
export const MAX_FIELD_PATH_LENGTH = 300;

/** Deepest nesting of maps and arrays in document data (Firestore's limit is 20). */
export const MAX_DOCUMENT_DEPTH = 20;

/** Names that would reach an object's prototype when used as a key. */
export const FORBIDDEN_FIELD_NAMES: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

const invalid = (message: string, context: Record<string, unknown>): AppError =>
  new AppError(ErrorCode.InvalidArgument, message, { context });

/**
 * Checks one field path of a filter, an ordering or an update.
 * @param path the path as given, e.g. `metadata.captureDate`
 * @returns the path unchanged
 * @throws AppError `invalid-argument` ("Invalid field path '…'": not dotted identifiers, too
 *   long, or a segment named `__proto__`, `constructor` or `prototype`)
 */
export function validateFieldPath(path: unknown): string {
  if (typeof path !== 'string' || path.length === 0) throw invalid('Invalid field path: empty', { path });
  const shown = path.length > 60 ? `${path.slice(0, 60)}…` : path;
  if (path.length > MAX_FIELD_PATH_LENGTH)
    throw invalid(`Invalid field path '${shown}': longer than ${MAX_FIELD_PATH_LENGTH} characters`, { path: shown });
  if (!FIELD_PATH_PATTERN.test(path))
    throw invalid(`Invalid field path '${shown}': use dotted names of letters, digits and '_'`, { path: shown });
  const forbidden = path.split('.').find((segment) => FORBIDDEN_FIELD_NAMES.has(segment));
  if (forbidden !== undefined)
    throw invalid(`Invalid field path '${shown}': '${forbidden}' is not allowed as a field name`, { path: shown });
  return path;
}

/**
 * Checks document data (any depth, iteratively): no key is `__proto__`, `constructor` or
 * `prototype`, and maps and arrays nest at most {@link MAX_DOCUMENT_DEPTH} levels.
 * @param data the data of a create or set, or the values of an update
 * @param startDepth the depth of `data` itself (an update's value at `a.b` starts at 2)
 * @param at where `data` sits, for messages (a field path, or '' for the document)
 * @throws AppError `invalid-argument`
 */
export function validateDocumentData(data: unknown, startDepth = 1, at = ''): void {
  const stack: Array<{ value: unknown; depth: number; at: string }> = [{ value: data, depth: startDepth, at }];
  while (stack.length > 0) {
    const { value, depth, at: where } = stack.pop()!;
    if (value === null || typeof value !== 'object') continue;
    if (depth > MAX_DOCUMENT_DEPTH) {
      throw invalid(`Document data nests deeper than ${MAX_DOCUMENT_DEPTH} levels${where ? ` at '${where}'` : ''}`, { at: where });
    }
    if (Array.isArray(value)) {
      value.forEach((item, i) => stack.push({ value: item, depth: depth + 1, at: `${where}[${i}]` }));
      continue;
    }
    for (const key of Object.keys(value)) {
      if (FORBIDDEN_FIELD_NAMES.has(key))
        throw invalid(`Invalid field name '${key}'${where ? ` in '${where}'` : ''}: not allowed`, { at: where, key });
      stack.push({ value: (value as Record<string, unknown>)[key], depth: depth + 1, at: where ? `${where}.${key}` : key });
    }
  }
}

/**
 * Checks an update's data: every key is a field path ({@link validateFieldPath}) and every
 * value is valid document data at the depth its path puts it.
 * @throws AppError `invalid-argument`
 */
export function validateUpdateData(data: Record<string, unknown>): void {
  for (const path of Object.keys(data)) {
    validateFieldPath(path);
    validateDocumentData(data[path], path.split('.').length + 1, path);
  }
}

/**
 * Checks one write of a batch before any backend sees it: update keys are field paths, other
 * data is checked as documents ({@link validateDocumentData}).
 * @throws AppError `invalid-argument`
 */
export function validateWriteOp(op: WriteOp): void {
  if (op.op === 'update') validateUpdateData(op.data);
  else if (op.op === 'create' || op.op === 'set') validateDocumentData(op.data);
}

/**
 * Checks the field paths of a query's filters and orderings.
 * @throws AppError `invalid-argument`
 */
export function validateQueryFields(query: Query | undefined): void {
  for (const [field] of query?.where ?? []) validateFieldPath(field);
  for (const [field] of query?.orderBy ?? []) validateFieldPath(field);
}
