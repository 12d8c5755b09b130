/**
 * The change map of the capture shown in the viewer against its project's reference model (in
 * compare mode: against the reference model shown with it), read once through the catalog port
 * (`changeMaps/{referenceModelId}__{modelId}`), with what tells whether it is out of date (the
 * reference's record, and the pair's alignment now, read live so that accepting or resetting the
 * alignment shows at once), and its per-Gaussian values file fetched through the file store's
 * download link. A reader who may not read the map (or the project, or the reference) simply has
 * none. And the server's job for the capture's map (`ServerJobsPort`: the embedded server
 * computes change maps by itself; Firebase has no such jobs), followed live so that the viewer
 * shows its progress and reads the map again when the job is done.
 */
import { useMemo } from 'react';
import { changeMapFilesChanged, changeMapOutOfDate } from '@shared/change-map-document.js';
import { decodeChangeValues, type ChangeValues } from '@shared/change-map/values-file.js';
import type { ChangeMapJob } from '@shared/ports/index.js';
import type { Alignment, ChangeMapRecord, Model } from '@shared/types.js';
import { getChangeMap } from '@shared/workflows/change-maps.js';
import { useBackend } from '../../../lib/backend-context.js';
import { failure, loading, success, usePromise, useSubscription, type Resource } from '../../../lib/resource.js';
import { fetchBytes } from '../lib/fetch-bytes.js';
import { useAlignment } from './alignments.js';

/** A capture's change map as the viewer shows it. */
export interface CaptureChangeMap {
  map: ChangeMapRecord;
  /** Why it no longer describes the pair (`changeMapOutOfDate`), or null when it still does or the reference could not be read. */
  outOfDate: string | null;
  /** The reference model's name, or null when it could not be read. */
  referenceName: string | null;
  /**
   * Why its files are not those it was computed from (`changeMapFilesChanged`: its registration
   * cannot be accepted), or null. Absent where nobody read the models (a panel drawn from the map alone).
   */
  filesChanged?: string | null;
  /** The pair's stored alignment now (live), or null when there is none or it cannot be read. Absent where nobody read it. */
  alignment?: Alignment | null;
}

/** Resolves to null instead of failing (a refused or missing read means 'none'). */
const orNull = <T>(promise: Promise<T | null>): Promise<T | null> => promise.catch(() => null);

/**
 * The change map of `model` against a reference model: by default its project's reference (null
 * when the model has no project, the project no reference, or the model is the reference); in
 * compare mode the reference model shown with it (`against`), whether or not it is the
 * project's reference now (a map stored for that pair describes exactly what is shown). Null when
 * no map is stored for the pair or any of them cannot be read. Read again when the server's job
 * for it ends (`job` done).
 * @param model the shown model, or null while unknown (stays loading)
 * @param job the server's job for the capture's map ({@link useChangeMapJob}), or null
 * @param against the reference model's id to read the map against; undefined: the project's
 *   reference; null: not known yet (stays loading)
 */
export function useCaptureChangeMap(
  model: Model | null,
  job: ChangeMapJob | null = null,
  against?: string | null,
): Resource<CaptureChangeMap | null> {
  const { catalog } = useBackend();
  const ended = job?.state === 'done' ? job.updated_at : '';
  const key = model && against !== null ? `change-map:${model.id}:${against ?? 'project'}:${model.uploaded_at ?? ''}:${ended}` : null;
  const found = usePromise(key, async () => {
    if (!model) return null;
    let referenceId = against ?? null;
    if (against === undefined) {
      if (!model.projectId) return null;
      const project = await orNull(catalog.get('projects', model.projectId));
      referenceId = project?.reference_model_id ?? null;
    }
    if (!referenceId || referenceId === model.id) return null;
    const map = await orNull(getChangeMap(catalog, referenceId, model.id));
    if (!map) return null;
    return { map, reference: await orNull(catalog.get('models', referenceId)) };
  });
  const pair = found.status === 'success' ? found.data : null;
  const alignment = useAlignment(pair?.map.referenceModelId ?? null, pair?.map.modelId ?? null);
  return useMemo((): Resource<CaptureChangeMap | null> => {
    if (found.status === 'error') return failure(found.error);
    if (found.status === 'loading' || model === null || against === null) return loading;
    if (found.data === null) return success(null);
    // A refused read of the alignment counts as none, as a missing one.
    if (alignment.status === 'loading') return loading;
    const stored = alignment.status === 'success' ? alignment.data : null;
    const { map, reference } = found.data;
    return success({
      map,
      outOfDate: reference ? changeMapOutOfDate(map, model, reference, stored) : null,
      referenceName: reference?.name ?? null,
      filesChanged: reference ? changeMapFilesChanged(map, model, reference) : null,
      alignment: stored,
    });
  }, [found, alignment, model, against]);
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

/**
 * The server's job for the change map of `model` (queued, computing with its fraction, done,
 * failed with the reason, skipped), followed live: null where no server computes change maps
 * (Firebase), when none was asked for, or while it cannot be read.
 * @param model the shown model, or null while unknown
 */
export function useChangeMapJob(model: Model | null): ChangeMapJob | null {
  const { jobs } = useBackend();
  const found = useSubscription<ChangeMapJob | null>(model ? `change-map-job:${model.id}` : null, (onNext, onError) =>
    jobs.subscribeChangeMapJob(model!.id, onNext, onError),
  );
  return found.status === 'success' ? found.data : null;
}
