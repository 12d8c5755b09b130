/**
 * The bulk-upload manifest (`catalog models upload-many`): per-folder model metadata, as CSV or
 * JSON, or one `model.json` per folder. Pure parsing; the CLI reads the files.
 *
 * Layout (documented in `catalog models upload-many --help`):
 * - JSON: an array of entries, or `{ "models": [entries] }`. An entry:
 *   `{ "folder": "tower-2025", "publicId": "TWR-001-2025", "name": "June 2025 survey",
 *      "type": "splat", "captureDate": "2025-06-02", "reference": false }`
 * - CSV: a header line naming the columns `folder,publicId,name,type,captureDate,reference`
 *   (any order; `type`, `captureDate`, `reference` optional), one model a line; fields may be
 *   double-quoted ("" inside quotes is a quote).
 * - `model.json` in a model folder: one entry without `folder`.
 * `folder` is relative to the batch directory ('/'-separated). `reference` accepts
 * true/false/yes/no/1/0.
 */
// csv-parse's browser build: the same parser with no Node built-ins, so this module stays pure.
import { CsvError, parse } from 'csv-parse/browser/esm/sync';
import { AppError, ErrorCode, errorMessage } from './errors.js';
import { isModelType } from './model-type.js';
import type { ModelType } from './types.js';

/** One model of a batch, as read from a manifest. */
export interface ManifestEntry {
  /** Folder relative to the batch directory, '/'-separated, no leading './'. */
  folder: string;
  publicId: string;
  name: string;
  /** Model type; null → inferred from the files. */
  type: ModelType | null;
  /** Capture date text as written (the CLI normalises it); null when absent. */
  captureDate: string | null;
  reference: boolean;
}

const BOOL_TRUE = new Set(['true', 'yes', '1', 'y']);
const BOOL_FALSE = new Set(['false', 'no', '0', 'n', '']);

function bad(where: string, message: string): AppError {
  return new AppError(ErrorCode.InvalidArgument, `${where}: ${message}`, { context: { where } });
}

function text(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value.trim();
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return '';
}

/** Normalises a folder: '\' → '/', no leading './' or trailing '/'. */
export function normaliseManifestFolder(folder: string): string {
  return folder
    .trim()
    .replace(/\\/g, '/')
    .replace(/^(\.\/)+/, '')
    .replace(/\/+$/, '');
}

/**
 * Checks and normalises one manifest entry.
 * @param raw an object with the entry's fields (strings, or JSON values)
 * @param where where it came from, for messages ('manifest.csv line 3')
 * @param folderFallback the folder to use when the entry has none (model.json)
 * @returns the entry
 * @throws AppError `invalid-argument` naming `where` (bad type, bad reference flag, unsafe folder)
 */
export function toManifestEntry(raw: Record<string, unknown>, where: string, folderFallback?: string): ManifestEntry {
  const folder = normaliseManifestFolder(text(raw.folder) || folderFallback || '');
  if (folder === '') throw bad(where, 'the folder is missing');
  if (folder.startsWith('/') || folder.split('/').includes('..'))
    throw bad(where, `the folder must be inside the batch directory: ${folder}`);
  const typeText = text(raw.type ?? raw.modelType).toLowerCase();
  if (typeText !== '' && !isModelType(typeText)) throw bad(where, `type must be hybrid, splat or mesh (got "${typeText}")`);
  const refRaw = raw.reference ?? raw.isReference;
  let reference: boolean;
  if (typeof refRaw === 'boolean') reference = refRaw;
  else {
    const refText = text(refRaw).toLowerCase();
    if (BOOL_TRUE.has(refText)) reference = true;
    else if (BOOL_FALSE.has(refText)) reference = false;
    else throw bad(where, `reference must be true or false (got "${refText}")`);
  }
  const captureDate = text(raw.captureDate ?? raw.capture_date);
  return {
    folder,
    publicId: text(raw.publicId ?? raw.public_id),
    name: text(raw.name),
    type: typeText === '' ? null : (typeText as ModelType),
    captureDate: captureDate === '' ? null : captureDate,
    reference,
  };
}

/**
 * Splits CSV text into rows of fields with csv-parse (RFC 4180: double-quoted fields, "" for a
 * quote inside quotes, rows ended by CRLF, LF or CR, a leading byte-order mark ignored). Rows may
 * have different numbers of fields; rows whose fields are all blank are left out; a quote inside
 * an unquoted field is kept as a character.
 * @param source the CSV text
 * @returns the rows, each an array of its fields as written (not trimmed)
 * @throws AppError `invalid-argument` for text that is not CSV (a quoted field that never closes,
 *   text after a closing quote), the message naming the line
 */
export function parseCsvRows(source: string): string[][] {
  try {
    return parse(source, {
      bom: true,
      record_delimiter: ['\r\n', '\n', '\r'],
      relax_column_count: true,
      relax_quotes: true,
      skip_empty_lines: true,
      skip_records_with_empty_values: true,
    });
  } catch (error) {
    if (error instanceof CsvError) throw new AppError(ErrorCode.InvalidArgument, `not valid CSV (${error.message})`);
    throw error;
  }
}

/**
 * Parses a manifest.
 * @param source the file's text
 * @param format 'csv' or 'json'
 * @param name the file name, for messages
 * @returns the entries, in file order
 * @throws AppError `invalid-argument` (unparsable JSON or CSV, CSV without a `folder` column, bad
 *   entry, the same folder twice)
 */
export function parseManifest(source: string, format: 'csv' | 'json', name = 'manifest'): ManifestEntry[] {
  const entries: ManifestEntry[] = [];
  if (format === 'json') {
    let parsed: unknown;
    try {
      parsed = JSON.parse(source);
    } catch (error) {
      throw bad(name, `not valid JSON (${errorMessage(error)})`);
    }
    const list = Array.isArray(parsed) ? parsed : (parsed as { models?: unknown })?.models;
    if (!Array.isArray(list)) throw bad(name, 'expected an array of models or {"models": [...]}');
    list.forEach((item, i) => {
      if (typeof item !== 'object' || item === null) throw bad(`${name} entry ${i + 1}`, 'expected an object');
      entries.push(toManifestEntry(item as Record<string, unknown>, `${name} entry ${i + 1}`));
    });
  } else {
    let rows: string[][];
    try {
      rows = parseCsvRows(source);
    } catch (error) {
      throw bad(name, error instanceof AppError ? error.message : String(error));
    }
    if (rows.length === 0) return [];
    const header = rows[0].map((h) => h.trim());
    if (!header.includes('folder')) throw bad(name, 'the header line must name a "folder" column');
    rows.slice(1).forEach((cells, i) => {
      const raw: Record<string, unknown> = {};
      header.forEach((h, j) => (raw[h] = cells[j] ?? ''));
      entries.push(toManifestEntry(raw, `${name} line ${i + 2}`));
    });
  }
  const seen = new Set<string>();
  for (const entry of entries) {
    if (seen.has(entry.folder)) throw bad(name, `the folder ${entry.folder} is listed twice`);
    seen.add(entry.folder);
  }
  return entries;
}
