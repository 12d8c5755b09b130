/**
 * Document storage of the embedded backend: Firestore-shaped documents (`shared/types.ts`) kept as
 * JSON in SQLite, read one at a time or by query (compiled in `query-sql.ts`), counted and
 * summarised per project (`project-summaries.ts`), with server timestamps, transactions'
 * preconditions and atomic batches. Query results are also served as JSON text straight from the
 * stored rows (`queryText`, kept in `query-cache.ts` until the next write that may change them).
 */
import { createHash } from 'node:crypto';
import { AppError, ErrorCode } from '@shared/errors.js';
import { validateWriteOp } from '@shared/field-path.js';
import type { ProjectSummary, Query, WriteOp } from '@shared/ports/catalog.js';
import { applyWrite } from '@shared/documents/merge.js';
import type { Json } from '@shared/documents/merge.js';
import { UNRESTRICTED_SCOPE, withheldWrite } from '@shared/rules/document-rules.js';
import type { DocumentLookup, PendingChange, ReadScope } from '@shared/rules/document-rules.js';
import type { CollectionName } from '@shared/types.js';
import type { Precondition } from '@shared/wire/catalog.js';
import type { SqliteDatabase } from '../db.js';
import { projectSummaries } from './project-summaries.js';
import { QueryAnswerCache } from './query-cache.js';
import type { QueryText, WrittenDoc } from './query-cache.js';
import { selectSql, whereSql } from './query-sql.js';

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
 * @returns the version: 43 base64url characters
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

/**
 * The document store. All methods are synchronous (better-sqlite3); `commit` runs its writes
 * in one SQLite transaction and reports the changed collections to `onChange` afterwards.
 */
export class DocumentStore {
  private readonly selectOne;
  private readonly upsert;
  private readonly remove;
  /** Kept query answers and rows, and the write counts they are valid for. */
  private readonly answers: QueryAnswerCache;

  /**
   * @param db the open catalog database (`openDatabase`)
   * @param onChange called after each committed write with the names of the collections it changed
   *   and the documents it wrote (each before and after, null when absent)
   * @param afterWrite called inside the transaction after each applied write (before and after
   *   state); what it writes to the same database commits or rolls back with the batch
   */
  constructor(
    private readonly db: SqliteDatabase,
    private readonly onChange: (collections: CollectionName[], written: readonly WrittenDoc[]) => void,
    private readonly afterWrite: (change: PendingChange) => void = () => undefined,
  ) {
    this.selectOne = db.prepare<[string, string], { data: string }>('SELECT data FROM documents WHERE collection = ? AND id = ?');
    this.upsert = db.prepare<[string, string, string, string, string]>(
      `INSERT INTO documents (collection, id, data, create_time, update_time) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (collection, id) DO UPDATE SET data = excluded.data, update_time = excluded.update_time`,
    );
    this.remove = db.prepare<[string, string]>('DELETE FROM documents WHERE collection = ? AND id = ?');
    this.answers = new QueryAnswerCache(db);
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
   * What {@link query} returns, as the JSON text of each `{ ...data, id }` object, kept until a
   * write may change it (`QueryAnswerCache.queryText`, which says when in words).
   * @param scope restrictions from the role table
   * @returns `{ rows, bytes }`: the same object while kept
   * @throws AppError `invalid-argument` for an invalid field path
   */
  queryText(collection: CollectionName, query: Query, scope: ReadScope = UNRESTRICTED_SCOPE): QueryText {
    return this.answers.queryText(collection, query, scope);
  }

  /** The rows of a query (id and stored JSON text), in its order. */
  private rows(collection: CollectionName, query: Query, scope: ReadScope): { id: string; data: string }[] {
    const { sql, params } = selectSql(collection, query, scope, 'id, data');
    return this.db.prepare(sql).all(...params) as { id: string; data: string }[];
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
    return projectSummaries(this.db, scope);
  }

  /** Counts what {@link query} would return (limit applies). */
  count(collection: CollectionName, query: Query, scope: ReadScope = UNRESTRICTED_SCOPE): number {
    const params: unknown[] = [];
    const inner = `SELECT 1 FROM documents WHERE ${whereSql(collection, query, scope, params)}${query.limit !== undefined ? ' LIMIT ?' : ''}`;
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
   * Afterwards `onChange` hears which collections and documents it wrote.
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
    this.answers.committed(written, touched);
    if (touched.size > 0) this.onChange([...touched], written);
  }
}
