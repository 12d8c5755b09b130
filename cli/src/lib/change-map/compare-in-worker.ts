/**
 * {@link compareCaptureFiles} in a worker thread (compare-worker.mjs), for the embedded server:
 * the reading, the ICP and the change map take seconds of CPU on a large capture, and the server
 * must keep answering meanwhile. One comparison runs at a time; the worker is kept between them
 * (starting it, with its TypeScript, costs about a second) and let go after
 * {@link WORKER_IDLE_MS} without work. The steps are reported as the worker starts them; the
 * outcome comes back whole (its typed arrays moved across, not copied).
 */
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import pLimit from 'p-limit';
import { AppError, ErrorCode, isErrorCode } from '@shared/errors.js';
import { packageRoot } from '../package-root.js';
import type { CameraFiles, CaptureComparison, ComparisonStep } from './compare-files.js';

/** How long the worker is kept without work (ms). */
export const WORKER_IDLE_MS = 30_000;

/** What the worker posts: ready once started; per task a step starting, the outcome, or why it failed. */
type WorkerMessage =
  | { kind: 'ready' }
  | { id: number; kind: 'step'; step: ComparisonStep }
  | { id: number; kind: 'done'; outcome: CaptureComparison }
  | { id: number; kind: 'failed'; code: string | null; message: string };

/** Comparisons run at once in this process. */
const limit = pLimit(1);
let kept: { worker: Worker; idle: NodeJS.Timeout | null } | null = null;
let tasks = 0;

/** The kept worker (started when there is none), held so the process waits for it while a task runs. */
function worker(): Worker {
  if (kept === null) {
    const started = new Worker(join(packageRoot(), 'cli', 'src', 'lib', 'change-map', 'compare-worker.mjs'));
    kept = { worker: started, idle: null };
    started.once('exit', () => {
      if (kept?.worker === started) kept = null;
    });
  }
  if (kept.idle !== null) clearTimeout(kept.idle);
  kept.idle = null;
  kept.worker.ref();
  return kept.worker;
}

/** Lets the kept worker go after {@link WORKER_IDLE_MS} without work; meanwhile it holds nothing up. */
function release(): void {
  if (kept === null) return;
  const { worker: idle } = kept;
  idle.unref();
  kept.idle = setTimeout(() => void idle.terminate(), WORKER_IDLE_MS);
  kept.idle.unref();
}

/**
 * Compares a capture file with its reference file as {@link compareCaptureFiles} does, in a worker
 * thread; calls wait for the one before them.
 * @param capturePath the capture's splat file (3DGS PLY or `.splat`) or GLB on disk
 * @param referencePath the reference model's splat file or GLB on disk
 * @param initial the alignment to start from, capture → reference (16 numbers, column-major)
 * @param names the files' names for messages
 * @param onStep called (on the caller's thread) as each step starts
 * @param cameras the camera metadata files of both captures on disk (default none)
 * @param signal aborting stops the worker (the next call starts another); the promise then rejects
 *   with AppError `unavailable`
 * @returns what {@link compareCaptureFiles} returns
 * @throws what {@link compareCaptureFiles} throws (its code and message carried across), AppError
 *   `internal` when the worker dies, `unavailable` when aborted
 */
export function compareCaptureFilesInWorker(
  capturePath: string,
  referencePath: string,
  initial: readonly number[],
  names: { capture?: string; reference?: string } = {},
  onStep: (step: ComparisonStep) => void = () => undefined,
  cameras: CameraFiles = {},
  signal?: AbortSignal,
): Promise<CaptureComparison> {
  return limit(
    () =>
      new Promise<CaptureComparison>((resolve, reject) => {
        const stopped = () => new AppError(ErrorCode.Unavailable, 'The change map was not computed: the comparison was stopped');
        if (signal?.aborted) return reject(stopped());
        const id = (tasks += 1);
        const running = worker();
        let settled = false;
        const settle = (outcome: () => void): void => {
          if (settled) return;
          settled = true;
          signal?.removeEventListener('abort', abort);
          running.off('message', onMessage);
          running.off('error', onError);
          running.off('exit', onExit);
          release();
          outcome();
        };
        const abort = (): void => {
          settle(() => reject(stopped()));
          void running.terminate();
        };
        const onMessage = (message: WorkerMessage): void => {
          if (message.kind === 'ready' || message.id !== id) return;
          if (message.kind === 'step') onStep(message.step);
          else if (message.kind === 'done') settle(() => resolve(message.outcome));
          else {
            const code = message.code !== null && isErrorCode(message.code) ? message.code : ErrorCode.Internal;
            settle(() => reject(new AppError(code, message.message)));
          }
        };
        const onError = (error: Error): void =>
          settle(() =>
            reject(new AppError(ErrorCode.Internal, `The change map could not be computed: ${error.message}`, { cause: error })),
          );
        const onExit = (code: number): void =>
          settle(() => reject(new AppError(ErrorCode.Internal, `The change map's worker stopped (exit code ${code})`)));
        signal?.addEventListener('abort', abort, { once: true });
        running.on('message', onMessage);
        running.once('error', onError);
        running.once('exit', onExit);
        running.postMessage({ id, capturePath, referencePath, initial: [...initial], names, cameras: { ...cameras } });
      }),
  );
}
