// The stored change map's pure rules (shared/change-map-document.ts): the stamp of a model's file
// that a change map records as an input, and when a stored map is out of date against the
// capture, the reference and the pair's alignment as they are now (its own registration accepted
// as an 'icp' alignment counts as up to date; another 'icp' matrix does not).
import { describe, expect, it } from 'vitest';
import { IDENTITY_MATRIX } from '@shared/alignment.js';
import {
  ChangeMapMessages,
  changeMapFilesChanged,
  changeMapInputFile,
  changeMapOutOfDate,
  isAcceptedRegistration,
} from '@shared/change-map-document.js';
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
  const refined = [0, 1, 0, 0, -1, 0, 0, 0, 0, 0, 1, 0, 2.01, -0.02, 0, 1];
  const map: Pick<ChangeMapData, 'inputs' | 'registration'> = {
    inputs: {
      modelFile: changeMapInputFile(capture),
      referenceFile: changeMapInputFile(reference),
      alignment: { method: '3-point', matrix: [...turned] },
    },
    registration: { matrix: [...refined], rmsError: 0.004, iterations: 12, pairs: 4800 },
  };
  const alignment = { method: '3-point' as const, matrix: [...turned] };

  it('is null while both files and the alignment are those it was computed from', () => {
    expect(changeMapOutOfDate(map, capture, reference, alignment)).toBeNull();
    expect(changeMapOutOfDate({ ...map, inputs: { ...map.inputs, alignment: null } }, capture, reference, null)).toBeNull();
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
    expect(changeMapOutOfDate({ ...map, inputs: { ...map.inputs, alignment: null } }, capture, reference, alignment)).toBe(
      ChangeMapMessages.alignmentChanged,
    );
  });

  it("is null when the pair's alignment is this map's registration accepted ('icp', the same 16 numbers), from any start", () => {
    const accepted = { method: 'icp' as const, matrix: [...refined] };
    expect(isAcceptedRegistration(map, accepted)).toBe(true);
    expect(changeMapOutOfDate(map, capture, reference, accepted)).toBeNull();
    // computed from no alignment, then accepted: up to date as well
    expect(changeMapOutOfDate({ ...map, inputs: { ...map.inputs, alignment: null } }, capture, reference, accepted)).toBeNull();
    // computed from an accepted registration that is still the pair's alignment: the recorded one, up to date
    const fromIcp = { ...map, inputs: { ...map.inputs, alignment: { method: 'icp', matrix: [...turned] } } };
    expect(changeMapOutOfDate(fromIcp, capture, reference, { method: 'icp', matrix: [...turned] })).toBeNull();
  });

  it("is out of date for an 'icp' alignment of another matrix, for the registration's matrix under a manual method, and when a file changed", () => {
    const nudged = [...refined.slice(0, 12), 2.02, -0.02, 0, 1];
    expect(isAcceptedRegistration(map, { method: 'icp', matrix: nudged })).toBe(false);
    expect(changeMapOutOfDate(map, capture, reference, { method: 'icp', matrix: nudged })).toBe(ChangeMapMessages.alignmentChanged);
    expect(isAcceptedRegistration(map, { method: '3-point', matrix: [...refined] })).toBe(false);
    expect(changeMapOutOfDate(map, capture, reference, { method: '3-point', matrix: [...refined] })).toBe(
      ChangeMapMessages.alignmentChanged,
    );
    expect(isAcceptedRegistration(map, null)).toBe(false);
    // the files come first: an accepted registration of files changed since is out of date
    const reuploaded = { ...capture, uploaded_at: '2026-02-01T00:00:00.000Z' };
    expect(changeMapOutOfDate(map, reuploaded, reference, { method: 'icp', matrix: [...refined] })).toBe(ChangeMapMessages.captureChanged);
  });
});

describe('changeMapFilesChanged', () => {
  const map = { inputs: { modelFile: changeMapInputFile(capture), referenceFile: changeMapInputFile(reference), alignment: null } };

  it("names the capture's file, then the reference's, whatever the alignment; null while both are those measured", () => {
    expect(changeMapFilesChanged(map, capture, reference)).toBeNull();
    expect(changeMapFilesChanged(map, { ...capture, uploaded_at: '2026-02-01T00:00:00.000Z' }, { files: {} })).toBe(
      ChangeMapMessages.captureChanged,
    );
    expect(changeMapFilesChanged(map, capture, { ...reference, files: { splatPath: 'models/r/model.splat', splatSize: 1 } })).toBe(
      ChangeMapMessages.referenceChanged,
    );
  });
});
