// Pure helpers of bulk uploads: the manifest parser (CSV and JSON), the stable model uuid and the
// export manifest check.
import { describe, expect, it } from 'vitest';
import { checkExportManifest } from '@shared/export-layout.js';
import { parseCsvRows, parseManifest } from '@shared/manifest.js';
import { formatEta } from '../../cli/src/lib/batch-progress.js';
import { stableModelUuid } from '../../cli/src/lib/resume.js';

describe('parseManifest', () => {
  it('reads CSV with quoted fields, any column order, optional columns and CRLF', () => {
    const csv = 'name,folder,publicId,reference\r\n"Survey, ""north""",./a/,A-1,yes\r\n\r\nB,b,B-1,\r\n';
    expect(parseManifest(csv, 'csv')).toEqual([
      { folder: 'a', publicId: 'A-1', name: 'Survey, "north"', type: null, captureDate: null, reference: true },
      { folder: 'b', publicId: 'B-1', name: 'B', type: null, captureDate: null, reference: false },
    ]);
    expect(parseCsvRows('a,"b\nc"\n')).toEqual([['a', 'b\nc']]);
    // a byte-order mark, mixed line ends, a blank row of spaces and rows of different lengths
    expect(parseCsvRows('\uFEFFa,b\r\nc\n , \nd,e,f\r')).toEqual([['a', 'b'], ['c'], ['d', 'e', 'f']]);
  });

  it('reads JSON arrays and {models: [...]}', () => {
    const entry = { folder: 'x', publicId: 'X-1', name: 'X', type: 'mesh', captureDate: '2025-06-02', reference: true };
    expect(parseManifest(JSON.stringify([entry]), 'json')).toEqual([entry]);
    expect(parseManifest(JSON.stringify({ models: [entry] }), 'json')).toEqual([entry]);
  });

  it('refuses bad input naming where it is', () => {
    expect(() => parseManifest('publicId\nA', 'csv', 'm.csv')).toThrow('m.csv: the header line must name a "folder" column');
    expect(() => parseManifest('folder,type\na,cube', 'csv', 'm.csv')).toThrow(
      'm.csv line 2: type must be hybrid, splat or mesh (got "cube")',
    );
    expect(() => parseManifest('folder,reference\na,maybe', 'csv', 'm.csv')).toThrow('reference must be true or false');
    expect(() => parseManifest('folder\n../up', 'csv', 'm.csv')).toThrow('inside the batch directory');
    expect(() => parseManifest('folder\na\na/', 'csv', 'm.csv')).toThrow('the folder a is listed twice');
    expect(() => parseManifest('{oops', 'json', 'm.json')).toThrow('m.json: not valid JSON');
    expect(() => parseManifest('folder\n"a', 'csv', 'm.csv')).toThrow('m.csv: not valid CSV (Quote Not Closed');
  });
});

describe('stableModelUuid', () => {
  it('is a UUID, the same for the same project and public ID, different otherwise', () => {
    const a = stableModelUuid('p1', 'TWR-001');
    expect(a).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(stableModelUuid('p1', ' TWR-001 ')).toBe(a);
    expect(stableModelUuid('p2', 'TWR-001')).not.toBe(a);
    expect(stableModelUuid('p1', 'TWR-002')).not.toBe(a);
  });
});

describe('formatEta and checkExportManifest', () => {
  it('formats seconds', () => {
    expect(formatEta(65)).toBe('1:05');
    expect(formatEta(3723)).toBe('1:02:03');
    expect(formatEta(Number.NaN)).toBe('--:--');
  });

  it('accepts a version-1 export manifest and refuses others', () => {
    const good = {
      format: 'inspection-catalog-export',
      version: 1,
      exportedAt: '2026-01-02T03:04:05.000Z',
      source: '',
      counts: {},
      files: [{ path: 'models/0b7c1e0e-5d2f-4c4e-9a43-3f1d2a9b6c11/model.ply', size: 3 }],
    };
    expect(checkExportManifest(good)).toEqual(good);
    expect(() => checkExportManifest({ ...good, version: 2 })).toThrow('version 2');
    expect(() => checkExportManifest({ ...good, files: [{ path: 'models/../etc/passwd', size: 1 }] })).toThrow('bad file');
    expect(() => checkExportManifest({})).toThrow('is not a catalog export');
  });
});
