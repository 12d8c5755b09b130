/**
 * Document semantics of the in-memory backend, as the embedded backend has them
 * (`cli/src/server/documents.ts`, SPEC.md §3 documents, §7 document database): server-time
 * sentinels, `set` with merge, dotted-path updates, and the query subset of
 * `shared/ports/catalog.ts` (== / != filters on dotted field paths, orderBy, limit) evaluated over
 * plain objects in the order SQLite's `json_extract` gives the embedded backend. Field paths are
 * checked by the shared rule (`shared/field-path.ts`). Pure TypeScript.
 */
import { validateFieldPath, validateQueryFields } from '@shared/field-path.js';
import { compareCodeUnits } from '@shared/order.js';
import { isServerTimestamp } from '@shared/ports/catalog.js';
import type { FilterValue, Query, WhereClause } from '@shared/ports/catalog.js';

/** A document's data: a JSON object. */
export type Json = Record<string, unknown>;

/** A stored document: its id and data. */
export interface MemoryDoc {
  id: string;
  data: Json;
}

/** Restrictions the role table adds to a read (as the embedded backend's `ReadScope`). */
export interface ReadScope {
  /** Leave out models with `visible === false`. */
  hideHidden: boolean;
  /** Only the document with this id may be returned. */
  onlyId: string | undefined;
}

/** True for a plain JSON object (not null, not an array). */
export function isPlainObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A deep copy of `value` as it would arrive over the wire: a JSON round trip (undefined fields
 * dropped, dates as ISO text), so the memory backend stores and returns exactly what the embedded
 * backend would.
 * @param value any JSON-serialisable value
 * @returns the copy (undefined stays undefined)
 */
export function wireCopy<T>(value: T): T {
  return value === undefined ? value : (JSON.parse(JSON.stringify(value)) as T);
}

/**
 * Replaces every SERVER_TIMESTAMP sentinel (at any depth) with `now` and drops undefined fields.
 * @param value document data or a field value
 * @param now the commit's ISO timestamp
 * @returns a new value
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
 * Applies `{ 'a.b': value }` field-path updates to a copy of `doc` (missing or non-object
 * intermediate fields become maps; walked through own properties only).
 * @param doc the document before
 * @param updates field paths to values (sentinels allowed)
 * @param now the commit's ISO timestamp
 * @returns the document after
 * @throws AppError `invalid-argument` for an invalid field path
 */
export function applyFieldUpdates(doc: Json, updates: Json, now: string): Json {
  const out = wireCopy(doc);
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
 * The value at a dotted field path, through own properties of nested objects only.
 * @returns `{found: false}` when a segment is missing or crosses a non-object
 */
export function valueAt(data: Json, path: string): { found: boolean; value: unknown } {
  let current: unknown = data;
  for (const part of path.split('.')) {
    if (!isPlainObject(current) || !Object.hasOwn(current, part)) return { found: false, value: undefined };
    current = current[part];
  }
  return { found: true, value: current };
}

/** Equality of a stored value with a filter value, by JSON type (1 never equals true, '1' never 1). */
function equalsFilter(value: unknown, expected: FilterValue): boolean {
  if (expected === null) return value === null;
  return typeof value === typeof expected && value === expected;
}

/**
 * One filter of a query: `==` matches a present field of the same JSON type and value; `!=`
 * matches a present field that is not equal (Firestore and the embedded backend: documents
 * missing the field never match `!=`).
 */
export function matchesFilter(data: Json, [field, op, expected]: WhereClause): boolean {
  const { found, value } = valueAt(data, field);
  if (!found) return false;
  const equal = equalsFilter(value, expected);
  return op === '==' ? equal : !equal;
}

/**
 * The sort key of a value as SQLite orders `json_extract` results: missing and null first, then
 * numbers (booleans as 0 and 1), then text (objects and arrays as their JSON text).
 */
function sortKey(found: boolean, value: unknown): { rank: 0 | 1 | 2; number: number; text: string } {
  if (!found || value === null || value === undefined) return { rank: 0, number: 0, text: '' };
  if (typeof value === 'boolean') return { rank: 1, number: value ? 1 : 0, text: '' };
  if (typeof value === 'number') return { rank: 1, number: value, text: '' };
  return { rank: 2, number: 0, text: typeof value === 'string' ? value : JSON.stringify(value) };
}

/** Compares two documents by one field, ascending, in the order of {@link sortKey}. */
function compareField(a: Json, b: Json, field: string): number {
  const x = valueAt(a, field);
  const y = valueAt(b, field);
  const kx = sortKey(x.found, x.value);
  const ky = sortKey(y.found, y.value);
  if (kx.rank !== ky.rank) return kx.rank - ky.rank;
  if (kx.rank === 1) return kx.number - ky.number;
  return compareCodeUnits(kx.text, ky.text);
}

/**
 * Runs a query over documents, as the embedded backend does: the scope's restrictions, the
 * filters, then the orderings (missing fields first ascending, last descending; ties by id) and
 * the limit.
 * @param docs every document of the collection
 * @param query the query (field paths are checked)
 * @param scope restrictions from the role table
 * @returns the matching documents (the same objects; callers copy them)
 * @throws AppError `invalid-argument` for an invalid field path
 */
export function runQuery(docs: Iterable<MemoryDoc>, query: Query, scope: ReadScope): MemoryDoc[] {
  validateQueryFields(query);
  const where = query.where ?? [];
  const matching = [...docs].filter(
    (doc) =>
      (scope.onlyId === undefined || doc.id === scope.onlyId) &&
      !(scope.hideHidden && doc.data.visible === false) &&
      where.every((clause) => matchesFilter(doc.data, clause)),
  );
  const orderBy = query.orderBy ?? [];
  matching.sort((a, b) => {
    for (const [field, direction] of orderBy) {
      const order = compareField(a.data, b.data, field);
      if (order !== 0) return direction === 'desc' ? -order : order;
    }
    return compareCodeUnits(a.id, b.id);
  });
  return query.limit === undefined ? matching : matching.slice(0, query.limit);
}
