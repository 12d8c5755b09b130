// Live project summaries for the backends that poll a count (the two Firebase adapters): a read
// that fails or never answers must not stop later changes from being shown.
import { describe, expect, it } from 'vitest';
import { subscribeProjectSummariesByCounts } from '@shared/adapters/project-summaries.js';
import type { CatalogPort, ProjectSummary } from '@shared/ports/index.js';

/** Resolves once `predicate` holds, polling every 5 ms; throws after `timeoutMs`. */
async function until(predicate: () => boolean, what: string, timeoutMs = 5_000): Promise<void> {
  const start = Date.now();
  while (!predicate()) {
    if (Date.now() - start > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** A port whose listeners answer at once with nothing and whose model count is `state.count`. */
function fakePort(state: { count: number }): Pick<CatalogPort, 'subscribe' | 'count'> {
  return {
    subscribe: ((_collection: unknown, _query: unknown, onNext: (docs: unknown[]) => void) => {
      queueMicrotask(() => onNext([]));
      return () => undefined;
    }) as CatalogPort['subscribe'],
    count: () => Promise.resolve(state.count),
  };
}

const summary = (modelCount: number): ProjectSummary[] => [{ projectId: 'p', modelCount, referenceThumbnailPath: null }];

describe('subscribeProjectSummariesByCounts', () => {
  it('shows the first summaries, then a change the poll sees in the model count', async () => {
    const state = { count: 2 };
    const seen: number[] = [];
    const stop = subscribeProjectSummariesByCounts(
      fakePort(state),
      () => Promise.resolve(summary(state.count)),
      (s) => seen.push(s[0]!.modelCount),
      undefined,
      { pollMs: 10 },
    );
    try {
      await until(() => seen.at(-1) === 2, 'the first summaries');
      state.count = 1; // deleted elsewhere: no listener tells
      await until(() => seen.at(-1) === 1, 'the deletion');
      expect(seen).toEqual([2, 1]);
    } finally {
      stop();
    }
  });

  it('reads again after a failed read, although the count the poll sees no longer changes', async () => {
    const state = { count: 2 };
    let failNext = false;
    const seen: number[] = [];
    const errors: Error[] = [];
    const stop = subscribeProjectSummariesByCounts(
      fakePort(state),
      () => {
        if (failNext) {
          failNext = false;
          return Promise.reject(new Error('unavailable'));
        }
        return Promise.resolve(summary(state.count));
      },
      (s) => seen.push(s[0]!.modelCount),
      (error) => errors.push(error),
      { pollMs: 10 },
    );
    try {
      await until(() => seen.at(-1) === 2, 'the first summaries');
      failNext = true;
      state.count = 1;
      await until(() => seen.at(-1) === 1, 'the deletion, read again after the failure');
      expect(errors).toEqual([]); // only a failure of the first read ends the subscription
    } finally {
      stop();
    }
  });

  it('gives up a read that never answers and reads again', async () => {
    const state = { count: 2 };
    let hangNext = false;
    const seen: number[] = [];
    const stop = subscribeProjectSummariesByCounts(
      fakePort(state),
      () => {
        if (hangNext) {
          hangNext = false;
          return new Promise<ProjectSummary[]>(() => undefined);
        }
        return Promise.resolve(summary(state.count));
      },
      (s) => seen.push(s[0]!.modelCount),
      undefined,
      { pollMs: 10, readTimeoutMs: 100 },
    );
    try {
      await until(() => seen.at(-1) === 2, 'the first summaries');
      hangNext = true;
      state.count = 1;
      await until(() => seen.at(-1) === 1, 'the deletion, read again after the hung read');
    } finally {
      stop();
    }
  });

  it('ends the subscription with the error when the first read fails', async () => {
    const errors: Error[] = [];
    const seen: unknown[] = [];
    subscribeProjectSummariesByCounts(
      fakePort({ count: 0 }),
      () => Promise.reject(new Error('permission-denied')),
      (s) => seen.push(s),
      (error) => errors.push(error),
      { pollMs: 10 },
    );
    await until(() => errors.length === 1, 'the error');
    expect(errors[0]!.message).toBe('permission-denied');
    expect(seen).toEqual([]);
  });
});
