/**
 * The embedded backend's SQLite database (better-sqlite3, WAL mode): documents, accounts,
 * refresh tokens and stored-file metadata in one file, `<dataDir>/catalog.db`.
 */
import Database from 'better-sqlite3';
import type { Database as SqliteDatabase } from 'better-sqlite3';

export type { SqliteDatabase };

const schema = `
CREATE TABLE IF NOT EXISTS documents (
  collection TEXT NOT NULL,
  id TEXT NOT NULL,
  data TEXT NOT NULL CHECK (json_valid(data)),
  create_time TEXT NOT NULL,
  update_time TEXT NOT NULL,
  PRIMARY KEY (collection, id)
) WITHOUT ROWID;

-- Models by project: a project's models, and the Public ID check of every model write,
-- without reading every model (documents/query-sql.ts writes this exact expression into its queries).
CREATE INDEX IF NOT EXISTS documents_project_id ON documents (collection, json_extract(data, '$.projectId'));
-- Models in publicId order (the model list's live query) read from the index, without a sort.
CREATE INDEX IF NOT EXISTS documents_public_id ON documents (collection, json_extract(data, '$.publicId'));

CREATE TABLE IF NOT EXISTS accounts (
  uid TEXT PRIMARY KEY,
  email TEXT NOT NULL UNIQUE,
  password_hash TEXT NOT NULL,
  disabled INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL
);

CREATE TABLE IF NOT EXISTS refresh_tokens (
  token_hash TEXT PRIMARY KEY,
  uid TEXT NOT NULL REFERENCES accounts(uid) ON DELETE CASCADE,
  expires_at INTEGER NOT NULL
);

CREATE TABLE IF NOT EXISTS files (
  path TEXT PRIMARY KEY,
  size INTEGER NOT NULL,
  content_type TEXT,
  updated TEXT NOT NULL,
  token TEXT NOT NULL
);
`;

/**
 * Opens (creating when missing) the catalog database in WAL mode with foreign keys on.
 * @param file path of the SQLite file, e.g. `<dataDir>/catalog.db`
 * @returns the open database; close it with `db.close()`
 */
export function openDatabase(file: string): SqliteDatabase {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  db.exec(schema);
  return db;
}
