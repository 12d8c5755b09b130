/**
 * Server-jobs port of the local adapter: the embedded server's change-map job of a capture
 * (`routes.changeMapJob`), read once or followed live. The server says `changeMaps` changed on its
 * event stream whenever a job's state or progress changes (and when a map is stored), so a followed
 * job is read again then, as the live queries on that collection are.
 */
import type { ErrorListener } from '@shared/adapters/common.js';
import type { Unsubscribe } from '@shared/ports/identity.js';
import type { ChangeMapJob, ServerJobsPort } from '@shared/ports/jobs.js';
import { routes } from '@shared/wire/routes.js';
import type { LocalCatalog } from './catalog.js';
import type { LocalIdentity } from './identity.js';

/** ServerJobsPort of the local adapter. */
export class LocalJobs implements ServerJobsPort {
  /**
   * @param identity sends the authorised requests
   * @param catalog its event stream re-reads a followed job
   */
  constructor(
    private readonly identity: LocalIdentity,
    private readonly catalog: LocalCatalog,
  ) {}

  async changeMapJob(modelId: string): Promise<ChangeMapJob | null> {
    const result = await this.identity.call(routes.changeMapJob, [modelId], { check: true });
    return result.job;
  }

  subscribeChangeMapJob(modelId: string, onNext: (job: ChangeMapJob | null) => void, onError?: ErrorListener): Unsubscribe {
    return this.catalog.watchDerived(
      ['changeMaps'],
      async () => [await this.changeMapJob(modelId)],
      ([job]) => onNext(job ?? null),
      onError,
    );
  }
}
