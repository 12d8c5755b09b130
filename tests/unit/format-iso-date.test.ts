// The CLI's one date format (every date it prints is the UTC calendar day, YYYY-MM-DD):
// shared/format.ts formatIsoDate and the CLI's helpers over it (cli/src/lib/output.ts captureDateText, withReadableDates).
import { describe, expect, it } from 'vitest';
import { formatIsoDate } from '@shared/format.js';
import { captureDateText, withReadableDates } from '../../cli/src/lib/output.js';

describe('formatIsoDate', () => {
  it('prints the UTC calendar day of dates, timestamps and Firestore-like values', () => {
    expect(formatIsoDate('2025-07-15')).toBe('2025-07-15');
    expect(formatIsoDate('2025-07-15T00:00:00.000Z')).toBe('2025-07-15');
    expect(formatIsoDate('2025-07-15T23:59:59.999Z')).toBe('2025-07-15');
    expect(formatIsoDate(new Date(Date.UTC(2024, 1, 29, 12)))).toBe('2024-02-29');
    expect(formatIsoDate({ seconds: 1752537600 })).toBe('2025-07-15');
    expect(formatIsoDate({ _seconds: 1752537600, _nanoseconds: 0 })).toBe('2025-07-15');
  });

  it('gives the date formatter texts (N/A, Invalid date, Format error) for empty, invalid and throwing values', () => {
    expect(formatIsoDate(null)).toBe('N/A');
    expect(formatIsoDate('  ')).toBe('N/A');
    expect(formatIsoDate('2025-02-30')).toBe('Invalid date');
    expect(formatIsoDate('not a date')).toBe('Invalid date');
    expect(
      formatIsoDate({
        toDate() {
          throw new Error('boom');
        },
      }),
    ).toBe('Format error');
  });
});

describe('the CLI human output of capture dates', () => {
  it("prints 'YYYY-MM-DD' or '-' and leaves the record itself unchanged", () => {
    expect(captureDateText('2025-07-15T00:00:00.000Z')).toBe('2025-07-15');
    expect(captureDateText(null)).toBe('-');
    expect(captureDateText('')).toBe('-');
    const stored = { id: 'm1', metadata: { captureDate: '2025-07-15T00:00:00.000Z', displayOrder: 0 } };
    expect(withReadableDates(stored)).toEqual({ id: 'm1', metadata: { captureDate: '2025-07-15', displayOrder: 0 } });
    expect(stored.metadata.captureDate).toBe('2025-07-15T00:00:00.000Z');
    const none = { id: 'm2', metadata: { captureDate: null } };
    expect(withReadableDates(none)).toBe(none);
  });
});
