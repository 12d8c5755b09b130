/**
 * Document storage of the embedded backend: Firestore-shaped documents (`shared/types.ts`) kept as
 * JSON in SQLite, with the query subset of `shared/ports/catalog.ts` (== / != filters on dotted
 * field paths, orderBy, limit) compiled to SQL (json_extract / json_type, field paths validated and
 * written in, values bound), server timestamps and atomic batches. Query results are also served as
 * JSON text straight from the stored rows (`queryText`, so a large catalog's queries skip parsing
 * and re-serialising every document), cached per query until the next write.
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
 * is unchanged, so callers may keep derived forms (the whole body, compressed copies) in a
 * WeakMap keyed by it.
 */
export interface QueryText {
  /** The UTF-8 JSON text of each `{ ...data, id }` object, in the query's order (shared with the store's row cache: never modify). */
  readonly rows: readonly Buffer[];
  /** Bytes of all rows together (without separators). */
  readonly bytes: number;
}

/** Most query answers kept by {@link DocumentStore.queryText} (one per collection, query and read scope). */
const QUERY_TEXT_CACHE_SIZE = 32;
/** Most bytes of rows kept in all answers (32 MiB: five 10,000-model answers); a larger answer is not kept. */
const QUERY_TEXT_CACHE_BYTES = 32 * 1024 * 1024;
/** Most bytes of JSON in the row cache (all collections); past it the cache starts over. */
const ROW_CACHE_BYTES = 64 * 1024 * 1024;

/**
 * SQL for the UTF-8 JSON text (a BLOB) of `{ ...data, id }` from a stored row without parsing it:
 * the id is appended as the object's last member (stored data is `JSON.stringify` output, so it
 * ends with '}'), and a later member wins in JSON.parse as the spread's `id` wins over a stored
 * `id` field. The last '}' is cut from the data as bytes: length and substr of TEXT count
 * characters, which doubled the time of reading the 10,000-model answer.
 */
const WITH_ID_SQL = `CAST(CASE WHEN data = '{}' THEN '{"id":' || json_quote(id) || '}' ELSE substr(CAST(data AS BLOB), 1, length(CAST(data AS BLOB)) - 1) || ',"id":' || json_quote(id) || '}' END AS BLOB)`;

/** Past this many rows not in the row cache, a query's rows are read with it rather than by id afterwards. */
const ROWS_BY_ID_MAX = 500;

/** A kept query answer (`DocumentStore.queryText`). */
interface KeptAnswer {
  collection: CollectionName;
  /** The collection version (and the models' for findings and alignments scoped by their models) it is valid for. */
  version: string;
  /** SQLite data_version it was read at. */
  dataVersion: number;
  answer: QueryText;
  /** The answer's document ids, in order. */
  ids: readonly string[];
  /** The field paths its membership and order depend on; null when they depend on other documents (a scope by models). */
  fields: readonly string[] | null;
  /** Documents of the collection rewritten since without a change to the answer's members or order: their rows are read again on the next ask. */
  stale: Set<string>;
}

/** A document a commit wrote: stored data before and after (null: absent). */
interface WrittenDoc {
  collection: CollectionName;
  id: string;
  before: Json | null;
  after: Json | null;
  /** Whether the stored text before was `JSON.stringify` of `before` (what SQL saw is what `before` says). */
  comparable: boolean;
}

/**
 * The stored JSON text of the value at a dotted field path, or undefined when there is none: what
 * `json_extract` / `json_type` on that path see (names step into objects only, as `$.a.b` does).
 */
function fieldText(data: Json, path: string): string | undefined {
  let value: unknown = data;
  for (const name of path.split('.')) {
    if (typeof value !== 'object' || value === null || Array.isArray(value) || !Object.hasOwn(value, name)) return undefined;
    value = (value as Json)[name];
  }
  return JSON.stringify(value);
}

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
  /** Query answers by collection, query and scope, least recently used first. */
  private readonly answers = new Map<string, KeptAnswer>();
  /** Bytes of rows in `answers`. */
  private keptBytes = 0;
  /**
   * The JSON text of `{ ...data, id }` per collection and document id, as last read, valid at
   * `rowsDataVersion`: a query after a write reads only the ids in order and the rows written
   * since (the store knows which; {@link commit} drops them), not every document's text.
   */
  private readonly rowCache = new Map<CollectionName, Map<string, Buffer>>();
  /** Bytes in `rowCache`. */
  private rowCacheBytes = 0;
  /** SQLite data_version the row cache was read at (another connection's commit clears it). */
  private rowsDataVersion = -1;
  private readonly selectRowsById;

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
    this.selectRowsById = db.prepare<[string, string], { id: string; json: Buffer }>(
      `SELECT id, ${WITH_ID_SQL} AS json FROM documents WHERE collection = ? AND id IN (SELECT value FROM json_each(?))`,
    );
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
   * What {@link query} returns, as the JSON text of each `{ ...data, id }` object built from the
   * stored JSON without parsing it (the 10,000-model query). Answers are kept per collection,
   * query and scope until a commit by another connection to the database file, or a write to that
   * collection that may change the answer's members or order (a document created or deleted, or a
   * new value in a field the query filters or orders on, or in `visible` where hidden documents
   * are left out); after other writes only the written rows are read again. Rows are kept too:
   * after a write of the first kind only the matching ids are read in order (the same SQL, so
   * filters, order and visibility are the database's) and the text of the rows written since.
   * @param scope restrictions from the role table
   * @returns `{ rows, bytes }`: the same object while kept
   * @throws AppError `invalid-argument` for an invalid field path
   */
  queryText(collection: CollectionName, query: Query, scope: ReadScope = UNRESTRICTED_SCOPE): QueryText {
    // Inside a commit's transaction the rows may still roll back: read them afresh and keep nothing.
    if (this.db.inTransaction) return this.readAnswer(collection, query, scope, false).answer;
    const key = JSON.stringify([
      collection,
      query.where ?? [],
      query.orderBy ?? [],
      query.limit ?? null,
      scope.hideHidden,
      scope.onlyId ?? null,
      scope.modelFields,
    ]);
    const version = this.answerVersion(collection, scope);
    const dataVersion = this.dataVersion.get()?.data_version ?? 0;
    const kept = this.answers.get(key);
    if (kept) {
      this.answers.delete(key);
      this.keptBytes -= kept.answer.bytes;
    }
    if (kept && kept.version === version && kept.dataVersion === dataVersion) {
      const answer = kept.stale.size > 0 ? this.rereadStale(kept, dataVersion) : kept.answer;
      if (answer) {
        kept.answer = answer;
        this.answers.set(key, kept); // most recently used last
        this.keptBytes += answer.bytes;
        return answer;
      }
    }
    // One read transaction: the ids, the data_version and the rows read from one snapshot.
    const { answer, ids, readAt } = this.db.transaction(() => ({
      ...this.readAnswer(collection, query, scope, true),
      readAt: this.rowsDataVersion,
    }))();
    if (answer.bytes > QUERY_TEXT_CACHE_BYTES) return answer;
    // What decides whether a document is in the answer, and where: the filtered and ordered fields, and its visibility.
    const fields =
      scope.modelFields.length > 0
        ? null
        : [
            ...(query.where ?? []).map(([field]) => field),
            ...(query.orderBy ?? []).map(([field]) => field),
            ...(scope.hideHidden ? ['visible'] : []),
          ];
    this.answers.set(key, { collection, version, dataVersion: readAt, answer, ids, fields, stale: new Set() });
    this.keptBytes += answer.bytes;
    // least recently used first
    for (const [oldKey, old] of this.answers) {
      if (this.answers.size <= QUERY_TEXT_CACHE_SIZE && this.keptBytes <= QUERY_TEXT_CACHE_BYTES) break;
      this.answers.delete(oldKey);
      this.keptBytes -= old.answer.bytes;
    }
    return answer;
  }

  /**
   * Reads a query's answer: the matching ids in order and the text of the rows not in the row
   * cache (by id; all rows with the query when the cache holds few of them), with the row cache
   * when `cached` (called inside a read transaction, which fixes the data_version the cache is
   * checked against), straight from the database otherwise.
   */
  private readAnswer(collection: CollectionName, query: Query, scope: ReadScope, cached: boolean): { answer: QueryText; ids: string[] } {
    let known = new Map<string, Buffer>();
    if (cached) {
      const dataVersion = this.dataVersion.get()?.data_version ?? 0;
      if (dataVersion !== this.rowsDataVersion || this.rowCacheBytes > ROW_CACHE_BYTES) {
        this.rowCache.clear();
        this.rowCacheBytes = 0;
        this.rowsDataVersion = dataVersion;
      }
      known = this.rowCache.get(collection) ?? known;
      this.rowCache.set(collection, known);
    }
    const remember = (id: string, json: Buffer): void => {
      const old = known.get(id);
      known.set(id, json);
      if (cached) this.rowCacheBytes += json.length - (old?.length ?? 0);
    };
    let ids: string[] | null = null;
    if (known.size > 0) {
      const { sql, params } = this.select(collection, query, scope, 'id');
      ids = this.db
        .prepare(sql)
        .pluck()
        .all(...params) as string[];
      const missing = ids.filter((id) => !known.has(id));
      if (missing.length > ROWS_BY_ID_MAX) ids = null;
      else if (missing.length > 0) {
        for (const row of this.selectRowsById.all(collection, JSON.stringify(missing))) remember(row.id, row.json);
      }
    }
    if (ids === null) {
      const { sql, params } = this.select(collection, query, scope, `id, ${WITH_ID_SQL} AS json`);
      const read = this.db.prepare(sql).all(...params) as { id: string; json: Buffer }[];
      ids = read.map((row) => {
        remember(row.id, row.json);
        return row.id;
      });
    }
    let bytes = 0;
    const rows = ids.map((id) => {
      const row = known.get(id);
      // Read in the same snapshot as the ids, so every id has its row.
      if (!row) throw new Error(`Document ${collection}/${id} vanished while its query was read`);
      bytes += row.length;
      return row;
    });
    return { answer: Object.freeze({ rows: Object.freeze(rows), bytes }), ids };
  }

  /** The version a kept answer of this collection and scope must have: an answer that withholds the findings or alignments of hidden models changes with the models too. */
  private answerVersion(collection: CollectionName, scope: ReadScope): string {
    const own = String(this.versions.get(collection) ?? 0);
    return scope.modelFields.length > 0 ? `${own}/${this.versions.get('models') ?? 0}` : own;
  }

  /**
   * A kept answer with the rows of its rewritten documents read again (the others as they are):
   * a new object, since the text changed; null when one of them is gone (deleted by another
   * connection just now: the answer is read afresh).
   */
  private rereadStale(kept: KeptAnswer, dataVersion: number): QueryText | null {
    const at: number[] = [];
    kept.ids.forEach((id, i) => {
      if (kept.stale.has(id)) at.push(i);
    });
    const fresh = new Map<string, Buffer>();
    const ids = at.map((i) => kept.ids[i] as string);
    if (ids.length > 0) for (const row of this.selectRowsById.all(kept.collection, JSON.stringify(ids))) fresh.set(row.id, row.json);
    const cache = this.rowsDataVersion === dataVersion ? this.rowCache.get(kept.collection) : undefined;
    const rows = [...kept.answer.rows];
    let bytes = kept.answer.bytes;
    for (const i of at) {
      const id = kept.ids[i] as string;
      const row = fresh.get(id);
      if (!row) return null;
      bytes += row.length - (rows[i] as Buffer).length;
      rows[i] = row;
      if (cache && !cache.has(id)) {
        cache.set(id, row);
        this.rowCacheBytes += row.length;
      }
    }
    kept.stale.clear();
    return Object.freeze({ rows: Object.freeze(rows), bytes });
  }

  /**
   * After a commit: kept answers of the written collections that the writes cannot have
   * reordered or changed the members of (only documents that existed before and after, with the
   * same value in every field the answer's membership and order depend on) stay kept, with those
   * documents' rows read again on the next ask; the others go stale by version.
   */
  private carryAnswers(written: readonly WrittenDoc[], before: ReadonlyMap<CollectionName, string>): void {
    for (const kept of this.answers.values()) {
      const writes = written.filter((doc) => doc.collection === kept.collection);
      if (writes.length === 0 || kept.fields === null || kept.version !== before.get(kept.collection)) continue;
      const fields = kept.fields;
      const sameMembers = writes.every(
        ({ before: old, after: now, comparable }) =>
          comparable && old !== null && now !== null && fields.every((field) => fieldText(old, field) === fieldText(now, field)),
      );
      if (!sameMembers) continue;
      for (const { id } of writes) kept.stale.add(id);
      kept.version = String(this.versions.get(kept.collection) ?? 0);
    }
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
   *   of them in order (the commit-wide rules, e.g. a finding create bound to its model's count bump); throwing
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
    const written: WrittenDoc[] = [];
    const run = this.db.transaction(() => {
      // A transaction's reads must still hold before anything of its batch is looked at.
      if (preconditions) this.checkPreconditions(preconditions);
      const changes: PendingChange[] = [];
      for (const op of ops) {
        const storedText = this.selectOne.get(op.collection, op.id)?.data;
        const stored = storedText === undefined ? null : (JSON.parse(storedText) as Json);
        // Kept answers are carried over a write by comparing field values (carryAnswers), which
        // holds for text as this store writes it, not for text written otherwise (duplicate keys).
        const comparable = stored === null || JSON.stringify(stored) === storedText;
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
          written.push({ collection: op.collection, id: op.id, before: stored, after: change.after, comparable });
        } else if (before) {
          this.remove.run(op.collection, op.id);
          touched.add(op.collection);
          written.push({ collection: op.collection, id: op.id, before: stored, after: null, comparable });
        }
        this.afterWrite(change);
        changes.push(change);
      }
      authorizeAll(changes);
    });
    run();
    // What the row cache holds of these documents is out of date (a rolled-back commit changed nothing).
    for (const { collection, id } of written) {
      const row = this.rowCache.get(collection)?.get(id);
      if (row) {
        this.rowCache.get(collection)?.delete(id);
        this.rowCacheBytes -= row.length;
      }
    }
    const versionsBefore = new Map([...touched].map((collection) => [collection, String(this.versions.get(collection) ?? 0)]));
    for (const collection of touched) this.versions.set(collection, (this.versions.get(collection) ?? 0) + 1);
    this.carryAnswers(written, versionsBefore);
    if (touched.size > 0) this.onChange([...touched]);
  }
}
