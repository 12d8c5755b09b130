/**
 * The query-answer cache of the embedded document store: query results served as JSON text built
 * from the stored rows without parsing them, kept per collection, query and read scope until a
 * write may change them, with a row cache so that a query after a write reads only what changed.
 */
import type { Json } from '@shared/documents/merge.js';
import type { Query } from '@shared/ports/catalog.js';
import type { ReadScope } from '@shared/rules/document-rules.js';
import type { CollectionName } from '@shared/types.js';
import type { SqliteDatabase } from '../db.js';
import { WITH_ID_SQL, selectSql } from './query-sql.js';

/**
 * A query's answer as JSON text (`QueryAnswerCache.queryText`): the same object while the answer
 * is unchanged, so callers may keep derived forms (the whole body, compressed copies) in a
 * WeakMap keyed by it.
 */
export interface QueryText {
  /** The UTF-8 JSON text of each `{ ...data, id }` object, in the query's order (shared with the store's row cache: never modify). */
  readonly rows: readonly Buffer[];
  /** Bytes of all rows together (without separators). */
  readonly bytes: number;
}

/** Most query answers kept by {@link QueryAnswerCache.queryText} (one per collection, query and read scope). */
const QUERY_TEXT_CACHE_SIZE = 32;
/** Most bytes of rows kept in all answers (32 MiB: five 10,000-model answers); a larger answer is not kept. */
const QUERY_TEXT_CACHE_BYTES = 32 * 1024 * 1024;
/** Most bytes of JSON in the row cache (all collections); past it the cache starts over. */
const ROW_CACHE_BYTES = 64 * 1024 * 1024;
/** Past this many rows not in the row cache, a query's rows are read with it rather than by id afterwards. */
const ROWS_BY_ID_MAX = 500;

/** A kept query answer (`QueryAnswerCache.queryText`). */
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
export interface WrittenDoc {
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
 * The kept query answers and rows of one database connection, and the write counts per
 * collection they are valid for. Synchronous (better-sqlite3).
 */
export class QueryAnswerCache {
  private readonly dataVersion;
  /** Writes committed per collection (bumped by {@link committed}): what kept query answers are valid for. */
  private readonly versions = new Map<CollectionName, number>();
  /** Query answers by collection, query and scope, least recently used first. */
  private readonly answers = new Map<string, KeptAnswer>();
  /** Bytes of rows in `answers`. */
  private keptBytes = 0;
  /**
   * The JSON text of `{ ...data, id }` per collection and document id, as last read, valid at
   * `rowsDataVersion`: a query after a write reads only the ids in order and the rows written
   * since (the store knows which; {@link committed} drops them), not every document's text.
   */
  private readonly rowCache = new Map<CollectionName, Map<string, Buffer>>();
  /** Bytes in `rowCache`. */
  private rowCacheBytes = 0;
  /** SQLite data_version the row cache was read at (another connection's commit clears it). */
  private rowsDataVersion = -1;
  private readonly selectRowsById;

  /** @param db the open catalog database (`openDatabase`) */
  constructor(private readonly db: SqliteDatabase) {
    // Changes when another connection commits to the file (this process's own writes bump `versions`).
    this.dataVersion = db.prepare<[], { data_version: number }>('PRAGMA data_version');
    this.selectRowsById = db.prepare<[string, string], { id: string; json: Buffer }>(
      `SELECT id, ${WITH_ID_SQL} AS json FROM documents WHERE collection = ? AND id IN (SELECT value FROM json_each(?))`,
    );
  }

  /**
   * What `DocumentStore.query` returns, as the JSON text of each `{ ...data, id }` object built from the
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
  queryText(collection: CollectionName, query: Query, scope: ReadScope): QueryText {
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
      const { sql, params } = selectSql(collection, query, scope, 'id');
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
      const { sql, params } = selectSql(collection, query, scope, `id, ${WITH_ID_SQL} AS json`);
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

  /**
   * After a commit (never a rolled-back one): drops the written documents' rows from the row
   * cache, counts one write per touched collection, and keeps the answers the writes cannot have
   * changed the members or order of.
   * @param written the documents the commit wrote, in order, with their data before and after
   * @param touched the collections it changed
   */
  committed(written: readonly WrittenDoc[], touched: ReadonlySet<CollectionName>): void {
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
  }
}
