/**
 * The grace period of `catalog doctor` as people write and read it: `--grace 24h` parsed into
 * milliseconds, and a duration in ms shown back in its largest whole unit.
 */
import { AppError, ErrorCode } from '@shared/errors.js';

/** Longest grace period accepted, in ms (365 days). */
const MAX_GRACE_MS = 365 * 24 * 3600 * 1000;

const DURATION_UNITS_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, min: 60_000, h: 3_600_000, d: 86_400_000 };

/**
 * Reads a grace period as `doctor --grace` takes it: a number and a unit (`ms`, `s`, `m` or
 * `min`, `h`, `d`), e.g. `24h`, `90m`, `1.5d`, or `0` (leave alone only uploads running now).
 * @param text the option's value
 * @returns the duration in ms (whole)
 * @throws AppError `invalid-argument` for anything else, or more than 365 days
 */
export function parseGrace(text: string): number {
  const match = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|min|h|d)?\s*$/i.exec(text);
  const unit = match?.[2]?.toLowerCase();
  const value = match ? Number(match[1]) : Number.NaN;
  const ms = unit === undefined ? (value === 0 ? 0 : Number.NaN) : Math.round(value * (DURATION_UNITS_MS[unit] ?? Number.NaN));
  if (!Number.isFinite(ms) || ms > MAX_GRACE_MS) {
    throw new AppError(
      ErrorCode.InvalidArgument,
      `Invalid grace period '${text}': give a number and a unit (ms, s, m, h, d), e.g. 24h or 30m, or 0; at most 365 days.`,
      { context: { grace: text } },
    );
  }
  return ms;
}

/**
 * A duration for people: `0 s`, `45 s`, `30 min`, `24 h`, `2 d` — the largest unit that divides
 * it (days from two days on, so a day reads `24 h`), else seconds with one decimal.
 * @param ms the duration in ms
 * @returns the duration as text, e.g. `24 h`
 */
export function formatGrace(ms: number): string {
  if (ms % 86_400_000 === 0 && ms >= 2 * 86_400_000) return `${ms / 86_400_000} d`;
  if (ms % 3_600_000 === 0 && ms > 0) return `${ms / 3_600_000} h`;
  if (ms % 60_000 === 0 && ms > 0) return `${ms / 60_000} min`;
  if (ms % 1000 === 0) return `${ms / 1000} s`;
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`;
}
