// The promise cache: one load per key, failures dropped, the oldest keys dropped past `max`.
import { describe, expect, it, vi } from 'vitest';
import { createPromiseCache } from '@shared/promise-cache.js';

describe('createPromiseCache', () => {
  it('runs one load per key and gives every caller the same promise', async () => {
    const cache = createPromiseCache<number>();
    const load = vi.fn(() => Promise.resolve(7));
    const first = cache.get('a', load);
    expect(cache.get('a', load)).toBe(first);
    await expect(first).resolves.toBe(7);
    expect(cache.get('a', load)).toBe(first);
    expect(load).toHaveBeenCalledTimes(1);
    await cache.get('b', () => Promise.resolve(8));
    expect(cache.size).toBe(2);
  });

  it('drops a failed load, so the next caller loads again', async () => {
    const cache = createPromiseCache<number>();
    await expect(cache.get('a', () => Promise.reject(new Error('offline')))).rejects.toThrow('offline');
    expect(cache.size).toBe(0);
    await expect(cache.get('a', () => Promise.resolve(1))).resolves.toBe(1);
  });

  it('keeps at most max keys, dropping the first kept', async () => {
    const cache = createPromiseCache<string>({ max: 2 });
    const load = vi.fn((key: string) => Promise.resolve(key));
    for (const key of ['a', 'b', 'c']) await cache.get(key, () => load(key));
    expect(cache.size).toBe(2);
    await cache.get('b', () => load('b'));
    await cache.get('a', () => load('a'));
    expect(load.mock.calls.map(([key]) => key)).toEqual(['a', 'b', 'c', 'a']);
  });
});
