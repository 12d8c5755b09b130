// The stored change map's pure rules (shared/change-map-document.ts): the stamp of a model's file
// that a change map records as an input, and when a stored map is out of date against the
// capture, the reference and the pair's alignment as they are now.
import { describe, expect, it } from 'vitest';
import { IDENTITY_MATRIX } from '@shared/alignment.js';
import { ChangeMapMessages, changeMapInputFile, changeMapOutOfDate } from '@shared/change-map-document.js';
import type { ChangeMapData, ModelData } from '@shared/types.js';

const capture: Pick<ModelData, 'files' | 'uploaded_at'> = {
  files: { splatPath: 'models/c/model.ply', splatSize: 4000 },
  uploaded_at: '2026-01-05T08:00:00.000Z',
};
const reference: Pick<ModelData, 'files' | 'uploaded_at'> = {
  files: { splatPath: 'models/r/model.splat', splatSize: 9000 },
  uploaded_at: '2025-06-02T08:00:00.000Z',
};
const turned = [0, 1, 0, 0, -1, 0, 0, 0, 0, 0, 1, 0, 2, 0, 0, 1];

describe('changeMapInputFile', () => {
  it("stamps the original splat's path, size and upload time", () => {
    expect(changeMapInputFile(capture)).toBe('models/c/model.ply (4000 bytes, uploaded 2026-01-05T08:00:00.000Z)');
    expect(changeMapInputFile({ files: {} })).toBe('none (? bytes, uploaded ?)');
    expect(changeMapInputFile({ ...capture, files: { ...capture.files, splatSize: 4001 } })).not.toBe(changeMapInputFile(capture));
  });
});

describe('changeMapOutOfDate', () => {
  const map: Pick<ChangeMapData, 'inputs'> = {
    inputs: {
      modelFile: changeMapInputFile(capture),
      referenceFile: changeMapInputFile(reference),
      alignment: { method: '3-point', matrix: [...turned] },
    },
  };
  const alignment = { method: '3-point' as const, matrix: [...turned] };

  it('is null while both files and the alignment are those it was computed from', () => {
    expect(changeMapOutOfDate(map, capture, reference, alignment)).toBeNull();
    expect(changeMapOutOfDate({ inputs: { ...map.inputs, alignment: null } }, capture, reference, null)).toBeNull();
  });

  it("says which input changed: the capture's file, the reference's, then the alignment", () => {
    const reuploaded = { ...capture, uploaded_at: '2026-02-01T00:00:00.000Z' };
    expect(changeMapOutOfDate(map, reuploaded, reference, alignment)).toBe(ChangeMapMessages.captureChanged);
    expect(changeMapOutOfDate(map, reuploaded, { files: {} }, null)).toBe(ChangeMapMessages.captureChanged);
    expect(changeMapOutOfDate(map, capture, { ...reference, files: { splatPath: 'models/r/model.ply', splatSize: 9000 } }, alignment)).toBe(
      ChangeMapMessages.referenceChanged,
    );
    expect(changeMapOutOfDate(map, capture, reference, null)).toBe(ChangeMapMessages.alignmentChanged);
    expect(changeMapOutOfDate(map, capture, reference, { method: 'same-frame', matrix: [...turned] })).toBe(
      ChangeMapMessages.alignmentChanged,
    );
    expect(changeMapOutOfDate(map, capture, reference, { ...alignment, matrix: [...IDENTITY_MATRIX] })).toBe(
      ChangeMapMessages.alignmentChanged,
    );
    expect(changeMapOutOfDate({ inputs: { ...map.inputs, alignment: null } }, capture, reference, alignment)).toBe(
      ChangeMapMessages.alignmentChanged,
    );
  });
});
