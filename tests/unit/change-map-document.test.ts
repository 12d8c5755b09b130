// The stored change map's pure rules (shared/change-map-document.ts): the stamp of a model that a
// change map records as an input (its splat file, its camera metadata, the version of the maths),
// and when a stored map is out of date against the capture, the reference and the pair's alignment
// as they are now: a map of an earlier (or later) version first, then the splat files, the camera
// metadata (added, replaced at the same path, deleted), the alignment (its own registration
// accepted as an 'icp' alignment counts as up to date; another 'icp' matrix does not).
import { describe, expect, it } from 'vitest';
import { IDENTITY_MATRIX } from '@shared/alignment.js';
import {
  ChangeMapMessages,
  changeMapFilesChanged,
  changeMapInputFile,
  changeMapOutOfDate,
  isAcceptedRegistration,
} from '@shared/change-map-document.js';
import { CHANGE_MAP_VERSION } from '@shared/change-map/index.js';
import type { ChangeMapData, ModelData } from '@shared/types.js';

const capture: Pick<ModelData, 'files' | 'uploaded_at'> = {
  files: { splatPath: 'models/c/model.ply', splatSize: 4000 },
  uploaded_at: '2026-01-05T08:00:00.000Z',
};
const reference: Pick<ModelData, 'files' | 'uploaded_at'> = {
  files: { splatPath: 'models/r/model.splat', splatSize: 9000 },
  uploaded_at: '2025-06-02T08:00:00.000Z',
};
/** The capture with camera metadata, and the same after its camera metadata was replaced (same path, a later upload). */
const withCameras: Pick<ModelData, 'files' | 'uploaded_at'> = {
  ...capture,
  files: { ...capture.files, cameraMetadata: 'models/c/camera-metadata.json', cameraMetadataUploadedAt: '2026-01-06T09:00:00.000Z' },
};
const replacedCameras: Pick<ModelData, 'files' | 'uploaded_at'> = {
  ...withCameras,
  files: { ...withCameras.files, cameraMetadataUploadedAt: '2026-03-01T12:00:00.000Z' },
};
/** A stamp as maps stored before the camera metadata and the version were recorded wrote it (version 1). */
const versionOneStamp = (model: Pick<ModelData, 'files' | 'uploaded_at'>): string =>
  `${model.files.splatPath} (${model.files.splatSize} bytes, uploaded ${model.uploaded_at})`;
const turned = [0, 1, 0, 0, -1, 0, 0, 0, 0, 0, 1, 0, 2, 0, 0, 1];

describe('changeMapInputFile', () => {
  it("stamps the original splat's path, size and upload time, the camera metadata and the maths' version", () => {
    expect(changeMapInputFile(capture)).toBe(
      `models/c/model.ply (4000 bytes, uploaded 2026-01-05T08:00:00.000Z); camera metadata none; change map version ${CHANGE_MAP_VERSION}`,
    );
    expect(changeMapInputFile(withCameras)).toBe(
      'models/c/model.ply (4000 bytes, uploaded 2026-01-05T08:00:00.000Z); camera metadata models/c/camera-metadata.json ' +
        `(uploaded 2026-01-06T09:00:00.000Z); change map version ${CHANGE_MAP_VERSION}`,
    );
    expect(changeMapInputFile({ files: {} })).toBe(
      `none (? bytes, uploaded ?); camera metadata none; change map version ${CHANGE_MAP_VERSION}`,
    );
    expect(changeMapInputFile({ files: { cameraMetadata: 'models/c/camera-metadata.json' } })).toContain(
      'camera metadata models/c/camera-metadata.json (uploaded ?)',
    );
    expect(changeMapInputFile({ ...capture, files: { ...capture.files, splatSize: 4001 } })).not.toBe(changeMapInputFile(capture));
    // the camera metadata replaced at its same path: another upload time, another stamp
    expect(changeMapInputFile(replacedCameras)).not.toBe(changeMapInputFile(withCameras));
    // deleted: its upload time cleared with the path, or left behind, reads as none
    expect(changeMapInputFile({ ...withCameras, files: { ...withCameras.files, cameraMetadata: null } })).toBe(changeMapInputFile(capture));
  });

  it('is a valid stamp text (1 to 1,024 characters without control characters) for models as stored', () => {
    const long = { files: { ...withCameras.files, splatPath: `models/${'u'.repeat(36)}/model.ply`, splatSize: 123_456_789_012 } };
    expect(changeMapInputFile(long).length).toBeLessThan(1024);
    expect(changeMapInputFile(long)).not.toMatch(/\p{Cc}/u);
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

describe('changeMapOutOfDate: the camera metadata and the version of the maths', () => {
  const registration = { matrix: [...IDENTITY_MATRIX], rmsError: 0.004, iterations: 12, pairs: 4800 };
  const mapOf = (model: Pick<ModelData, 'files' | 'uploaded_at'>, ref: Pick<ModelData, 'files' | 'uploaded_at'>) => ({
    inputs: { modelFile: changeMapInputFile(model), referenceFile: changeMapInputFile(ref), alignment: null },
    registration,
  });
  const referenceWithCameras = {
    ...reference,
    files: { ...reference.files, cameraMetadata: 'models/r/camera-metadata.json', cameraMetadataUploadedAt: '2025-06-02T08:00:00.000Z' },
  };

  it("names the capture's camera metadata added, replaced or deleted, then the reference's", () => {
    const map = mapOf(withCameras, referenceWithCameras);
    expect(changeMapOutOfDate(map, withCameras, referenceWithCameras, null)).toBeNull();
    expect(changeMapOutOfDate(map, replacedCameras, referenceWithCameras, null)).toBe(ChangeMapMessages.captureCamerasChanged);
    expect(changeMapOutOfDate(map, capture, referenceWithCameras, null)).toBe(ChangeMapMessages.captureCamerasChanged);
    expect(changeMapOutOfDate(mapOf(capture, reference), withCameras, reference, null)).toBe(ChangeMapMessages.captureCamerasChanged);
    expect(changeMapOutOfDate(map, withCameras, reference, null)).toBe(ChangeMapMessages.referenceCamerasChanged);
    // both changed: the capture's first; a splat file changed as well: the file first
    expect(changeMapOutOfDate(map, capture, reference, null)).toBe(ChangeMapMessages.captureCamerasChanged);
    const reuploaded = { ...replacedCameras, uploaded_at: '2026-04-01T00:00:00.000Z' };
    expect(changeMapOutOfDate(map, reuploaded, referenceWithCameras, null)).toBe(ChangeMapMessages.captureChanged);
    // the camera metadata comes before the alignment
    expect(changeMapOutOfDate(map, replacedCameras, referenceWithCameras, { method: 'same-frame', matrix: [...IDENTITY_MATRIX] })).toBe(
      ChangeMapMessages.captureCamerasChanged,
    );
  });

  it('says a map stored by an earlier version of the maths (no version recorded, or a lower one) is out of date, before anything else', () => {
    const old = {
      inputs: { modelFile: versionOneStamp(capture), referenceFile: versionOneStamp(reference), alignment: null },
      registration,
    };
    expect(changeMapOutOfDate(old, capture, reference, null)).toBe(ChangeMapMessages.earlierVersion);
    expect(changeMapOutOfDate(old, withCameras, { files: {} }, null)).toBe(ChangeMapMessages.earlierVersion);
    // one side of the current version is not enough
    const half = { ...old, inputs: { ...old.inputs, modelFile: changeMapInputFile(capture) } };
    expect(changeMapOutOfDate(half, capture, reference, null)).toBe(ChangeMapMessages.earlierVersion);
    const stamp = (version: number) => changeMapInputFile(capture).replace(/version \d+$/, `version ${version}`);
    const at = (version: number) => ({
      ...old,
      inputs: { ...old.inputs, modelFile: stamp(version), referenceFile: changeMapInputFile(reference) },
    });
    expect(changeMapOutOfDate(at(CHANGE_MAP_VERSION), capture, reference, null)).toBeNull();
    expect(changeMapOutOfDate(at(CHANGE_MAP_VERSION - 1), capture, reference, null)).toBe(ChangeMapMessages.earlierVersion);
    expect(changeMapOutOfDate(at(CHANGE_MAP_VERSION + 1), capture, reference, null)).toBe(ChangeMapMessages.laterVersion);
  });

  it('keeps the registration of the same splat files acceptable whatever the cameras and the version', () => {
    const old = { inputs: { modelFile: versionOneStamp(capture), referenceFile: versionOneStamp(reference), alignment: null } };
    expect(changeMapFilesChanged(old, withCameras, reference)).toBeNull();
    expect(changeMapFilesChanged(mapOf(withCameras, reference), replacedCameras, referenceWithCameras)).toBeNull();
    expect(changeMapFilesChanged(old, { ...capture, uploaded_at: '2026-02-01T00:00:00.000Z' }, reference)).toBe(
      ChangeMapMessages.captureChanged,
    );
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
