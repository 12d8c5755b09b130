/**
 * The findings table as a CSV file (the portal report's download and `catalog findings
 * export`): its columns and the spreadsheet-safe writing of every field.
 */
import { stringify } from 'csv-stringify/browser/esm/sync';
import type { FindingRow } from './findings-table.js';

/** Columns of the findings CSV, in order, with their headers. */
export const FINDINGS_CSV_COLUMNS: ReadonlyArray<[keyof FindingRow, string]> = [
  ['number', 'Finding'],
  ['modelName', 'Model'],
  ['publicId', 'Public ID'],
  ['captureDate', 'Capture Date'],
  ['title', 'Title'],
  ['category', 'Category'],
  ['severity', 'Severity'],
  ['status', 'Status'],
  ['measurement', 'Measurement'],
  ['point', 'Point'],
  ['author', 'Author'],
  ['created', 'Created'],
  ['photos', 'Photos'],
  ['followUpOf', 'Follow-up Of'],
  ['note', 'Note'],
  ['id', 'ID'],
  ['changeRegion', 'Change Region'],
];

/**
 * A line break followed by a character that makes a spreadsheet read the rest as a formula (or
 * that it skips before one): = + - @, tab, and their full-width forms. Carriage return counts as a
 * line break itself.
 */
const FORMULA_AFTER_LINE_BREAK = /(\r\n|\r|\n)(?=[=+\-@\t\uFF1D\uFF0B\uFF0D\uFF20])/g;

/**
 * The findings table as CSV (RFC 4180 by csv-stringify: CRLF line ends, header row first). Every
 * field holding a line break (CR, LF or both), the delimiter or a quote is quoted, so no text of a
 * finding can start a new row. A text field that starts with = + - @, a tab or a carriage return,
 * or has such a character at the start of any line inside it, gets an apostrophe there, so a
 * spreadsheet shows the text instead of running it as a formula (numbers are written as they are).
 * @param rows from {@link findingRows}
 * @returns the CSV text, ending with CRLF
 */
export function findingsCsv(rows: readonly FindingRow[]): string {
  return stringify(
    rows.map((row) => FINDINGS_CSV_COLUMNS.map(([key]) => row[key] ?? '')),
    {
      header: true,
      columns: FINDINGS_CSV_COLUMNS.map(([, header]) => header),
      record_delimiter: 'windows',
      // With a record delimiter set, csv-stringify quotes only fields holding that delimiter
      // (CRLF); a lone CR or LF would otherwise end the row in a spreadsheet.
      quote_record_delimiter: true,
      // escape_formulas covers a field's start; the cast covers the start of each later line.
      escape_formulas: true,
      cast: { string: (value) => value.replace(FORMULA_AFTER_LINE_BREAK, "$1'") },
    },
  );
}
