/**
 * One home for a form's submit: validate → busy → try → banner. `useAction(fn, texts)` returns
 * `{ run, fail, reset, status, busy, error, result, args, message }`:
 *
 * - `run(...args)` clears the message, sets `status: 'running'`, awaits `fn(...args)`, then
 *   `'success'` (message `texts.success(result, ...args)`, none when that is absent or null) or
 *   `'error'` (message `texts.failure(error, ...args)`, default the error's message). It never
 *   rejects: it resolves true on success, false on failure.
 * - `fail(text)` is the validation step: `'error'` with `text`, without running anything.
 * - `reset()` back to `'idle'` with no message.
 *
 * `fn` and `texts` are read when `run` is called (the latest render's), so they may be inline.
 */
import { useCallback, useState } from 'react';
import type { BannerMessage } from '../components/ui/banner.js';
import { useLatest } from './use-latest.js';
import { errorMessage } from '@shared/errors.js';

export type ActionStatus = 'idle' | 'running' | 'success' | 'error';

export interface ActionTexts<A extends unknown[], R> {
  /** The success banner's text; absent or null: no banner. */
  success?: (result: R, ...args: A) => string | null;
  /** The failure banner's text (log here what should be logged); default: the error's message. */
  failure?: (error: unknown, ...args: A) => string;
}

export interface ActionState<A extends unknown[], R> {
  status: ActionStatus;
  /** The caught error (or the `fail` text as an Error) while `status` is 'error'. */
  error: unknown;
  /** What `fn` resolved to, while `status` is 'success'. */
  result: R | undefined;
  /** The arguments of the current or last run; null before one and after `fail` or `reset`. */
  args: A | null;
  /** The banner for the last outcome. */
  message: BannerMessage | null;
}

export interface Action<A extends unknown[], R> extends ActionState<A, R> {
  run: (...args: A) => Promise<boolean>;
  fail: (text: string) => void;
  reset: () => void;
  /** True while running. */
  busy: boolean;
}

const IDLE = { status: 'idle', error: undefined, result: undefined, args: null, message: null } as const;

export function useAction<A extends unknown[], R>(fn: (...args: A) => Promise<R> | R, texts: ActionTexts<A, R> = {}): Action<A, R> {
  const [state, setState] = useState<ActionState<A, R>>(IDLE);
  const latest = useLatest({ fn, texts });

  const run = useCallback(
    async (...args: A): Promise<boolean> => {
      const { fn: current, texts: currentTexts } = latest.current;
      setState({ status: 'running', error: undefined, result: undefined, args, message: null });
      try {
        const result = await current(...args);
        const text = currentTexts.success?.(result, ...args) ?? null;
        setState({ status: 'success', error: undefined, result, args, message: text === null ? null : { kind: 'success', text } });
        return true;
      } catch (error) {
        const text = currentTexts.failure ? currentTexts.failure(error, ...args) : errorMessage(error);
        setState({ status: 'error', error, result: undefined, args, message: { kind: 'error', text } });
        return false;
      }
    },
    [latest],
  );
  const fail = useCallback((text: string) => {
    setState({ status: 'error', error: new Error(text), result: undefined, args: null, message: { kind: 'error', text } });
  }, []);
  const reset = useCallback(() => setState(IDLE), []);

  return { ...state, run, fail, reset, busy: state.status === 'running' };
}
