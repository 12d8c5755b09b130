/**
 * Document storage of the embedded backend: Firestore-shaped documents (SPEC.md §3,
 * `shared/types.ts`) kept as JSON in SQLite, with the query subset of `shared/ports/catalog.ts`
 * (== / != filters on dotted field paths, orderBy, limit) compiled to SQL (json_extract /
 * json_type, field paths validated, values bound), server timestamps and atomic batches.
 */
import { validateFieldPath, validateQueryFields, validateWriteOp } from '@shared/field-path.js';
import type { Query, WriteOp } from '@shared/ports/catalog.js';
import { applyWrite } from '@shared/documents/merge.js';
import type { Json } from '@shared/documents/merge.js';
import type { DocumentLookup, PendingChange, ReadScope } from '@shared/rules/document-rules.js';
import type { CollectionName } from '@shared/types.js';
import type { SqliteDatabase } from './db.js';

/** A stored document: its id and data (JSON object). */
export interface StoredDoc {
  id: string;
  data: Record<string, unknown>;
}

const jsonPath = (field: string): string => `$.${field}`;

/** Compiles one filter to SQL with bound parameters. */
function filterSql(field: string, op: '==' | '!=', value: string | number | boolean | null, params: unknown[]): string {
  const path = jsonPath(field);
  let equal: string;
  if (value === null) {
    equal = `json_type(data, ?) = 'null'`;
    params.push(path);
  } else if (typeof value === 'boolean') {
    equal = `json_type(data, ?) = '${value ? 'true' : 'false'}'`;
    params.push(path);
  } else if (typeof value === 'number') {
    equal = `(json_type(data, ?) IN ('integer', 'real') AND json_extract(data, ?) = ?)`;
    params.push(path, path, value);
  } else {
    equal = `(json_type(data, ?) = 'text' AND json_extract(data, ?) = ?)`;
    params.push(path, path, value);
  }
  if (op === '==') return equal;
  // Firestore: '!=' never matches documents where the field is missing.
  params.unshift(path);
  return `(json_type(data, ?) IS NOT NULL AND NOT ${equal})`;
}

/**
 * The document store. All methods are synchronous (better-sqlite3); `commit` runs its writes
 * in one SQLite transaction and reports the changed collections to `onChange` afterwards.
 */
export class DocumentStore {
  private readonly selectOne;
  private readonly upsert;
  private readonly remove;

  /**
   * @param db the open catalog database (`openDatabase`)
   * @param onChange called after each committed write with the names of the collections it changed
   * @param afterWrite called inside the transaction after each applied write (before and after
   *   state); what it writes to the same database commits or rolls back with the batch
   */
  constructor(
    private readonly db: SqliteDatabase,
    private readonly onChange: (collections: CollectionName[]) => void,
    private readonly afterWrite: (change: PendingChange) => void = () => undefined,
  ) {
    this.selectOne = db.prepare<[string, string], { data: string }>('SELECT data FROM documents WHERE collection = ? AND id = ?');
    this.upsert = db.prepare<[string, string, string, string, string]>(
      `INSERT INTO documents (collection, id, data, create_time, update_time) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (collection, id) DO UPDATE SET data = excluded.data, update_time = excluded.update_time`,
    );
    this.remove = db.prepare<[string, string]>('DELETE FROM documents WHERE collection = ? AND id = ?');
  }

  /** Reads one document's data (null when it does not exist): what the role table looks documents up with. */
  readonly lookup: DocumentLookup = (collection, id) => this.get(collection, id)?.data ?? null;

  /**
   * Reads one document.
   * @returns the document, or null when it does not exist
   */
  get(collection: CollectionName, id: string): StoredDoc | null {
    const row = this.selectOne.get(collection, id);
    return row ? { id, data: JSON.parse(row.data) as Json } : null;
  }

  private where(collection: CollectionName, query: Query, scope: ReadScope, params: unknown[]): string {
    const clauses = ['collection = ?'];
    params.push(collection);
    if (typeof scope.onlyId === 'string') {
      clauses.push('id = ?');
      params.push(scope.onlyId);
    }
    if (scope.hideHidden === true) clauses.push(`json_type(data, '$.visible') IS NOT 'false'`);
    validateQueryFields(query);
    for (const [field, op, value] of query.where ?? []) {
      const local: unknown[] = [];
      clauses.push(filterSql(field, op, value, local));
      params.push(...local);
    }
    return clauses.join(' AND ');
  }

  /**
   * Runs a query. Documents missing an orderBy field sort first ascending (last descending);
   * ties are broken by document id.
   * @param scope restrictions from the role table
   * @throws AppError `invalid-argument` for an invalid field path
   */
  query(collection: CollectionName, query: Query, scope: ReadScope = { hideHidden: false, onlyId: undefined }): StoredDoc[] {
    const params: unknown[] = [];
    let sql = `SELECT id, data FROM documents WHERE ${this.where(collection, query, scope, params)}`;
    const order: string[] = [];
    for (const [field, direction] of query.orderBy ?? []) {
      validateFieldPath(field);
      order.push(`json_extract(data, ?) ${direction === 'desc' ? 'DESC' : 'ASC'}`);
      params.push(jsonPath(field));
    }
    order.push('id ASC');
    sql += ` ORDER BY ${order.join(', ')}`;
    if (query.limit !== undefined) {
      sql += ' LIMIT ?';
      params.push(query.limit);
    }
    const rows = this.db.prepare(sql).all(...params) as { id: string; data: string }[];
    return rows.map((row) => ({ id: row.id, data: JSON.parse(row.data) as Json }));
  }

  /** Counts what {@link query} would return (limit applies). */
  count(collection: CollectionName, query: Query, scope: ReadScope = { hideHidden: false, onlyId: undefined }): number {
    const params: unknown[] = [];
    const inner = `SELECT 1 FROM documents WHERE ${this.where(collection, query, scope, params)}${query.limit !== undefined ? ' LIMIT ?' : ''}`;
    if (query.limit !== undefined) params.push(query.limit);
    const row = this.db.prepare(`SELECT COUNT(*) AS n FROM (${inner})`).get(...params) as { n: number };
    return row.n;
  }

  /**
   * Applies writes atomically (one SQLite transaction): all or none. Server-time sentinels
   * become one ISO timestamp for the whole commit.
   * @param ops the writes, in order (later ops see earlier ones)
   * @param authorize called for each write with the document before and after; throwing aborts the commit
   * @throws AppError `already-exists` (create of an existing doc), `not-found` (update of a missing
   *   doc), `invalid-argument`, or whatever `authorize` throws; nothing is written then
   */
  commit(ops: WriteOp[], authorize: (change: PendingChange) => void): void {
    for (const op of ops) validateWriteOp(op);
    const now = new Date().toISOString();
    const touched = new Set<CollectionName>();
    const run = this.db.transaction(() => {
      for (const op of ops) {
        const before = this.get(op.collection, op.id)?.data ?? null;
        const after = applyWrite(op, before, now);
        const change: PendingChange = { op: op.op, collection: op.collection, id: op.id, before, after };
        authorize(change);
        if (after) {
          this.upsert.run(op.collection, op.id, JSON.stringify(after), now, now);
          touched.add(op.collection);
        } else if (before) {
          this.remove.run(op.collection, op.id);
          touched.add(op.collection);
        }
        this.afterWrite(change);
      }
    });
    run();
    if (touched.size > 0) this.onChange([...touched]);
  }
}
