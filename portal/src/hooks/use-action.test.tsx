import { act, cleanup, renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { useAction, type ActionTexts } from './use-action.js';

afterEach(cleanup);

/** A promise with its settle functions, to look at the action while it runs. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

function setup<A extends unknown[], R>(fn: (...args: A) => Promise<R> | R, texts?: ActionTexts<A, R>) {
  return renderHook(() => useAction(fn, texts));
}

describe('useAction', () => {
  it('starts idle, with no message', () => {
    const { result } = setup(async () => 1);
    expect(result.current).toMatchObject({ status: 'idle', busy: false, error: undefined, result: undefined, args: null, message: null });
  });

  it('is busy while running, then a success with its result, arguments and success text', async () => {
    const gate = deferred<number>();
    const { result } = setup((a: number, b: string) => gate.promise.then((n) => n + a + b.length), {
      success: (value, a, b) => `done ${value} (${a}, ${b})`,
    });
    let ran!: Promise<boolean>;
    act(() => {
      ran = result.current.run(1, 'ab');
    });
    expect(result.current).toMatchObject({ status: 'running', busy: true, args: [1, 'ab'], message: null });
    await act(async () => {
      gate.resolve(10);
      expect(await ran).toBe(true);
    });
    expect(result.current).toMatchObject({ status: 'success', busy: false, result: 13, error: undefined });
    expect(result.current.message).toEqual({ kind: 'success', text: 'done 13 (1, ab)' });
  });

  it('shows no banner on a success without a success text', async () => {
    const { result } = setup(async () => 'x');
    await act(async () => {
      await result.current.run();
    });
    expect(result.current.status).toBe('success');
    expect(result.current.message).toBeNull();
  });

  it('turns a rejection (or a throw) into an error with the failure text; run resolves false and never rejects', async () => {
    const boom = new Error('boom');
    const { result } = setup(
      (how: 'reject' | 'throw') => {
        if (how === 'throw') throw boom;
        return Promise.reject(boom);
      },
      { failure: (error, how) => `failed (${how}): ${(error as Error).message}` },
    );
    for (const how of ['reject', 'throw'] as const) {
      let ok: boolean | undefined;
      await act(async () => {
        ok = await result.current.run(how);
      });
      expect(ok).toBe(false);
      expect(result.current).toMatchObject({ status: 'error', busy: false, error: boom });
      expect(result.current.message).toEqual({ kind: 'error', text: `failed (${how}): boom` });
    }
  });

  it("uses the error's message without a failure text", async () => {
    const { result } = setup(async () => {
      throw new Error('Permission denied.');
    });
    await act(async () => {
      await result.current.run();
    });
    expect(result.current.message).toEqual({ kind: 'error', text: 'Permission denied.' });
  });

  it('fail(text) is the validation step: an error banner without running', () => {
    let calls = 0;
    const { result } = setup(async () => {
      calls++;
    });
    act(() => result.current.fail('Please fill in all required fields.'));
    expect(calls).toBe(0);
    expect(result.current).toMatchObject({ status: 'error', busy: false });
    expect(result.current.message).toEqual({ kind: 'error', text: 'Please fill in all required fields.' });
    expect(result.current.error).toBeInstanceOf(Error);
  });

  it('a new run clears the last message; reset goes back to idle', async () => {
    const gate = deferred<void>();
    const { result } = setup(() => gate.promise, { success: () => 'Saved' });
    act(() => result.current.fail('bad input'));
    act(() => {
      void result.current.run();
    });
    expect(result.current.message).toBeNull();
    await act(async () => {
      gate.resolve();
      await gate.promise;
    });
    expect(result.current.message).toEqual({ kind: 'success', text: 'Saved' });
    act(() => result.current.reset());
    expect(result.current).toMatchObject({ status: 'idle', message: null, args: null });
  });

  it('runs the latest render’s function and texts, with a stable run', async () => {
    const { result, rerender } = renderHook(({ n }) => useAction(async () => n, { success: (value) => `got ${value}` }), {
      initialProps: { n: 1 },
    });
    const firstRun = result.current.run;
    rerender({ n: 2 });
    expect(result.current.run).toBe(firstRun);
    await act(async () => {
      await result.current.run();
    });
    expect(result.current.message).toEqual({ kind: 'success', text: 'got 2' });
  });
});
