/**
 * The stored change map ('changeMaps', `ChangeMapData`) as pure rules: its limits, the messages
 * of its stored-document rules, the stamp of a model it records as an input (its splat file, its
 * camera metadata, the version of the maths), and whether a stored map is out of date against the
 * models and the alignment as they are now (its own registration accepted as the alignment counts
 * as up to date), and its distances and change
 * regions in words (the viewer's panel, the findings made from a region). The maths that
 * computes a change map is `shared/change-map/`; the reads and writes are
 * `shared/workflows/change-maps.ts`.
 */
import { comparedFileOf } from './change-map-compared-file.js';
import { CHANGE_MAP_VERSION } from './change-map/version.js';
import type { AlignmentData, ChangeMapData, FindingChangeRegion, ModelData } from './types.js';

/** Most bins of a change map's histogram of distances. */
export const CHANGE_MAP_HISTOGRAM_BINS_MAX = 64;

/** Most change regions a change map stores (both sides together). */
export const CHANGE_MAP_REGIONS_MAX = 100;

/** The messages of the change map's stored-document rules and of its workflows, shown as they are. */
export const ChangeMapMessages = {
  key: "A change map is stored at {referenceModelId}__{modelId}, the key of its pair's alignment",
  sameModel: 'A capture cannot be compared with itself',
  valuesPath: "A change map's valuesPath is the capture's models/{uuid}/changes/{referenceModelId}.bin",
  inputs: "A change map's inputs are the capture's and the reference's stamps (texts) and the alignment used ({method, matrix}) or null",
  registrationMatrix:
    "A change map's registration matrix is 16 finite numbers (column-major) of an invertible transform with last row 0 0 0 1",
  registration: "A change map's registration has a finite rmsError of 0 or more and whole iterations and pairs of 0 or more",
  levelOfDetection: "A change map's levelOfDetection is a finite number of 0 or more (model units)",
  pointCounts: "A change map's pointCount and referencePointCount are whole numbers of 0 or more",
  histogram: `A change map's histogram has 1 to ${CHANGE_MAP_HISTOGRAM_BINS_MAX} bins of whole counts between finite min and max (min ≤ max)`,
  regionsMax: `A change map has at most ${CHANGE_MAP_REGIONS_MAX} change regions`,
  region:
    "A change region has a whole id of 1 or more, side 'capture' or 'reference', centroid, min and max of 3 finite numbers each, a whole count of 1 or more and finite mean and max distances",
  captureChanged: "The capture's file changed since this change map was computed",
  referenceChanged: "The reference model's file changed since this change map was computed",
  captureCamerasChanged: "The capture's camera metadata changed since this change map was computed",
  referenceCamerasChanged: "The reference model's camera metadata changed since this change map was computed",
  earlierVersion: 'This change map was computed by an earlier version of the catalog',
  laterVersion: 'This change map was computed by a later version of the catalog',
  alignmentChanged: 'The alignment changed since this change map was computed',
  /**
   * Saving a change map whose values file is not stored.
   * @param path the values file's storage path
   */
  valuesMissing: (path: string): string => `The change map's values file is not stored at ${path}: upload it before saving the map`,
} as const;

/** What of a model record a change map's stamp reads: its `files` and `uploaded_at`. */
export type ChangeMapInputModel = Pick<ModelData, 'files' | 'uploaded_at'>;

/** The file part of a stamp: the compared file's path (the original splat, or the GLB of a mesh-only model: `comparedFileOf`), its size and the model's upload time. */
function splatStamp(model: ChangeMapInputModel): string {
  const file = comparedFileOf(model);
  const path = file?.path ?? 'none';
  const size = typeof file?.size === 'number' ? String(file.size) : '?';
  return `${path} (${size} bytes, uploaded ${model.uploaded_at ?? '?'})`;
}

/** The camera-metadata part of a stamp: its path and upload time, or 'none'. */
function camerasStamp(model: ChangeMapInputModel): string {
  const path = model.files?.cameraMetadata;
  return path ? `${path} (uploaded ${model.files?.cameraMetadataUploadedAt ?? '?'})` : 'none';
}

/**
 * The stamp of what a change map reads of a model, as `inputs.modelFile` and
 * `inputs.referenceFile` record it: the file it compares (the original splat, or the GLB of a mesh-only model; storage path, size in bytes, the
 * model's upload time), its camera metadata (storage path and upload time, or 'none': its
 * cameras orient the surfaces, so they decide a change's sign) and the version of the change-map
 * maths ({@link CHANGE_MAP_VERSION}), e.g. `models/u1/model.ply (48213 bytes, uploaded
 * 2025-06-02T10:00:00.000Z); camera metadata models/u1/camera-metadata.json (uploaded
 * 2025-06-02T10:00:00.000Z); change map version 2`. A new upload of the splat file, camera
 * metadata added, replaced or deleted, or other maths change the stamp, so a map computed before
 * reads as out of date ({@link changeMapOutOfDate}). (Maps stored before the camera metadata and
 * the version were recorded hold the splat part alone: version 1.)
 * @param model the model record (its `files` and `uploaded_at`; missing ones show as 'none' and '?')
 * @returns the stamp text
 */
export function changeMapInputFile(model: ChangeMapInputModel): string {
  return `${splatStamp(model)}; camera metadata ${camerasStamp(model)}; change map version ${CHANGE_MAP_VERSION}`;
}

/** What a recorded stamp says of its splat file and its maths' version; a stamp of version 1 is its splat part alone. */
interface StampParts {
  splat: string;
  version: number;
}

/** The form {@link changeMapInputFile} writes (the splat part cannot hold '; camera metadata '). */
const STAMP_PATTERN = /^(.*?); camera metadata (.*); change map version (\d+)$/s;

/** A recorded stamp's parts ({@link StampParts}). */
function stampParts(stamp: string): StampParts {
  const match = STAMP_PATTERN.exec(stamp);
  return match ? { splat: match[1]!, version: Number(match[3]) } : { splat: stamp, version: 1 };
}

/** True when two 4×4 matrices are the same 16 numbers. */
function sameMatrix(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((value, i) => value === b[i]);
}

/** True when two alignments as a change map records them are the same (both absent, or the same method and the same 16 numbers). */
function sameAlignment(
  recorded: ChangeMapData['inputs']['alignment'],
  current: Pick<AlignmentData, 'method' | 'matrix'> | null | undefined,
): boolean {
  if (!recorded || !current) return !recorded && !current;
  return recorded.method === current.method && sameMatrix(recorded.matrix, current.matrix);
}

/**
 * True when the pair's alignment now is the map's own registration accepted as the alignment:
 * an 'icp' alignment with the same 16 numbers as `map.registration.matrix`. The map was measured
 * through exactly that transform, so accepting its registration does not put it out of date.
 * @param map the stored change map (its `registration`)
 * @param alignment the pair's stored alignment now, or null
 * @returns true when the alignment is the accepted registration of this map
 */
export function isAcceptedRegistration(
  map: Pick<ChangeMapData, 'registration'>,
  alignment: Pick<AlignmentData, 'method' | 'matrix'> | null | undefined,
): boolean {
  return alignment?.method === 'icp' && sameMatrix(alignment.matrix, map.registration.matrix);
}

/**
 * Why a stored change map's splat files are no longer those it was computed from, or null when
 * they are: the splat part of the capture's stamp ({@link changeMapInputFile}) differs from the
 * one it recorded, else the reference's. (Its registration is then of other files: it cannot be
 * accepted as the pair's alignment. Camera metadata and the maths' version do not count here: the
 * registration does not depend on them.)
 * @param map the stored change map (its `inputs`)
 * @param model the capture's record as it is now
 * @param reference the reference model's record as it is now
 * @returns {@link ChangeMapMessages} `captureChanged` or `referenceChanged`, or null
 */
export function changeMapFilesChanged(
  map: Pick<ChangeMapData, 'inputs'>,
  model: ChangeMapInputModel,
  reference: ChangeMapInputModel,
): string | null {
  if (stampParts(map.inputs.modelFile).splat !== splatStamp(model)) return ChangeMapMessages.captureChanged;
  if (stampParts(map.inputs.referenceFile).splat !== splatStamp(reference)) return ChangeMapMessages.referenceChanged;
  return null;
}

/**
 * Why a stored change map's recorded stamps differ from the models' now, or null when both are
 * the same text: computed by other maths (a version in either stamp other than
 * {@link CHANGE_MAP_VERSION}; none recorded is version 1), else the capture's splat file, the
 * reference's, the capture's camera metadata, the reference's.
 */
function stampsChanged(map: Pick<ChangeMapData, 'inputs'>, model: ChangeMapInputModel, reference: ChangeMapInputModel): string | null {
  const [capture, ref] = [changeMapInputFile(model), changeMapInputFile(reference)];
  if (map.inputs.modelFile === capture && map.inputs.referenceFile === ref) return null;
  const recorded = [stampParts(map.inputs.modelFile), stampParts(map.inputs.referenceFile)] as const;
  const other = recorded.find((parts) => parts.version !== CHANGE_MAP_VERSION);
  if (other) return other.version < CHANGE_MAP_VERSION ? ChangeMapMessages.earlierVersion : ChangeMapMessages.laterVersion;
  const files = changeMapFilesChanged(map, model, reference);
  if (files !== null) return files;
  if (map.inputs.modelFile !== capture) return ChangeMapMessages.captureCamerasChanged;
  return ChangeMapMessages.referenceCamerasChanged;
}

/**
 * Why a stored change map no longer describes the pair as it is now, or null when it still does:
 * its stamps ({@link changeMapInputFile}) were written by other maths (an earlier or a later
 * version), else the capture's splat file differs from the one it was computed from, else the
 * reference's, else the capture's camera metadata (added, replaced or deleted), else the
 * reference's, else the pair's alignment (added, removed, or another method or matrix, compared
 * number for number). An alignment that is the map's own registration accepted as the pair's
 * alignment ({@link isAcceptedRegistration}) is no change in substance: the map measured the
 * capture through that very transform, so it stays up to date.
 * @param map the stored change map (its `inputs` and `registration`)
 * @param model the capture's record as it is now
 * @param reference the reference model's record as it is now
 * @param alignment the pair's stored alignment now (`alignments/{referenceModelId}__{modelId}`), or null
 * @returns one of {@link ChangeMapMessages} `earlierVersion`, `laterVersion`, `captureChanged`,
 *   `referenceChanged`, `captureCamerasChanged`, `referenceCamerasChanged`, `alignmentChanged`; or null
 */
export function changeMapOutOfDate(
  map: Pick<ChangeMapData, 'inputs' | 'registration'>,
  model: ChangeMapInputModel,
  reference: ChangeMapInputModel,
  alignment: Pick<AlignmentData, 'method' | 'matrix'> | null,
): string | null {
  const stamps = stampsChanged(map, model, reference);
  if (stamps !== null) return stamps;
  if (!sameAlignment(map.inputs.alignment, alignment) && !isAcceptedRegistration(map, alignment)) return ChangeMapMessages.alignmentChanged;
  return null;
}

/**
 * A number to three significant figures at most, trailing zeros dropped, as the change map's
 * words show coordinates and distances.
 * @param value any finite number
 * @returns e.g. '0.3', '0.0125', '12.3', '1230'
 */
export function threeFigures(value: number): string {
  return String(Number(value.toPrecision(3)));
}

/**
 * A change-map distance in words: in metres when the model has a scale, else in model units; with
 * its sign when `signed` (a minus sign, or a plus for positive values).
 * @param value model units
 * @param unitsPerMetre the capture's scale (`metadata.unitsPerMetre`), or null
 * @param signed show '+' before positive values
 * @returns e.g. '+0.3 m', '0.0125 model units', '−0.25 m' (a true minus sign)
 */
export function formatChangeDistance(value: number, unitsPerMetre: number | null | undefined, signed = false): string {
  const scaled = unitsPerMetre && unitsPerMetre > 0 ? value / unitsPerMetre : value;
  const text = threeFigures(Math.abs(scaled));
  const sign = scaled < 0 && text !== '0' ? '−' : signed && scaled > 0 ? '+' : '';
  return `${sign}${text} ${unitsPerMetre && unitsPerMetre > 0 ? 'm' : 'model units'}`;
}

/**
 * The change region a finding was made from, in words, as the findings report, its CSV and the
 * viewer name it: 'Change region 2 against Tower 2025: max +0.31 m' (without the reference's
 * name: 'Change region 2: max +0.31 m').
 * @param region the finding's `changeRegion` (distance in model units)
 * @param referenceName the reference model's name, or null when not known to the reader
 * @param unitsPerMetre the finding's model's scale (the capture's, as the viewer's panel uses), or null: model units
 * @returns the text
 */
export function changeRegionText(
  region: Pick<FindingChangeRegion, 'regionId' | 'maxDistance'>,
  referenceName: string | null,
  unitsPerMetre: number | null | undefined,
): string {
  const against = referenceName ? ` against ${referenceName}` : '';
  return `Change region ${region.regionId}${against}: max ${formatChangeDistance(region.maxDistance, unitsPerMetre, true)}`;
}
