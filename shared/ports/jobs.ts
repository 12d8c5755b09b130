/**
 * Server-jobs port: what a backend's own server is computing by itself. The embedded backend
 * (`catalog serve`) computes a capture's change map in the background when its inputs change (a
 * splat capture added or replaced, the project's reference set, the pair's alignment saved or
 * deleted) and reports each capture's job here, so that the viewer can show the progress. Firebase
 * has no server of this product: its adapters (and the in-memory backend) answer that there are no
 * server jobs (null); there `catalog models changes` computes the map.
 */
import type { Unsubscribe } from './identity.js';

/** Where a capture's change-map job stands. */
export type ChangeMapJobState = 'queued' | 'computing' | 'done' | 'failed' | 'skipped';

/** A capture's change-map job on the server (the latest one, kept until the server stops). */
export interface ChangeMapJob {
  /** The capture's model id. */
  modelId: string;
  /** The reference model it is compared with (the project's reference when the job was planned); null while queued. */
  referenceModelId: string | null;
  /**
   * 'queued' (waiting for the jobs before it), 'computing', 'done' (the stored map is up to date:
   * computed now, or already), 'failed' (`message` says why), 'skipped' (nothing to compare:
   * `message` says why, e.g. a model without a splat file).
   */
  state: ChangeMapJobState;
  /** How far the computation is, 0 to 1 (0 while queued, 1 when done). */
  fraction: number;
  /** Why it failed or was skipped; null otherwise. */
  message: string | null;
  /** How many maps of the capture this server computed and stored since it started (an up-to-date map is not computed again). */
  computations: number;
  /** When the state last changed (ISO 8601). */
  updated_at: string;
}

/** The server's jobs, as far as a client may see them. */
export interface ServerJobsPort {
  /**
   * The change-map job of a capture.
   * @param modelId the capture's model id
   * @returns its latest job; null when the backend computes no change maps itself (Firebase, the
   *   in-memory backend), when none was asked for since the server started, or when the caller may
   *   not open the capture or its reference
   * @throws AppError `unauthenticated` (not signed in), `network`
   */
  changeMapJob(modelId: string): Promise<ChangeMapJob | null>;

  /**
   * Follows the change-map job of a capture.
   * @param modelId the capture's model id
   * @param onNext called with the job (or null, as {@link changeMapJob} answers) at once and each time it changes
   * @param onError called once if following fails (the subscription has ended then)
   * @returns stops following
   */
  subscribeChangeMapJob(modelId: string, onNext: (job: ChangeMapJob | null) => void, onError?: (error: Error) => void): Unsubscribe;
}
