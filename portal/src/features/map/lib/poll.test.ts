import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { pollUntil } from './poll.js';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('maps init polling (every 500 ms, gives up after 10 s)', () => {
  it('checks every 500 ms and resolves true once ready', async () => {
    let checks = 0;
    const done = pollUntil(() => ++checks === 4);
    await vi.advanceTimersByTimeAsync(1000);
    expect(checks).toBe(3);
    await vi.advanceTimersByTimeAsync(500);
    await expect(done).resolves.toBe(true);
    expect(checks).toBe(4);
  });

  it('gives up after 10 s', async () => {
    let settled: boolean | null = null;
    void pollUntil(() => false).then((value) => (settled = value));
    await vi.advanceTimersByTimeAsync(9500);
    expect(settled).toBeNull();
    await vi.advanceTimersByTimeAsync(500);
    expect(settled).toBe(false);
  });
});
