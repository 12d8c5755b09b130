/**
 * Upload progress on stderr: an ora spinner per file on a terminal, plain lines
 * otherwise (file, bytes, percent), following the add-model stages
 * (preparing → uploading → processing → finalizing) and the per-file statuses (waiting,
 * uploading, completed, error).
 */
import ora from 'ora';
import type { Ora } from 'ora';
import { formatBytes } from '@shared/format.js';
import type { UploadProgress } from '@shared/ports/files.js';
import type { AddModelHooks, AddModelStage } from '@shared/workflows/add-model.js';
import type { FileStatus } from '@shared/workflows/util.js';

/** Observers to hand to the `addModel` workflow, plus a final stop. */
export interface ProgressReporter extends Required<Pick<AddModelHooks, 'onStage' | 'onFile'>> {
  /** Stops any spinner (call in a finally). */
  stop(): void;
}

const STAGE_TEXT: Record<AddModelStage, string> = {
  preparing: 'Preparing…',
  uploading: 'Uploading files…',
  processing: 'Processing…',
  finalizing: 'Finalizing…',
};

/** 'model.ply 1.2 MB / 2.25 MB (53%)' */
export function describeProgress(key: string, progress: UploadProgress | undefined): string {
  if (!progress) return key;
  const { bytesTransferred, totalBytes } = progress;
  const percent = totalBytes > 0 ? Math.floor((bytesTransferred / totalBytes) * 100) : 100;
  return `${key} ${formatBytes(bytesTransferred)} / ${formatBytes(totalBytes)} (${percent}%)`;
}

/**
 * Creates the progress reporter.
 * @param options.label prefix of every line (e.g. the model's publicId)
 * @param options.stream where to write (default stderr)
 * @param options.spinner force the spinner on/off (default: on when the stream is a TTY)
 * @param options.names display names for the workflow's file keys (e.g. splat → 'splat point_cloud.ply')
 * @returns hooks for `addModel` and a stop function
 */
export function createProgress(
  options: { label?: string; stream?: NodeJS.WriteStream; spinner?: boolean; names?: Record<string, string> } = {},
): ProgressReporter {
  const stream = options.stream ?? process.stderr;
  // a terminal without a width (some pseudo-terminals report 0 columns) cannot redraw a spinner
  const useSpinner = options.spinner ?? (stream.isTTY === true && (stream.columns ?? 0) > 0 && !process.env.CI);
  const prefix = options.label ? `[${options.label}] ` : '';
  const write = (line: string) => stream.write(`${prefix}${line}\n`);
  let spinner: Ora | null = null;
  const lastPercent = new Map<string, number>();

  const spin = (text: string): Ora => {
    if (spinner === null) spinner = ora({ text: `${prefix}${text}`, stream, discardStdin: false }).start();
    else spinner.text = `${prefix}${text}`;
    return spinner;
  };

  return {
    onStage(stage: AddModelStage) {
      if (useSpinner) spin(STAGE_TEXT[stage]);
      else write(`${stage}`);
    },
    onFile(fileKey: string, status: FileStatus, progress?: UploadProgress) {
      const key = options.names?.[fileKey] ?? fileKey;
      if (useSpinner) {
        if (status === 'uploading') spin(`Uploading ${describeProgress(key, progress)}`);
        else if (status === 'completed') {
          spin('').succeed(`${prefix}${describeProgress(key, progress)}`);
          spinner = null;
        } else if (status === 'error') {
          spin('').fail(`${prefix}${key} failed`);
          spinner = null;
        }
        return;
      }
      if (status === 'waiting') return;
      if (status === 'uploading') {
        if (!progress) return;
        const percent = progress.totalBytes > 0 ? Math.floor((progress.bytesTransferred / progress.totalBytes) * 100) : 100;
        const step = Math.floor(percent / 25) * 25;
        if ((lastPercent.get(key) ?? -1) >= step) return;
        lastPercent.set(key, step);
        write(`uploading ${describeProgress(key, progress)}`);
      } else if (status === 'completed') write(`completed ${describeProgress(key, progress)}`);
      else write(`error ${key}`);
    },
    stop() {
      (spinner as Ora | null)?.stop();
      spinner = null;
    },
  };
}
