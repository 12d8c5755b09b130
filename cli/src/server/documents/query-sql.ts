/**
 * The embedded document store's query subset compiled to SQL: == / != filters on dotted field
 * paths, orderBy and limit over the JSON `data` column (json_extract / json_type), with field paths
 * validated and written in (so SQLite can use its expression indexes) and values bound, plus the
 * read scope of the role table (hidden models, one id, findings read with their models).
 */
import { validateFieldPath, validateQueryFields } from '@shared/field-path.js';
import type { Query } from '@shared/ports/catalog.js';
import type { ReadScope } from '@shared/rules/document-rules.js';
import type { CollectionName } from '@shared/types.js';

const jsonPath = (field: string): string => `$.${field}`;

/**
 * A field path as an SQL string literal, `'$.a.b'`: paths are checked first (`validateFieldPath`:
 * dotted names of letters, digits and '_', so no quote can occur), and written into the SQL so
 * that SQLite can use the expression index on `json_extract(data, '$.projectId')` (db.ts).
 * @param field a dotted field path, e.g. `files.thumbnails`
 * @returns the quoted JSON path literal
 * @throws AppError `invalid-argument` for an invalid field path
 */
export function pathLiteral(field: string): string {
  return `'${jsonPath(validateFieldPath(field))}'`;
}

/** Compiles one filter to SQL with bound parameters (the value bound, the checked path written in). */
function filterSql(field: string, op: '==' | '!=', value: string | number | boolean | null, params: unknown[]): string {
  const path = pathLiteral(field);
  let equal: string;
  if (value === null) {
    equal = `json_type(data, ${path}) = 'null'`;
  } else if (typeof value === 'boolean') {
    equal = `json_type(data, ${path}) = '${value ? 'true' : 'false'}'`;
  } else if (typeof value === 'number') {
    equal = `(json_type(data, ${path}) IN ('integer', 'real') AND json_extract(data, ${path}) = ?)`;
    params.push(value);
  } else {
    equal = `(json_type(data, ${path}) = 'text' AND json_extract(data, ${path}) = ?)`;
    params.push(value);
  }
  if (op === '==') return equal;
  // Firestore: '!=' never matches documents where the field is missing.
  return `(json_type(data, ${path}) IS NOT NULL AND NOT ${equal})`;
}

/**
 * SQL for the UTF-8 JSON text (a BLOB) of `{ ...data, id }` from a stored row without parsing it:
 * the id is appended as the object's last member (stored data is `JSON.stringify` output, so it
 * ends with '}'), and a later member wins in JSON.parse as the spread's `id` wins over a stored
 * `id` field. The last '}' is cut from the data as bytes: length and substr of TEXT count
 * characters, which doubled the time of reading the 10,000-model answer.
 */
export const WITH_ID_SQL = `CAST(CASE WHEN data = '{}' THEN '{"id":' || json_quote(id) || '}' ELSE substr(CAST(data AS BLOB), 1, length(CAST(data AS BLOB)) - 1) || ',"id":' || json_quote(id) || '}' END AS BLOB)`;

/**
 * The WHERE clause of a query: the collection, the read scope (one id, hidden models left out, a
 * finding or alignment only with its readable models) and the query's filters.
 * @param collection the collection queried
 * @param query its filters (orderBy and limit are the SELECT's)
 * @param scope restrictions from the role table
 * @param params the bound values, appended to in the clause's order
 * @returns the SQL condition (no `WHERE`)
 * @throws AppError `invalid-argument` for an invalid field path
 */
export function whereSql(collection: CollectionName, query: Query, scope: ReadScope, params: unknown[]): string {
  const clauses = ['collection = ?'];
  params.push(collection);
  if (typeof scope.onlyId === 'string') {
    clauses.push('id = ?');
    params.push(scope.onlyId);
  }
  if (scope.hideHidden === true) clauses.push(`json_type(data, '$.visible') IS NOT 'false'`);
  // Hidden means hidden: a finding or an alignment is read with its model(s), only while each
  // exists and is not hidden (the scope's model fields; paths checked, written in).
  for (const field of scope.modelFields) {
    const path = pathLiteral(field);
    clauses.push(
      `EXISTS (SELECT 1 FROM documents AS model WHERE model.collection = 'models' AND json_type(documents.data, ${path}) = 'text' AND model.id = json_extract(documents.data, ${path}) AND json_type(model.data, '$.visible') IS NOT 'false')`,
    );
  }
  validateQueryFields(query);
  for (const [field, op, value] of query.where ?? []) {
    const local: unknown[] = [];
    clauses.push(filterSql(field, op, value, local));
    params.push(...local);
  }
  return clauses.join(' AND ');
}

/**
 * The SELECT of a query: `columns` of the matching rows in the query's order (missing fields
 * first ascending, ties by id), limited.
 * @param columns the SQL column list, e.g. `'id, data'`
 * @returns the SQL text and its bound values
 * @throws AppError `invalid-argument` for an invalid field path
 */
export function selectSql(collection: CollectionName, query: Query, scope: ReadScope, columns: string): { sql: string; params: unknown[] } {
  const params: unknown[] = [];
  let sql = `SELECT ${columns} FROM documents WHERE ${whereSql(collection, query, scope, params)}`;
  const order: string[] = [];
  for (const [field, direction] of query.orderBy ?? []) {
    order.push(`json_extract(data, ${pathLiteral(field)}) ${direction === 'desc' ? 'DESC' : 'ASC'}`);
  }
  order.push('id ASC');
  sql += ` ORDER BY ${order.join(', ')}`;
  if (query.limit !== undefined) {
    sql += ' LIMIT ?';
    params.push(query.limit);
  }
  return { sql, params };
}
