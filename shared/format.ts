/**
 * Formatters: dates as 'Mon D, YYYY' in UTC (and 'YYYY-MM-DD' for the CLI) and byte sizes in Bytes/KB/MB/GB/TB,
 * plus the date coercion the orderings share.
 */

/** Firestore `Timestamp` as it arrives from the SDK or as JSON (`{seconds, nanoseconds}`). */
export interface TimestampLike {
  seconds: number;
  nanoseconds?: number;
}

/** Anything with a `toDate()` (a Firestore `Timestamp`, a dayjs/moment object…). */
export interface ToDateLike {
  toDate(): Date;
}

/**
 * What the formatters accept: an ISO string (or any string `Date` parses), a `Date`, epoch
 * milliseconds, a Firestore-like `{seconds, nanoseconds}` (also `{_seconds, _nanoseconds}`, the
 * JSON form of firebase-admin), or an object with `toDate()`. null, undefined and blank strings
 * are "empty".
 */
export type DateInput = string | number | Date | TimestampLike | ToDateLike | null | undefined;

/** The short English month name of a date's UTC month: 'Jan' … 'Dec'. */
const MONTH_NAME = new Intl.DateTimeFormat('en-US', { month: 'short', timeZone: 'UTC' });

/** 'N/A': what an empty date shows. */
export const DATE_EMPTY_TEXT = 'N/A';
/** 'Invalid date': an input that is not a date. */
export const DATE_INVALID_TEXT = 'Invalid date';
/** 'Format error': formatting threw, e.g. a `toDate()` that throws. */
export const DATE_FORMAT_ERROR_TEXT = 'Format error';

const DATE_ONLY_RE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** True for null, undefined and strings that are empty after trimming. */
export function isEmptyDateInput(value: unknown): value is null | undefined | '' {
  return value === null || value === undefined || (typeof value === 'string' && value.trim() === '');
}

/**
 * Parses a calendar date 'YYYY-MM-DD' strictly (no roll-over: '2025-02-30' is not a date).
 * @returns the date at 00:00 UTC, or null when the text is not such a date
 */
export function parseDateOnly(text: string): Date | null {
  const match = DATE_ONLY_RE.exec(text.trim());
  if (match === null) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return null;
  return date;
}

/**
 * Converts a {@link DateInput} to a `Date`, throwing what the input throws (`toDate()` may).
 * @returns a Date (possibly an invalid one), or null for empty and unsupported inputs
 */
function coerceDate(value: unknown): Date | null {
  if (isEmptyDateInput(value)) return null;
  if (value instanceof Date) return value;
  if (typeof value === 'number') return new Date(value);
  if (typeof value === 'string') {
    const text = value.trim();
    if (DATE_ONLY_RE.test(text)) return parseDateOnly(text) ?? new Date(Number.NaN);
    return new Date(text);
  }
  if (typeof value === 'object') {
    const obj = value as Record<string, unknown>;
    if (typeof obj.toDate === 'function') {
      const date: unknown = (obj.toDate as () => unknown).call(value);
      return date instanceof Date ? date : new Date(Number.NaN);
    }
    const seconds = typeof obj.seconds === 'number' ? obj.seconds : obj._seconds;
    const nanos = typeof obj.seconds === 'number' ? obj.nanoseconds : obj._nanoseconds;
    if (typeof seconds === 'number') {
      return new Date(seconds * 1000 + (typeof nanos === 'number' ? Math.floor(nanos / 1e6) : 0));
    }
    return new Date(Number.NaN);
  }
  // bigint, symbol, boolean, function: not dates. `new Date(symbol)` would throw; keep that a
  // formatting failure rather than a silent 'Invalid date'.
  if (typeof value === 'symbol' || typeof value === 'bigint') return new Date(value as unknown as number);
  return new Date(Number.NaN);
}

/**
 * The instant a {@link DateInput} stands for, for sorting and comparisons. Never throws.
 * @returns a valid Date, or null when the value is empty, unparseable or its conversion throws
 */
export function toDate(value: unknown): Date | null {
  try {
    const date = coerceDate(value);
    return date !== null && !Number.isNaN(date.getTime()) ? date : null;
  } catch {
    return null;
  }
}

/**
 * Formats a date as 'Mon D, YYYY' in UTC, e.g. 'Jun 1, 2025'.
 * @param value see {@link DateInput}; a 'YYYY-MM-DD' string is that calendar day
 * @returns the formatted date; 'N/A' when empty; 'Invalid date' when the value is not a date;
 *   'Format error' when the conversion or formatting throws
 */
export function formatDate(value: unknown): string {
  if (isEmptyDateInput(value)) return DATE_EMPTY_TEXT;
  try {
    const date = coerceDate(value);
    if (date === null || Number.isNaN(date.getTime())) return DATE_INVALID_TEXT;
    return `${MONTH_NAME.format(date)} ${date.getUTCDate()}, ${date.getUTCFullYear()}`;
  } catch {
    return DATE_FORMAT_ERROR_TEXT;
  }
}

/**
 * Formats a date as 'YYYY-MM-DD' (its UTC calendar day), the CLI's one date format (e.g. a
 * capture date the portal stored as '2025-07-15T00:00:00.000Z' prints as '2025-07-15').
 * @param value see {@link DateInput}; a 'YYYY-MM-DD' string is that calendar day
 * @returns e.g. '2025-07-15'; 'N/A' when empty; 'Invalid date' when the value is not a date;
 *   'Format error' when the conversion throws
 */
export function formatIsoDate(value: unknown): string {
  if (isEmptyDateInput(value)) return DATE_EMPTY_TEXT;
  try {
    const date = coerceDate(value);
    if (date === null || Number.isNaN(date.getTime())) return DATE_INVALID_TEXT;
    return date.toISOString().slice(0, 10);
  } catch {
    return DATE_FORMAT_ERROR_TEXT;
  }
}

/**
 * Formats a timestamp in the viewer's local format (project management shows timestamps in
 * local format), with the same empty/invalid/error texts as {@link formatDate}.
 * @param value see {@link DateInput}
 * @param locales passed to `toLocaleString` (default: the runtime's locale)
 * @param options passed to `toLocaleString`
 */
export function formatDateTimeLocal(value: unknown, locales?: string | string[], options?: Intl.DateTimeFormatOptions): string {
  if (isEmptyDateInput(value)) return DATE_EMPTY_TEXT;
  try {
    const date = coerceDate(value);
    if (date === null || Number.isNaN(date.getTime())) return DATE_INVALID_TEXT;
    return date.toLocaleString(locales, options);
  } catch {
    return DATE_FORMAT_ERROR_TEXT;
  }
}

/** Byte units, base 1024. */
export const BYTE_UNITS = ['Bytes', 'KB', 'MB', 'GB', 'TB'] as const;

/**
 * Formats a size in bytes with the units Bytes, KB, MB, GB, TB (base 1024), rounded to
 * `decimals` places with trailing zeros trimmed: 0 → '0 Bytes', 1536 → '1.5 KB',
 * 2359296 → '2.25 MB'. Sizes beyond TB stay in TB.
 * @param bytes size in bytes; null, undefined, NaN, negative and 0 give '0 Bytes'
 * @param decimals decimal places kept (default 2)
 */
export function formatBytes(bytes: number | null | undefined, decimals = 2): string {
  if (typeof bytes !== 'number' || !Number.isFinite(bytes) || bytes <= 0) return `0 ${BYTE_UNITS[0]}`;
  const places = Math.max(0, Math.floor(decimals));
  const last = BYTE_UNITS.length - 1;
  let unit = Math.min(Math.max(Math.floor(Math.log(bytes) / Math.log(1024)), 0), last);
  let amount = Number((bytes / 1024 ** unit).toFixed(places));
  // 1048575 bytes rounds to '1024 KB'; show it as '1 MB'.
  if (amount >= 1024 && unit < last) {
    unit += 1;
    amount = Number((bytes / 1024 ** unit).toFixed(places));
  }
  return `${amount} ${BYTE_UNITS[unit]}`;
}

/**
 * A count with its noun in the right number: (1, 'file') → '1 file', (3, 'file') → '3 files'.
 * English only; not a catalogue message (the catalogue's own counted messages are in shared/messages.ts).
 * @param count how many (an integer)
 * @param singular the noun for one
 * @param plural the noun for any other count (default: `singular` + 's')
 */
export function formatCount(count: number, singular: string, plural = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : plural}`;
}

/**
 * A number with US thousands separators, as the file checks print counts: 9080 → '9,080',
 * 1234.5 → '1,234.5' (at most 3 decimals, `toLocaleString('en-US')`).
 * @param n any number (NaN gives 'NaN')
 * @returns the formatted number
 */
export function formatNumber(n: number): string {
  return n.toLocaleString('en-US');
}
