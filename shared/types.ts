/**
 * The catalog's entities. These are the document shapes stored by
 * every backend (Firestore collections and the embedded backend's SQLite tables alike), so a
 * catalog can move between backends unchanged.
 *
 * Conventions:
 * - Timestamps are ISO 8601 strings in UTC (`2026-11-22T10:00:00.000Z`). Adapters convert
 *   Firestore `Timestamp`s to and from this form.
 * - File references inside documents are storage paths (`models/{uuid}/model.ply`), never
 *   download URLs; links are resolved through the file-store port when needed.
 * - Sizes are in bytes.
 */

/** An ISO 8601 timestamp in UTC, e.g. `2026-11-22T10:00:00.000Z`. */
export type Timestamp = string;

/** Roles. Signed out (or not yet resolved) is `null` where a role is expected. */
export type Role = 'admin' | 'user';

/** Model types (the Add Model form's choice, stored on the model). */
export type ModelType = 'hybrid' | 'splat' | 'mesh';

/**
 * Names of the collections: projects, models, users and admins, plus `annotations` (findings, one
 * document per finding, {@link AnnotationData}), `alignments` (one document per pair of
 * models, {@link AlignmentData}) and `changeMaps` (one change map per pair of captures,
 * {@link ChangeMapData}). All three are top-level collections keyed as documented on their
 * types, on Firestore and on the embedded backend alike.
 */
export type CollectionName = 'projects' | 'models' | 'users' | 'admins' | 'annotations' | 'alignments' | 'changeMaps';

/** Location of a project. lat/lng in decimal degrees (WGS 84); null when unknown. */
export interface ProjectLocation {
  lat: number | null;
  lng: number | null;
  address?: string | null;
  mapUrl?: string | null;
}

/** Project document ('projects' collection, auto id). */
export interface ProjectData {
  name: string;
  structure_id: string;
  description: string;
  slug: string;
  reference_model_id?: string | null;
  location?: ProjectLocation | null;
  created_at?: Timestamp | null;
  last_updated?: Timestamp | null;
}

/** A project with its document id. `thumbnailUrl` is derived from the reference model, never stored. */
export interface Project extends ProjectData {
  id: string;
  thumbnailUrl?: string | null;
}

/** `files` of a model: storage paths and sizes in bytes. `thumbnails[0]` is the thumbnail. */
export interface ModelFiles {
  splatPath?: string | null;
  splatSize?: number | null;
  glbPath?: string | null;
  glbSize?: number | null;
  /** Storage path of `camera-metadata.json`. */
  cameraMetadata?: string | null;
  /**
   * When the camera metadata at `cameraMetadata` was uploaded (the server's time of the write
   * that stored it: with the model, or added or replaced later; null or missing when there is
   * none, or for camera metadata stored before this was recorded). The file is always stored at
   * the same path, so this is what tells a replaced one apart: a change map records it
   * (`changeMapInputFile`), since the cameras orient its surfaces.
   */
  cameraMetadataUploadedAt?: Timestamp | null;
  images?: string[];
  thumbnails?: string[];
  assets?: string[];
  /**
   * Storage path of the web-sized copy of a `.ply` or `.splat` splat (`models/{uuid}/model.spz`,
   * SPZ version 3; older copies are version 2): what the viewer loads. The original stays at
   * `splatPath` for download. Null or missing when there is none (a mesh, an SPZ original, a
   * model stored before web-sized copies existed: `catalog doctor --fix` makes it).
   */
  webSplatPath?: string | null;
  /** Size of `webSplatPath` in bytes. */
  webSplatSize?: number | null;
  /**
   * Storage path of the preview of the web-sized splat (`models/{uuid}/model.preview.spz`: the
   * capture's 131,072 most important Gaussians by opacity × volume, SH degree 0), made beside the
   * copy for a capture of more than 400,000 Gaussians: the viewer shows it first, then the copy.
   * Null or missing when there is none (a smaller capture, no copy).
   */
  webSplatPreviewPath?: string | null;
  /** Size of `webSplatPreviewPath` in bytes. */
  webSplatPreviewSize?: number | null;
  /**
   * Storage path of the web-sized copy of the GLB (`models/{uuid}/model.web.glb`: geometry
   * compressed with EXT_meshopt_compression, textures at most 2048 px on their long edge as
   * WebP): what the viewer loads. The original stays at `glbPath` for download. Missing when none
   * was made (a GLB under 8 MiB, a model stored before web-sized GLBs existed: `catalog doctor
   * --fix` makes it); null when one was made and not kept (not at least 2× smaller), so it is not
   * tried again.
   */
  webGlbPath?: string | null;
  /** Size of `webGlbPath` in bytes. */
  webGlbSize?: number | null;
}

/** `metadata` of a model. captureDate is an ISO date (YYYY-MM-DD) or timestamp, or null. */
export interface ModelMetadata {
  captureDate?: string | null;
  displayOrder?: number;
  /**
   * Number of documents in `annotations` whose `modelId` is this model. Kept exact by the
   * annotation workflows (`shared/workflows/annotations.ts`): every create and delete of a
   * finding changes it in the same atomic batch, and both backends' rules refuse a batch that
   * does not.
   */
  annotationsCount?: number;
  /**
   * The highest finding number issued for this model: a new finding takes
   * `annotationsSeq + 1` as its `seq` and id `{modelId}_{seq}` ({@link annotationId}). Never
   * decreases, so a number is never reused after a delete. Missing counts as 0.
   */
  annotationsSeq?: number;
  /**
   * The model's scale: model units per metre, a positive number (e.g. 1 for a
   * georeferenced capture in metres, 3.2808 for feet). Null or missing when unknown: then
   * measurements are shown in model units only. Editable by admins (Model Management,
   * `catalog models set-scale`).
   */
  unitsPerMetre?: number | null;
}

/** Model document ('models' collection, keyed by its uuid). */
export interface ModelData {
  uuid: string;
  publicId: string;
  name: string;
  projectId?: string | null;
  isReference?: boolean;
  modelType?: ModelType | null;
  owner_uid?: string | null;
  created_at?: Timestamp | null;
  last_updated?: Timestamp | null;
  /** Missing counts as visible. */
  visible?: boolean;
  files: ModelFiles;
  metadata?: ModelMetadata;
  version?: string | number | null;
  description?: string | null;
  uploaded_at?: Timestamp | null;
  /**
   * What the content checks found in the model's files when they were uploaded (or when
   * `catalog doctor --fix` backfilled it). Missing on models stored before the checks existed.
   */
  validation?: ValidationReport | null;
  /**
   * Set while a file the model names failed the content check that ran after Cloud Storage stored
   * it (a Firebase deployment's Cloud Functions, `shared/workflows/stored-file-checks.ts`): the
   * model is hidden until every such file is replaced by one that passes, or no longer named, or
   * the model is deleted. Written only by those functions (the security rules refuse it from
   * clients, and refuse showing the model while it is set); null or missing otherwise. The
   * embedded server never sets it: it refuses a bad file before storing it.
   */
  contentRefusal?: ContentRefusal | null;
}

/** A stored file of a model that failed its content check ({@link ContentRefusal}). */
export interface RefusedStoredFile {
  /** Its storage path (`models/{uuid}/model.glb`). */
  path: string;
  /** The Cloud Storage generation that was checked: a whole number written as a decimal string. */
  generation: string;
  /** The check's message, in the user's terms ('This .glb is an HTML page, not a GLB file (model.glb).'). */
  problem: string;
}

/** Why a model is refused and hidden ({@link ModelData.contentRefusal}). */
export interface ContentRefusal {
  /** The refused files, at least one, each with the generation checked and the check's message. */
  files: RefusedStoredFile[];
  /** `visible` as it was when the refusal hid the model: put back when the last refused file is fixed. */
  visibleBefore: boolean;
  /** When the model was refused. */
  refusedAt: Timestamp;
}

/** A model with its document id (equal to its uuid for models created by this product). */
export interface Model extends ModelData {
  id: string;
}

/** User record ('users' collection, keyed by auth uid). */
export interface UserData {
  uid: string;
  email: string | null;
  role: Role;
  created_at?: Timestamp | null;
  updated_at?: Timestamp | null;
  registered_at?: Timestamp | null;
  created_by?: string | null;
  note?: string | null;
}

export interface UserRecord extends UserData {
  id: string;
}

/** Admin allowlist entry ('admins' collection, keyed by email). Fields beyond the key are not specified. */
export interface AdminData {
  email?: string;
  added_at?: Timestamp | null;
}

export interface AdminEntry extends AdminData {
  id: string;
}

/** A point in a model's own coordinates (the file's frame and units: "model units"). */
export interface ModelPoint {
  x: number;
  y: number;
  z: number;
}

/** Categories of a finding. */
export type AnnotationCategory = 'crack' | 'corrosion' | 'spalling' | 'deformation' | 'vegetation' | 'other';

/** Severity of a finding: 1 (minor) … 5 (critical). */
export type AnnotationSeverity = 1 | 2 | 3 | 4 | 5;

/** Where a finding stands: open, being monitored, repaired (closed by a repair), or dismissed (not a defect). */
export type AnnotationStatus = 'open' | 'monitoring' | 'repaired' | 'dismissed';

/**
 * What a polyline finding measures: 'distance' (two points, straight line),
 * 'polyline' (the length along every point), 'height' (the vertical difference between the first
 * and the last point along the model's up axis, `AnnotationData.up`). Null for a plain point.
 */
export type MeasureKind = 'distance' | 'polyline' | 'height';

/**
 * A finding ('annotations' collection). Key: `{modelId}_{seq}` ({@link annotationId}):
 * `seq` is the model's next finding number (`ModelMetadata.annotationsSeq + 1`), so the key is
 * known before the write and the model's count and sequence change in the same batch.
 *
 * Who writes (the documented rule, `docs/ARCHITECTURE.md` "Findings"): admins create, edit and
 * delete any finding; users create findings on models they can open (as their own author) and
 * edit their own; only admins delete. Alignments are written by admins only.
 */
export interface AnnotationData {
  /** The model the finding is on (its uuid). */
  modelId: string;
  /** The model's project (for the project's findings report); null for a model outside projects. */
  projectId: string | null;
  /** The finding's number within its model, 1, 2, 3… (never reused). */
  seq: number;
  /** A point (one point) or a polyline (two or more: a measurement). */
  kind: 'point' | 'polyline';
  /** The point(s), in model units. Objects, not arrays: Firestore stores no nested arrays. */
  points: ModelPoint[];
  /** For a polyline: what it measures; null for a point. */
  measure: MeasureKind | null;
  /** The model's up axis in model coordinates when the points were picked (for 'height'); unit length. */
  up?: ModelPoint | null;
  /** Short title, 1–120 characters after trimming. */
  title: string;
  /** Free text, up to 4,000 characters. */
  note: string;
  category: AnnotationCategory;
  severity: AnnotationSeverity;
  status: AnnotationStatus;
  /** `img_name`s of the model's cameras the finding was seen on (camera metadata), up to 20. */
  photos: string[];
  /** Uid of the account that created it (the service principal writes its own label, e.g. 'cli'). */
  author_uid: string;
  /** Email of the author when known. */
  author_email: string | null;
  created_at?: Timestamp | null;
  last_updated?: Timestamp | null;
  /**
   * For a follow-up finding carried over in compare mode: the original finding it continues
   * (on another capture of the same structure). Null for a first finding.
   */
  followUpOf?: { annotationId: string; modelId: string } | null;
  /**
   * For a finding made from a change region of its model's change map (the viewer's 'Changes'
   * mode): which region, against which reference, and how far it had moved; such a finding is one
   * point, the region's centre. Null otherwise.
   */
  changeRegion?: FindingChangeRegion | null;
}

/**
 * The change region a finding was made from (`AnnotationData.changeRegion`): kept as it was when
 * the finding was made, since a change map computed again numbers its regions afresh.
 */
export interface FindingChangeRegion {
  /** The reference model of the change map (its id; the finding's model is the capture). */
  referenceModelId: string;
  /** The region's number in that change map (`ChangeRegionData.id`), 1 or more. */
  regionId: number;
  /** The region's signed distance of largest magnitude (`ChangeRegionData.maxDistance`), model units. */
  maxDistance: number;
}

/** A finding with its document id. */
export interface Annotation extends AnnotationData {
  id: string;
}

/**
 * The manual alignment an 'icp' alignment replaced (`AlignmentData.previous`): what a reset
 * restores, field for field.
 */
export interface AlignmentPrevious {
  /** 'same-frame' or '3-point' (never 'icp': accepting over an 'icp' alignment keeps what that one replaced). */
  method: 'same-frame' | '3-point';
  /** 4×4 matrix, column-major, model → reference. */
  matrix: number[];
  /** Its picked pairs (none for 'same-frame', 3 for '3-point'). */
  pairs: Array<{ model: ModelPoint; reference: ModelPoint }>;
  /** Its RMS error, reference model units. */
  rmsError: number;
}

/**
 * The alignment of two captures ('alignments' collection): made by hand in the compare view
 * ('same-frame', '3-point') or accepted from the pair's change map ('icp', its ICP-refined
 * registration). Key: `{referenceModelId}__{modelId}` ({@link alignmentId}). `matrix` maps the
 * model's coordinates into the reference model's frame (a similarity: rotation, uniform scale,
 * translation); the identity when both are in one frame.
 */
export interface AlignmentData {
  /** The reference model (the frame the matrix maps into). */
  referenceModelId: string;
  /** The other model (the frame the matrix maps from). */
  modelId: string;
  projectId: string | null;
  /** 4×4 matrix, column-major (three.js `Matrix4.elements` order), 16 numbers. */
  matrix: number[];
  /**
   * 'same-frame' (identity, declared), '3-point' (solved from `pairs`) or 'icp' (the change map's
   * registration, refined by ICP from the alignment stored when it was computed, accepted by an admin).
   */
  method: 'same-frame' | '3-point' | 'icp';
  /** The picked pairs for '3-point': a point on the model and the same point on the reference. None for the other methods. */
  pairs: Array<{ model: ModelPoint; reference: ModelPoint }>;
  /**
   * Root-mean-square distance after the transform, in reference model units: of the pairs for
   * '3-point', 0 for 'same-frame', of the registration's matched points for 'icp'.
   */
  rmsError: number;
  /**
   * For 'icp' only: the manual alignment it replaced, which a reset restores, or null when the pair
   * had none (a reset deletes the alignment). Absent (or null) for the other methods and on
   * alignments stored before it.
   */
  previous?: AlignmentPrevious | null;
  created_by: string;
  created_at?: Timestamp | null;
}

/** An alignment with its document id. */
export interface Alignment extends AlignmentData {
  id: string;
}

/** One change region of a change map as stored: a cluster of changed Gaussians (`ChangeMapData.regions`). */
export interface ChangeRegionData {
  /** 1-based, in order of decreasing count. */
  id: number;
  /** 'capture': something changed or added in the capture; 'reference': present in the reference, gone from the capture. */
  side: 'capture' | 'reference';
  /** The region's centroid, in the reference frame (model units). */
  centroid: [number, number, number];
  /** The axis-aligned extent's lower corner, reference frame. */
  min: [number, number, number];
  /** The axis-aligned extent's upper corner, reference frame. */
  max: [number, number, number];
  /** Points (Gaussians) in the region, 1 or more. */
  count: number;
  /** Mean signed distance of its points, model units. */
  meanDistance: number;
  /** The signed distance of largest magnitude among its points, model units. */
  maxDistance: number;
}

/**
 * A change map of a capture against a reference model ('changeMaps' collection): the summary of
 * per-Gaussian signed distances from the capture to the reference's surface after registration.
 * Key: the pair's alignment key `{referenceModelId}__{modelId}` ({@link alignmentId}). The
 * per-Gaussian values themselves are a binary file in the capture's folder (`valuesPath`,
 * `models/{uuid}/changes/{referenceModelId}.bin`); `inputs` records what the map was computed
 * from, so a reader can tell when it is out of date (`changeMapOutOfDate`).
 */
export interface ChangeMapData {
  /** The reference model (the frame everything here is in). */
  referenceModelId: string;
  /** The capture compared with it. */
  modelId: string;
  projectId: string | null;
  /** Storage path of the per-Gaussian values: `models/{capture uuid}/changes/{referenceModelId}.bin`. */
  valuesPath: string;
  /** What the map was computed from (stamps of both models' files and the maths' version, the alignment used as the starting guess). */
  inputs: {
    /** The capture's stamp when computed (`changeMapInputFile`: its splat file, its camera metadata, the maths' version). */
    modelFile: string;
    /** The reference's stamp when computed (`changeMapInputFile`: its splat file, its camera metadata, the maths' version). */
    referenceFile: string;
    /** The pair's stored alignment when computed (its method and matrix), or null when there was none. */
    alignment: { method: string; matrix: number[] } | null;
  };
  /** The refined registration used: `matrix` maps capture coordinates into the reference frame (4×4, column-major). */
  registration: {
    matrix: number[];
    /** Root-mean-square distance of the matched pairs after registration, model units. */
    rmsError: number;
    iterations: number;
    /** Matched pairs in the last iteration. */
    pairs: number;
  };
  /** Distances of smaller magnitude read as unchanged, model units. */
  levelOfDetection: number;
  /** Gaussians of the capture (the values file holds one value each). */
  pointCount: number;
  /** Gaussians of the reference used. */
  referencePointCount: number;
  /** Histogram of the measured signed distances: `counts` over equal bins from `min` to `max` (model units), at most 64 bins. */
  histogram: { min: number; max: number; counts: number[] };
  /** The change regions of both sides, at most 100. */
  regions: ChangeRegionData[];
  /** Uid (or label, e.g. 'cli') of who computed it. */
  computed_by: string;
  computed_at?: Timestamp | null;
}

/**
 * A stored change map with its document id. (Not `ChangeMap`: that is the change-map maths'
 * result, per-Gaussian arrays included, in `shared/change-map/`.)
 */
export interface ChangeMapRecord extends ChangeMapData {
  id: string;
}

/** Document data type of each collection. */
export interface CollectionTypes {
  projects: ProjectData;
  models: ModelData;
  users: UserData;
  admins: AdminData;
  annotations: AnnotationData;
  alignments: AlignmentData;
  changeMaps: ChangeMapData;
}

/** One element of an uploaded camera-metadata JSON array. Extra keys (fx, fy…) are normal. */
export interface CameraMetadataEntry {
  id: number;
  img_name: string;
  position: [number, number, number];
  rotation: [[number, number, number], [number, number, number], [number, number, number]];
  width: number;
  height: number;
  [extra: string]: unknown;
}

/** Kinds of file in a model's file listing. */
export type FileEntryType = 'splat' | 'glb' | 'image' | 'thumbnail' | 'cameraMetadata' | 'asset';

/** File entry listing. size in bytes. */
export interface FileEntry {
  path: string;
  type: FileEntryType;
  size?: number;
}

/** Tool card of the landing page. */
export interface ToolCard {
  id: string;
  name: string;
  description: string;
  url: string;
  images: { static: string; animated: string };
  color: { primary: string; hover: string; badge: string };
  status: 'ready' | 'experimental' | 'beta';
}

/**
 * Verdict of one content check (`shared/content-check/`): 'ok'; 'warnings' (stored, with the
 * checker's warnings); 'refused' (the file is not what its name says). A refused file is never
 * stored by an upload, so 'refused' appears only in reports backfilled for older models.
 */
export type FileCheckVerdict = 'ok' | 'warnings' | 'refused';

/** What every file check reports. */
export interface FileCheckBase {
  /** The file name as uploaded (e.g. `point_cloud.ply`). */
  fileName: string;
  /** Size in bytes. */
  size: number;
  verdict: FileCheckVerdict;
  /** Why the file was refused (verdict 'refused'), in the user's terms; else null. */
  problem: string | null;
  /** Warnings (e.g. gltf-validator's), each a sentence; capped at 20. */
  warnings: string[];
}

/** An axis-aligned box in the file's own coordinates and units. */
export interface BoundingBox {
  min: [number, number, number];
  max: [number, number, number];
}

/** Facts of a splat file (`.ply` from 3DGS training, or `.splat`). */
export interface SplatCheck extends FileCheckBase {
  /** 'ply' (3DGS PLY) or 'splat' (compact 32-byte records). */
  format: 'ply' | 'splat';
  /** PLY encoding ('binary_little_endian' or 'ascii'); null for `.splat`. */
  encoding: 'binary_little_endian' | 'ascii' | null;
  /** Number of Gaussians (the PLY's vertex count; size / 32 for `.splat`). */
  gaussians: number;
  /** Spherical-harmonics degree, 0–3 (from the number of f_rest_* properties; 0 for `.splat`). */
  shDegree: number;
  /** Box of the Gaussians' centres (floaters included); null when the file has none. */
  boundingBox: BoundingBox | null;
}

/** Facts of a GLB, from the Khronos glTF validator and the file's JSON chunk. */
export interface GlbCheck extends FileCheckBase {
  /** `asset.generator`, e.g. 'COLLADA2GLTF'; null when not given. */
  generator: string | null;
  meshes: number;
  /** Triangles drawn (the validator's totalTriangleCount). */
  triangles: number;
  /** Vertices (the validator's totalVertexCount). */
  vertices: number;
  materials: number;
  textures: number;
  /** `extensionsUsed`, e.g. ['KHR_draco_mesh_compression']. */
  extensions: string[];
  /** gltf-validator's version. */
  validatorVersion: string;
  /** The validator's issue counts. */
  issues: { errors: number; warnings: number; infos: number; hints: number };
}

/** Facts of the camera metadata. */
export interface CameraMetadataCheck extends FileCheckBase {
  /** Number of cameras. */
  cameras: number;
  /** Cameras whose photo is among the model's photos (`matchCameraImages` in shared/camera-poses.ts). */
  withPhoto: number;
}

/** Facts of the model's photos (`images/`). */
export interface PhotosCheck {
  /** Number of photos. */
  count: number;
  /** Their total size in bytes. */
  bytes: number;
  verdict: FileCheckVerdict;
  /** Distinct pixel sizes with how many photos have each, most common first. */
  dimensions: Array<{ width: number; height: number; count: number }>;
  /** Photos refused (only in backfilled reports), with why. */
  refused: Array<{ fileName: string; problem: string }>;
}

/**
 * The validation report stored with each model (`ModelData.validation`), the same shape on every
 * backend: one entry per kind of file the model has, null for kinds it has not.
 */
export interface ValidationReport {
  /** Report format version (1). */
  version: 1;
  /** When the checks ran. */
  checkedAt: Timestamp;
  /** What checked, e.g. 'inspection-catalog 0.1.0, gltf-validator 2.0.0-dev.3.10'. */
  checker: string;
  splat: SplatCheck | null;
  glb: GlbCheck | null;
  cameraMetadata: CameraMetadataCheck | null;
  photos: PhotosCheck | null;
  /** Notes about the upload that are not about one file (e.g. 'No web-sized copy was made: …'). */
  notes: string[];
}
