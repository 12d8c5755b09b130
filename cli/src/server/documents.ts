/**
 * Document storage of the embedded backend: Firestore-shaped documents (SPEC.md §3,
 * `shared/types.ts`) kept as JSON in SQLite, with the query subset of `shared/ports/catalog.ts`
 * (== / != filters on dotted field paths, orderBy, limit) compiled to SQL (json_extract /
 * json_type, field paths validated and written in, values bound), server timestamps and atomic
 * batches. Query results are also served as JSON text straight from the stored rows (`queryText`,
 * issue 17: no parse and re-serialisation of every document), cached per query until the next write.
 */
import { createHash } from 'node:crypto';
import { AppError, ErrorCode } from '@shared/errors.js';
import { validateFieldPath, validateQueryFields, validateWriteOp } from '@shared/field-path.js';
import type { ProjectSummary, Query, WriteOp } from '@shared/ports/catalog.js';
import { sortModelsByPublicId } from '@shared/order.js';
import { thumbnailPathOf } from '@shared/projects.js';
import { applyWrite } from '@shared/documents/merge.js';
import type { Json } from '@shared/documents/merge.js';
import { UNRESTRICTED_SCOPE, withheldWrite } from '@shared/rules/document-rules.js';
import type { DocumentLookup, PendingChange, ReadScope } from '@shared/rules/document-rules.js';
import type { CollectionName, ModelData } from '@shared/types.js';
import type { Precondition } from '@shared/wire/catalog.js';
import type { SqliteDatabase } from './db.js';

/** A stored document: its id and data (JSON object). */
export interface StoredDoc {
  id: string;
  data: Record<string, unknown>;
}

/** A stored document with its version ({@link documentVersion}). */
export interface VersionedDoc extends StoredDoc {
  version: string;
}

/**
 * A document's version, for transactions' preconditions: the SHA-256 (base64url, 43 characters)
 * of its stored JSON text. A hash of the content rather than a counter: it needs no column, is
 * the same whichever process or connection wrote the row (import, doctor), and a precondition
 * holds exactly when the document reads as it did, which is what a transaction's reads need.
 * @param storedJson the row's `data` text
 */
export function documentVersion(storedJson: string): string {
  return createHash('sha256').update(storedJson).digest('base64url');
}

/**
 * What a commit's preconditions are checked against (`DocumentStore.commit`): the documents a
 * transaction read with their versions, and whether the caller may read a stored document (one
 * it may not read — a hidden model, a finding of one, for a non-admin — counts as absent, so that
 * a conflict never tells that it exists).
 */
export interface CommitPreconditions {
  checks: readonly Precondition[];
  /** True when the caller may read this stored document (may throw the caller's read refusal). */
  readable: (collection: CollectionName, id: string, data: Record<string, unknown>) => boolean;
}

const jsonPath = (field: string): string => `$.${field}`;

/**
 * A field path as an SQL string literal, `'$.a.b'`: paths are checked first (`validateFieldPath`:
 * dotted names of letters, digits and '_', so no quote can occur), and written into the SQL so
 * that SQLite can use the expression index on `json_extract(data, '$.projectId')` (db.ts).
 */
function pathLiteral(field: string): string {
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
 * A query's answer as JSON text (`DocumentStore.queryText`): the same object while the answer
 * is unchanged, so callers may keep derived forms (compressed copies) in a WeakMap keyed by it.
 */
export interface QueryText {
  /** JSON array of `{ ...data, id }` objects. */
  readonly json: string;
}

/** Most query answers kept by {@link DocumentStore.queryText} (one per collection, query and read scope). */
const QUERY_TEXT_CACHE_SIZE = 32;
/** Most characters of JSON kept in all (32 Mi: five 10,000-model answers); a larger answer is not kept. */
const QUERY_TEXT_CACHE_CHARS = 32 * 1024 * 1024;

/**
 * SQL for the JSON text of `{ ...data, id }` from a stored row without parsing it: the id is
 * appended as the object's last member (stored data is `JSON.stringify` output, so it ends with
 * '}'), and a later member wins in JSON.parse as the spread's `id` wins over a stored `id` field.
 */
const WITH_ID_SQL = `CASE WHEN data = '{}' THEN '{"id":' || json_quote(id) || '}' ELSE substr(data, 1, length(data) - 1) || ',"id":' || json_quote(id) || '}' END`;

/**
 * The document store. All methods are synchronous (better-sqlite3); `commit` runs its writes
 * in one SQLite transaction and reports the changed collections to `onChange` afterwards.
 */
export class DocumentStore {
  private readonly selectOne;
  private readonly upsert;
  private readonly remove;
  private readonly dataVersion;
  /** Writes committed per collection (bumped by {@link commit}): what kept query answers are valid for. */
  private readonly versions = new Map<CollectionName, number>();
  /** Query answers by collection, query and scope, with the collection version (and the models' for findings and alignments scoped by their models) and SQLite data_version they were read at. */
  private readonly answers = new Map<string, { version: string; dataVersion: number; answer: QueryText }>();
  /** Characters of JSON in `answers`. */
  private keptChars = 0;

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
    // Changes when another connection commits to the file (this process's own writes bump `versions`).
    this.dataVersion = db.prepare<[], { data_version: number }>('PRAGMA data_version');
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

  /**
   * Reads one document with its version ({@link documentVersion}), for a transaction's read.
   * @returns the document and version, or null when it does not exist
   */
  getVersioned(collection: CollectionName, id: string): VersionedDoc | null {
    const row = this.selectOne.get(collection, id);
    return row ? { id, data: JSON.parse(row.data) as Json, version: documentVersion(row.data) } : null;
  }

  /**
   * Checks a transaction's preconditions (inside the commit's SQLite transaction, before any
   * write): each document, as the caller may read it, must still have the version it was read
   * with (null: it read none).
   * @throws AppError `aborted` naming the first document that changed; the caller's read refusal from `readable`
   */
  private checkPreconditions({ checks, readable }: CommitPreconditions): void {
    for (const { collection, id, version } of checks) {
      const row = this.selectOne.get(collection, id);
      const seen = row && readable(collection, id, JSON.parse(row.data) as Json) ? documentVersion(row.data) : null;
      if (seen !== version) {
        throw new AppError(ErrorCode.Aborted, `Transaction aborted: ${collection}/${id} changed since it was read; nothing was written`, {
          context: { collection, id },
        });
      }
    }
  }

  private where(collection: CollectionName, query: Query, scope: ReadScope, params: unknown[]): string {
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
   * Runs a query. Documents missing an orderBy field sort first ascending (last descending);
   * ties are broken by document id.
   * @param scope restrictions from the role table
   * @throws AppError `invalid-argument` for an invalid field path
   */
  query(collection: CollectionName, query: Query, scope: ReadScope = UNRESTRICTED_SCOPE): StoredDoc[] {
    return this.rows(collection, query, scope).map((row) => ({ id: row.id, data: JSON.parse(row.data) as Json }));
  }

  /**
   * What {@link query} returns, as the JSON text of an array of `{ ...data, id }` objects built
   * from the stored JSON without parsing it (issue 17: the 10,000-model query). Answers are kept
   * per collection, query and scope until the next write to that collection (or a commit by
   * another connection to the database file).
   * @param scope restrictions from the role table
   * @returns `{ json }`, e.g. `{ json: '[{"name":"a","id":"x"}]' }`: the same object while kept
   * @throws AppError `invalid-argument` for an invalid field path
   */
  queryText(collection: CollectionName, query: Query, scope: ReadScope = UNRESTRICTED_SCOPE): QueryText {
    const key = JSON.stringify([
      collection,
      query.where ?? [],
      query.orderBy ?? [],
      query.limit ?? null,
      scope.hideHidden,
      scope.onlyId ?? null,
      scope.modelFields,
    ]);
    // An answer that withholds the findings or alignments of hidden models changes with the models too.
    const own = String(this.versions.get(collection) ?? 0);
    const version = scope.modelFields.length > 0 ? `${own}/${this.versions.get('models') ?? 0}` : own;
    const dataVersion = this.dataVersion.get()?.data_version ?? 0;
    const kept = this.answers.get(key);
    if (kept) {
      this.answers.delete(key);
      this.keptChars -= kept.answer.json.length;
    }
    if (kept && kept.version === version && kept.dataVersion === dataVersion) {
      this.answers.set(key, kept); // most recently used last
      this.keptChars += kept.answer.json.length;
      return kept.answer;
    }
    const { sql, params } = this.select(collection, query, scope, WITH_ID_SQL);
    const texts = this.db
      .prepare(sql)
      .pluck()
      .all(...params) as string[];
    const answer: QueryText = Object.freeze({ json: `[${texts.join(',')}]` });
    if (answer.json.length > QUERY_TEXT_CACHE_CHARS) return answer;
    this.answers.set(key, { version, dataVersion, answer });
    this.keptChars += answer.json.length;
    // least recently used first
    for (const [oldKey, old] of this.answers) {
      if (this.answers.size <= QUERY_TEXT_CACHE_SIZE && this.keptChars <= QUERY_TEXT_CACHE_CHARS) break;
      this.answers.delete(oldKey);
      this.keptChars -= old.answer.json.length;
    }
    return answer;
  }

  /** The rows of a query (id and stored JSON text), in its order. */
  private rows(collection: CollectionName, query: Query, scope: ReadScope): { id: string; data: string }[] {
    const { sql, params } = this.select(collection, query, scope, 'id, data');
    return this.db.prepare(sql).all(...params) as { id: string; data: string }[];
  }

  /** The SELECT of a query: `columns` of the matching rows in the query's order (missing fields first, ties by id), limited. */
  private select(collection: CollectionName, query: Query, scope: ReadScope, columns: string): { sql: string; params: unknown[] } {
    const params: unknown[] = [];
    let sql = `SELECT ${columns} FROM documents WHERE ${this.where(collection, query, scope, params)}`;
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

  /**
   * The summary of every project ({@link ProjectSummary}): one SQL query over the models grouped
   * by project (the counts), one over the projects with the model each names as its reference (a
   * primary-key lookup per project), both with the visibility rule of the other reads
   * (`hideHidden`: hidden models neither counted nor used as the reference). The reference is the model named by the project's `reference_model_id` when
   * it belongs to the project (and is readable), else the first in publicId order of the
   * project's readable models flagged `isReference` (read by a second, small query only for
   * projects that need it); its thumbnail is the first of `files.thumbnails` when that is a
   * non-empty text.
   * @param scope the caller's scope for models (`readScope(principal, 'models')`)
   * @returns one summary per project, ordered by project id
   */
  projectSummaries(scope: ReadScope = UNRESTRICTED_SCOPE): ProjectSummary[] {
    const visible = (alias: string): string => (scope.hideHidden ? ` AND json_type(${alias}.data, '$.visible') IS NOT 'false'` : '');
    // One pass over the models, grouped by project (read from the projectId index; the data only for the visibility and flag).
    const grouped = this.db
      .prepare(
        `SELECT json_extract(m.data, '$.projectId') AS projectId, COUNT(*) AS modelCount,
                SUM(json_type(m.data, '$.isReference') = 'true') AS flagged
         FROM documents AS m
         WHERE m.collection = 'models' AND json_type(m.data, '$.projectId') = 'text'${visible('m')}
         GROUP BY json_extract(m.data, '$.projectId')`,
      )
      .all() as { projectId: string; modelCount: number; flagged: number }[];
    const byProject = new Map(grouped.map((row) => [row.projectId, row]));
    // Every project with the model its reference_model_id names (a primary-key lookup), when it belongs to the project and is readable.
    const projects = this.db
      .prepare(
        `SELECT p.id AS projectId, r.id AS referenceId,
                CASE WHEN json_type(r.data, '$.files.thumbnails[0]') = 'text' AND json_extract(r.data, '$.files.thumbnails[0]') <> ''
                     THEN json_extract(r.data, '$.files.thumbnails[0]') END AS referenceThumbnail
         FROM documents AS p
         LEFT JOIN documents AS r
           ON r.collection = 'models' AND r.id = json_extract(p.data, '$.reference_model_id')
          AND json_type(r.data, '$.projectId') = 'text' AND json_extract(r.data, '$.projectId') = p.id${visible('r')}
         WHERE p.collection = 'projects'
         ORDER BY p.id`,
      )
      .all() as { projectId: string; referenceId: string | null; referenceThumbnail: string | null }[];
    const rows = projects.map((row) => ({
      ...row,
      modelCount: byProject.get(row.projectId)?.modelCount ?? 0,
      flagged: byProject.get(row.projectId)?.flagged ?? 0,
    }));
    // Without a model named by reference_model_id, the first flagged one (rare: data written before the reference rule).
    const fallback = rows.filter((row) => row.referenceId === null && row.flagged > 0).map((row) => row.projectId);
    const flaggedThumbnails = new Map<string, string | null>();
    if (fallback.length > 0) {
      const flaggedModels = (
        this.db
          .prepare(
            `SELECT m.id AS id, m.data AS data FROM documents AS m
             WHERE m.collection = 'models' AND json_type(m.data, '$.isReference') = 'true'${visible('m')}
               AND json_extract(m.data, '$.projectId') IN (SELECT value FROM json_each(?))`,
          )
          .all(JSON.stringify(fallback)) as { id: string; data: string }[]
      ).map((row) => ({ ...(JSON.parse(row.data) as Pick<ModelData, 'projectId' | 'isReference' | 'files' | 'publicId'>), id: row.id }));
      for (const model of sortModelsByPublicId(flaggedModels)) {
        if (typeof model.projectId === 'string' && !flaggedThumbnails.has(model.projectId)) {
          flaggedThumbnails.set(model.projectId, thumbnailPathOf(model));
        }
      }
    }
    return rows.map((row) => ({
      projectId: row.projectId,
      modelCount: row.modelCount,
      referenceThumbnailPath: row.referenceId !== null ? row.referenceThumbnail : (flaggedThumbnails.get(row.projectId) ?? null),
    }));
  }

  /** Counts what {@link query} would return (limit applies). */
  count(collection: CollectionName, query: Query, scope: ReadScope = UNRESTRICTED_SCOPE): number {
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
   * @param authorize called for each write with the document before and after (and the commit's time);
   *   it returns the document to store instead of `after` (the stored-document schema's output) or
   *   nothing to store `after`; throwing aborts the commit
   * @param authorizeAll called once after every write was applied, inside the transaction, with all
   *   of them in order (the commit-wide rules, e.g. issue 18's finding count binding); throwing
   *   rolls the whole commit back
   * @param preconditions a transaction's reads: checked first, inside the SQLite transaction,
   *   before any write is computed or authorised
   * @param view what the caller sees of a stored document it writes (`writerView` of the role
   *   table): null for one it may not read, which the write then treats as absent (its refusal is
   *   a missing document's) and never writes over (`withheldWrite`); default: all of it
   * @throws AppError `aborted` (a precondition failed), `already-exists` (create of an existing
   *   doc), `not-found` (update of a missing doc), `invalid-argument`, `permission-denied` (a
   *   write over a document withheld from the caller), or whatever `authorize` / `authorizeAll`
   *   throw; nothing is written then
   */
  commit(
    ops: WriteOp[],
    authorize: (change: PendingChange) => Json | null | void,
    authorizeAll: (changes: readonly PendingChange[]) => void = () => undefined,
    preconditions?: CommitPreconditions,
    view: (collection: CollectionName, stored: Json) => Json | null = (_collection, stored) => stored,
  ): void {
    for (const op of ops) validateWriteOp(op);
    const now = new Date().toISOString();
    const touched = new Set<CollectionName>();
    const run = this.db.transaction(() => {
      // A transaction's reads must still hold before anything of its batch is looked at.
      if (preconditions) this.checkPreconditions(preconditions);
      const changes: PendingChange[] = [];
      for (const op of ops) {
        const stored = this.get(op.collection, op.id)?.data ?? null;
        // Hidden means hidden: what the caller may not read is written as if absent.
        const before = stored === null ? null : view(op.collection, stored);
        const after = applyWrite(op, before, now);
        const change: PendingChange = { op: op.op, collection: op.collection, id: op.id, before, after, now };
        // What is stored is what the rules return (a stored-document schema's output), not the input.
        const checked = authorize(change);
        if (checked !== undefined) change.after = checked;
        if (stored !== null && before === null) throw withheldWrite(op.collection, op.id);
        if (change.after) {
          this.upsert.run(op.collection, op.id, JSON.stringify(change.after), now, now);
          touched.add(op.collection);
        } else if (before) {
          this.remove.run(op.collection, op.id);
          touched.add(op.collection);
        }
        this.afterWrite(change);
        changes.push(change);
      }
      authorizeAll(changes);
    });
    run();
    for (const collection of touched) this.versions.set(collection, (this.versions.get(collection) ?? 0) + 1);
    if (touched.size > 0) this.onChange([...touched]);
  }
}
