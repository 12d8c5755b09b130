/**
 * What the web-sized copies of stored splats need where no server of ours receives the uploads
 * (Firebase: a Cloud Function makes the copy after the splat's content check passed;
 * `shared/workflows/stored-web-copies.ts` holds the rules): the record of the copy made from each
 * splat (with the generation it was made from), the making and storing of a copy from one
 * generation, and an atomic change of the model decided from the model and that record. The
 * Firebase implementation is in `functions/src/` (firebase-admin), the in-memory one in
 * `shared/adapters/memory/stored-web-copies.ts`.
 */
import type { Model, Timestamp } from '../types.js';
import type { UpdateData } from './catalog.js';
import type { StoredFileChecksPort, StoredObjectVersion } from './stored-file-checks.js';

/** The record of the web-sized copy made from one generation of a splat. */
export interface StoredWebCopy {
  /** The splat's storage path (`models/{uuid}/model.ply` or `…/model.splat`). */
  source: string;
  /** The model folder's uuid (the model's document id). */
  modelId: string;
  /** The splat's generation the copy was made from. */
  sourceGeneration: string;
  /** The copy as stored (`models/{uuid}/model.spz`), or null when none could be made of it (see `problem`). */
  copy: StoredObjectVersion | null;
  /** The preview as stored (`models/{uuid}/model.preview.spz`), or null (a capture of 400,000 Gaussians or fewer, or no copy). */
  preview: StoredObjectVersion | null;
  /** Why no copy could be made (the copy maker's message), or null. */
  problem: string | null;
  /** When it was made. */
  madeAt: Timestamp;
  /** What made it ('catalog web-sized splat 1'). */
  maker: string;
}

/** A copy and its preview as stored by {@link StoredWebCopiesPort.makeWebSplat}. */
export interface MadeWebSplat {
  copy: StoredObjectVersion;
  preview: StoredObjectVersion | null;
}

/** The ports of the stored web-sized copies (service principal: every document and file, no rules). */
export interface StoredWebCopiesPort extends Pick<StoredFileChecksPort, 'stat' | 'recordedChecks' | 'readModel'> {
  /**
   * The latest recorded copy made from a splat.
   * @param source the splat's storage path
   * @returns the record, or null when none was made
   */
  recordedWebCopy(source: string): Promise<StoredWebCopy | null>;
  /**
   * Records a copy, atomically, unless one made from the same or a later generation of its
   * source is recorded already.
   * @returns true when written
   */
  recordWebCopy(record: StoredWebCopy): Promise<boolean>;
  /**
   * Makes the web-sized copy (SPZ) of one generation of a splat with the embedded server's copy
   * maker, and stores it at `webSplatPath(uuid)` (replacing what is there), with the preview of a
   * capture of more than 400,000 Gaussians at `webSplatPreviewPath(uuid)` (else a preview stored
   * there before is deleted). Nothing is stored when that generation is no longer the splat's
   * (replaced or deleted while the copy was made).
   * @param source the splat's version
   * @returns what was stored, or null when that generation is no longer stored
   * @throws AppError `invalid-argument` when the copy maker cannot read the splat (nothing is
   *   stored), the storage errors otherwise
   */
  makeWebSplat(source: StoredObjectVersion): Promise<MadeWebSplat | null>;
  /**
   * Changes a model in one transaction: reads it and the latest recorded copy of `source`, and
   * writes the fields `decide` returns (nothing when it returns null). Run again when either
   * changes meanwhile.
   * @param modelId the model's document id
   * @param source the splat whose copy the decision reads
   * @param decide the change, or null for none
   * @returns the fields written, or null (no model, or nothing to change)
   */
  updateModel(
    modelId: string,
    source: string,
    decide: (model: Model, recorded: StoredWebCopy | null) => UpdateData | null,
  ): Promise<UpdateData | null>;
}
