/**
 * Document queries of the in-memory backend, as the embedded backend has them
 * (`cli/src/server/documents.ts`; the write
 * semantics — sentinels, merge, dotted-path updates — are `shared/documents/merge.ts`): the query subset of
 * `shared/ports/catalog.ts` (== / != filters on dotted field paths, orderBy, limit) evaluated over
 * plain objects in the order SQLite's `json_extract` gives the embedded backend. Field paths are
 * checked by the shared rule (`shared/field-path.ts`). Pure TypeScript.
 */
import { isPlainObject } from '@shared/documents/merge.js';
import type { Json } from '@shared/documents/merge.js';
import { validateQueryFields } from '@shared/field-path.js';
import { compareCodeUnits } from '@shared/order.js';
import type { FilterValue, Query, WhereClause } from '@shared/ports/catalog.js';
import { namesClosedModel } from '@shared/rules/document-rules.js';
import type { DocumentLookup, ReadScope } from '@shared/rules/document-rules.js';

export type { Json };

/** A stored document: its id and data. */
export interface MemoryDoc {
  id: string;
  data: Json;
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
 * @param lookup reads the models a finding or an alignment names (for `scope.modelFields`)
 * @returns the matching documents (the same objects; callers copy them)
 * @throws AppError `invalid-argument` for an invalid field path
 */
export function runQuery(docs: Iterable<MemoryDoc>, query: Query, scope: ReadScope, lookup: DocumentLookup = () => null): MemoryDoc[] {
  validateQueryFields(query);
  const where = query.where ?? [];
  const matching = [...docs].filter(
    (doc) =>
      (scope.onlyId === undefined || doc.id === scope.onlyId) &&
      !(scope.hideHidden && doc.data.visible === false) &&
      !namesClosedModel(doc.data, scope.modelFields, lookup) &&
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
