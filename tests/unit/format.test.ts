import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatBytes, formatCount, formatDate, formatDateTimeLocal, parseDateOnly, toDate } from '@shared/format.js';
import { samplesDir } from '../support/paths.js';

describe('formatDate (Mon D, YYYY in UTC)', () => {
  it('formats ISO strings in UTC', () => {
    expect(formatDate('2025-06-01T00:00:00.000Z')).toBe('Jun 1, 2025');
    expect(formatDate('2025-06-01T23:59:59.999Z')).toBe('Jun 1, 2025');
    expect(formatDate('2024-12-31T23:30:00-05:00')).toBe('Jan 1, 2025');
  });

  it('treats a YYYY-MM-DD capture date as that calendar day', () => {
    expect(formatDate('2025-06-01')).toBe('Jun 1, 2025');
    expect(formatDate('2024-02-29')).toBe('Feb 29, 2024');
  });

  it('accepts Date, epoch ms, {seconds, nanoseconds} and objects with toDate()', () => {
    const ms = Date.UTC(2025, 5, 1, 12);
    expect(formatDate(new Date(ms))).toBe('Jun 1, 2025');
    expect(formatDate(ms)).toBe('Jun 1, 2025');
    expect(formatDate(0)).toBe('Jan 1, 1970');
    expect(formatDate({ seconds: ms / 1000, nanoseconds: 500_000_000 })).toBe('Jun 1, 2025');
    expect(formatDate({ _seconds: ms / 1000, _nanoseconds: 0 })).toBe('Jun 1, 2025');
    expect(formatDate({ toDate: () => new Date(ms) })).toBe('Jun 1, 2025');
    expect(formatDate(new Date(Date.UTC(2023, 8, 9)))).toBe('Sep 9, 2023');
  });

  it("shows 'N/A' when empty", () => {
    expect(formatDate(null)).toBe('N/A');
    expect(formatDate(undefined)).toBe('N/A');
    expect(formatDate('')).toBe('N/A');
    expect(formatDate('   ')).toBe('N/A');
  });

  it("shows 'Invalid date' for input that is not a date", () => {
    expect(formatDate('not a date')).toBe('Invalid date');
    expect(formatDate('2025-02-30')).toBe('Invalid date');
    expect(formatDate(Number.NaN)).toBe('Invalid date');
    expect(formatDate(new Date('nope'))).toBe('Invalid date');
    expect(formatDate({ foo: 1 })).toBe('Invalid date');
    expect(formatDate({ toDate: () => 'yesterday' })).toBe('Invalid date');
    expect(formatDate(true)).toBe('Invalid date');
  });

  it("shows 'Format error' when formatting throws", () => {
    expect(
      formatDate({
        toDate: () => {
          throw new Error('boom');
        },
      }),
    ).toBe('Format error');
    expect(formatDate(Symbol('x'))).toBe('Format error');
    expect(formatDate(10n)).toBe('Format error');
  });

  it('formatDateTimeLocal shares the empty/invalid/error texts and formats valid dates locally', () => {
    expect(formatDateTimeLocal(null)).toBe('N/A');
    expect(formatDateTimeLocal('garbage')).toBe('Invalid date');
    expect(
      formatDateTimeLocal({
        toDate: () => {
          throw new Error('x');
        },
      }),
    ).toBe('Format error');
    expect(formatDateTimeLocal('2025-06-01T12:00:00Z', 'en-US', { timeZone: 'UTC' })).toBe('6/1/2025, 12:00:00 PM');
  });
});

describe('toDate and parseDateOnly', () => {
  it('never throws and returns null for empty or invalid input', () => {
    expect(toDate(null)).toBeNull();
    expect(toDate('x')).toBeNull();
    expect(
      toDate({
        toDate: () => {
          throw new Error('x');
        },
      }),
    ).toBeNull();
    expect(toDate('2025-06-01')?.toISOString()).toBe('2025-06-01T00:00:00.000Z');
  });

  it('parses calendar dates strictly', () => {
    expect(parseDateOnly('2025-02-28')?.toISOString()).toBe('2025-02-28T00:00:00.000Z');
    expect(parseDateOnly('2025-02-29')).toBeNull();
    expect(parseDateOnly('2025-13-01')).toBeNull();
    expect(parseDateOnly('2025-6-1')).toBeNull();
  });
});

describe('formatBytes (Bytes, KB, MB, GB, TB, base 1024)', () => {
  it.each([
    [0, '0 Bytes'],
    [1, '1 Bytes'],
    [1023, '1023 Bytes'],
    [1024, '1 KB'],
    [1536, '1.5 KB'],
    [2_359_296, '2.25 MB'],
    [1024 ** 3, '1 GB'],
    [1.5 * 1024 ** 4, '1.5 TB'],
    [1024 ** 5, '1024 TB'],
    [1234567, '1.18 MB'],
    [1_048_575, '1 MB'],
  ])('%d → %s', (bytes, text) => {
    expect(formatBytes(bytes)).toBe(text);
  });

  it('shows 0 Bytes for missing or invalid sizes', () => {
    expect(formatBytes(null)).toBe('0 Bytes');
    expect(formatBytes(undefined)).toBe('0 Bytes');
    expect(formatBytes(Number.NaN)).toBe('0 Bytes');
    expect(formatBytes(-5)).toBe('0 Bytes');
  });

  it('honours the number of decimals', () => {
    expect(formatBytes(1234567, 0)).toBe('1 MB');
    expect(formatBytes(1234567, 3)).toBe('1.177 MB');
  });

  it.skipIf(!existsSync(samplesDir)).each([
    ['3dgs-konstruct/point_cloud/iteration_7000/point_cloud.ply', '2.15 MB'],
    ['splat/model.splat', '711.38 KB'],
    ['glb/Duck.glb', '117.66 KB'],
    ['glb/Box.glb', '1.63 KB'],
  ])('formats the size of the real sample %s as %s', (file, text) => {
    expect(formatBytes(statSync(resolve(samplesDir, file)).size)).toBe(text);
  });
});

describe('formatCount', () => {
  it('puts the noun in the right number', () => {
    expect(formatCount(0, 'file')).toBe('0 files');
    expect(formatCount(1, 'file')).toBe('1 file');
    expect(formatCount(31, 'file')).toBe('31 files');
    expect(formatCount(2, 'camera', 'cameras')).toBe('2 cameras');
  });
});
