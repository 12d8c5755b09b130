/**
 * The change map of the capture shown in the viewer against its project's reference model, read
 * once through the catalog port (`changeMaps/{referenceModelId}__{modelId}`), with what tells
 * whether it is out of date (the reference's record and the pair's alignment now), and its
 * per-Gaussian values file fetched through the file store's download link. A reader who may not
 * read the map (or the project, or the reference) simply has none.
 */
import { isAlignmentMatrix } from '@shared/alignment.js';
import { changeMapOutOfDate } from '@shared/change-map-document.js';
import { decodeChangeValues, type ChangeValues } from '@shared/change-map/values-file.js';
import type { Alignment, ChangeMapRecord, Model } from '@shared/types.js';
import { getChangeMap } from '@shared/workflows/change-maps.js';
import { useBackend } from '../../../lib/backend-context.js';
import { usePromise, type Resource } from '../../../lib/resource.js';
import { fetchBytes } from '../lib/fetch-bytes.js';

/** A capture's change map as the viewer shows it. */
export interface CaptureChangeMap {
  map: ChangeMapRecord;
  /** Why it no longer describes the pair (`changeMapOutOfDate`), or null when it still does or the reference could not be read. */
  outOfDate: string | null;
  /** The reference model's name, or null when it could not be read. */
  referenceName: string | null;
}

/** Resolves to null instead of failing (a refused or missing read means 'none'). */
const orNull = <T>(promise: Promise<T | null>): Promise<T | null> => promise.catch(() => null);

/**
 * The change map of `model` against its project's reference model: null when the model has no
 * project, the project no reference (or the model is the reference), no map is stored, or any of
 * them cannot be read.
 * @param model the shown model, or null while unknown (stays loading)
 */
export function useCaptureChangeMap(model: Model | null): Resource<CaptureChangeMap | null> {
  const { catalog } = useBackend();
  const key = model ? `change-map:${model.id}:${model.uploaded_at ?? ''}` : null;
  return usePromise(key, async () => {
    if (!model?.projectId) return null;
    const project = await orNull(catalog.get('projects', model.projectId));
    const referenceId = project?.reference_model_id ?? null;
    if (!referenceId || referenceId === model.id) return null;
    const map = await orNull(getChangeMap(catalog, referenceId, model.id));
    if (!map) return null;
    const [reference, alignments] = await Promise.all([
      orNull(catalog.get('models', referenceId)),
      catalog
        .query('alignments', {
          where: [
            ['referenceModelId', '==', referenceId],
            ['modelId', '==', model.id],
          ],
        })
        .catch(() => [] as Alignment[]),
    ]);
    const alignment = alignments.find((doc) => isAlignmentMatrix(doc.matrix)) ?? null;
    return {
      map,
      outOfDate: reference ? changeMapOutOfDate(map, model, reference, alignment) : null,
      referenceName: reference?.name ?? null,
    };
  });
}

/**
 * The per-Gaussian values of a change map (distances and region ids, file order of the
 * capture), fetched and decoded once `valuesPath` is given.
 * @param valuesPath the map's values file, or null: nothing is fetched (stays loading)
 * @throws (as the resource's error) the file store's error for a missing file, the fetch's, or
 *   the decoder's for a malformed file
 */
export function useChangeValues(valuesPath: string | null): Resource<ChangeValues> {
  const { files } = useBackend();
  return usePromise(valuesPath, async () => {
    const url = await files.getDownloadUrl(valuesPath as string);
    return decodeChangeValues(await fetchBytes(url, () => undefined));
  });
}
