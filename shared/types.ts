/**
 * The catalog's entities, as SPEC.md §3 defines them. These are the document shapes stored by
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

/** Roles of §4/§6. Signed out (or not yet resolved) is `null` where a role is expected. */
export type Role = 'admin' | 'user';

/** Model types of §2 (Add model) and §3. */
export type ModelType = 'hybrid' | 'splat' | 'mesh';

/** Names of the four collections of §3. */
export type CollectionName = 'projects' | 'models' | 'users' | 'admins';

/** Location of a project (§3). lat/lng in decimal degrees (WGS 84); null when unknown. */
export interface ProjectLocation {
  lat: number | null;
  lng: number | null;
  address?: string | null;
  mapUrl?: string | null;
}

/** Project document ('projects' collection, auto id), §3. */
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

/** A project with its document id. `thumbnailUrl` is derived from the reference model (§3), never stored. */
export interface Project extends ProjectData {
  id: string;
  thumbnailUrl?: string | null;
}

/** `files` of a model (§3): storage paths and sizes in bytes. `thumbnails[0]` is the thumbnail. */
export interface ModelFiles {
  splatPath?: string | null;
  splatSize?: number | null;
  glbPath?: string | null;
  glbSize?: number | null;
  /** Storage path of `camera-metadata.json`. */
  cameraMetadata?: string | null;
  images?: string[];
  thumbnails?: string[];
  assets?: string[];
}

/** `metadata` of a model (§3). captureDate is an ISO date (YYYY-MM-DD) or timestamp, or null. */
export interface ModelMetadata {
  captureDate?: string | null;
  displayOrder?: number;
  annotationsCount?: number;
}

/** Model document ('models' collection, keyed by its uuid), §3. */
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
  /** Missing counts as visible (§3). */
  visible?: boolean;
  files: ModelFiles;
  metadata?: ModelMetadata;
  version?: string | number | null;
  description?: string | null;
  uploaded_at?: Timestamp | null;
}

/** A model with its document id (equal to its uuid for models created by this product). */
export interface Model extends ModelData {
  id: string;
}

/** User record ('users' collection, keyed by auth uid), §3. */
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

/** Admin allowlist entry ('admins' collection, keyed by email). Fields beyond the key are not specified (§3). */
export interface AdminData {
  email?: string;
  added_at?: Timestamp | null;
}

export interface AdminEntry extends AdminData {
  id: string;
}

/** Document data type of each collection. */
export interface CollectionTypes {
  projects: ProjectData;
  models: ModelData;
  users: UserData;
  admins: AdminData;
}

/** One element of an uploaded camera-metadata JSON array (§3). Extra keys (fx, fy…) are normal. */
export interface CameraMetadataEntry {
  id: number;
  img_name: string;
  position: [number, number, number];
  rotation: [[number, number, number], [number, number, number], [number, number, number]];
  width: number;
  height: number;
  [extra: string]: unknown;
}

/** Kinds of file in a model's file listing (§3). */
export type FileEntryType = 'splat' | 'glb' | 'image' | 'thumbnail' | 'cameraMetadata' | 'asset';

/** File entry listing (§3). size in bytes. */
export interface FileEntry {
  path: string;
  type: FileEntryType;
  size?: number;
}

/** Tool card of the landing page (§3). */
export interface ToolCard {
  id: string;
  name: string;
  description: string;
  url: string;
  images: { static: string; animated: string };
  color: { primary: string; hover: string; badge: string };
  status: 'ready' | 'experimental' | 'beta';
}
