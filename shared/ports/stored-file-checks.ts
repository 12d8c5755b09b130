/**
 * What the content checks of stored files need where no server of ours receives the uploads
 * (Firebase: Cloud Storage stores any bytes a client sends, and Cloud Functions check them
 * afterwards; `shared/workflows/stored-file-checks.ts` holds the rules): the stored objects with
 * their generations, the record of each file's check, and an atomic change of a model decided from
 * the model and the latest records. The Firebase implementation is in `functions/src/`
 * (firebase-admin), the in-memory one in `shared/adapters/memory/stored-file-checks.ts`.
 */
import type { ByteSource } from '../content-check/byte-source.js';
import type { ContentKind } from '../content-check/index.js';
import type { FileCheckVerdict, Model, Timestamp } from '../types.js';
import type { UpdateData } from './catalog.js';

/** One version of a stored object. */
export interface StoredObjectVersion {
  /** Storage path (`models/{uuid}/model.glb`). */
  path: string;
  /**
   * Cloud Storage's generation of the object: a whole number as a decimal string (it does not fit
   * a double everywhere); every write of the path makes a larger one.
   */
  generation: string;
  /** Size in bytes. */
  size: number;
}

/** The recorded check of one stored file at one generation. */
export interface StoredFileCheck {
  /** Storage path. */
  path: string;
  /** The model folder's uuid (the model's document id). */
  modelId: string;
  /** The generation that was checked. */
  generation: string;
  /** Its size in bytes. */
  size: number;
  /** What the path called for. */
  kind: ContentKind;
  /** 'ok' or 'warnings' (may be served), 'refused' (may not). */
  verdict: FileCheckVerdict;
  /** The check's message when refused, in the user's terms; else null. */
  problem: string | null;
  /** When it was checked. */
  checkedAt: Timestamp;
  /** What checked ('catalog content checks 1'). */
  checker: string;
}

/** What {@link StoredFileChecksPort.updateModel} wrote. */
export interface ModelChecksWrite {
  /** The model as it was read in the transaction that wrote. */
  before: Model;
  /** The fields written. */
  update: UpdateData;
}

/** The ports of the stored-file checks (service principal: every document and file, no rules). */
export interface StoredFileChecksPort {
  /**
   * The object stored at a path now.
   * @returns its version, or null when nothing is stored there
   */
  stat(path: string): Promise<StoredObjectVersion | null>;
  /**
   * The bytes of one generation, read a range at a time.
   * @param object the version to read
   * @param name the file name the checks' messages show
   * @returns a byte source whose reads throw AppError `storage/object-not-found` once that generation is no
   *   longer stored (replaced or deleted)
   */
  open(object: StoredObjectVersion, name: string): ByteSource;
  /**
   * The latest recorded check of each path.
   * @returns the checks by path; paths without one are left out
   */
  recordedChecks(paths: readonly string[]): Promise<Map<string, StoredFileCheck>>;
  /**
   * Records a check, atomically, unless one of the same or a later generation of its path is
   * recorded already.
   * @returns true when written
   */
  recordCheck(check: StoredFileCheck): Promise<boolean>;
  /**
   * Reads a model (outside any transaction).
   * @returns the model, or null when there is none
   */
  readModel(modelId: string): Promise<Model | null>;
  /**
   * Changes a model in one transaction: reads it, then the latest recorded checks of the paths
   * `pathsOf(model)` names, and writes the fields `decide` returns (nothing when it returns null).
   * The transaction is run again when the model or one of those records changes meanwhile, so a
   * decision never rests on a check another writer has replaced.
   * @param modelId the model's document id
   * @param pathsOf the paths whose records the decision reads
   * @param decide the change (an update of fields), or null for none
   * @returns what was written, or null (no model, or nothing to change)
   */
  updateModel(
    modelId: string,
    pathsOf: (model: Model) => string[],
    decide: (model: Model, checks: ReadonlyMap<string, StoredFileCheck>) => UpdateData | null,
  ): Promise<ModelChecksWrite | null>;
  /**
   * Gives every file under a folder a new download token, so links handed out before stop working
   * (Firebase download-token links bypass the security rules).
   * @param folder `models/{uuid}/`
   * @returns how many files got a new token
   */
  revokeDownloadUrls(folder: string): Promise<number>;
}
