/**
 * Progress of a bulk upload on stderr: on a terminal, one status line redrawn in place
 * for the batch (models done, bytes, rate, ETA) and the file being sent (bytes, rate, ETA); on a
 * pipe or file, plain lines: each model's start and end, and each large file at 25 % steps.
 */
import { formatBytes, formatCount } from '@shared/format.js';
import type { UploadProgress } from '@shared/ports/files.js';
import type { FileStatus } from '@shared/workflows/index.js';
import type { BatchItem, BatchObserver } from './batch.js';

/** Files at least this big get their own progress lines in plain mode (bytes). */
const LARGE_FILE = 8 * 1024 * 1024;

/** '1:05' or '1:02:03' for a number of seconds; '--:--' when unknown. */
export function formatEta(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) return '--:--';
  const s = Math.round(seconds);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = String(s % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${sec}` : `${m}:${sec}`;
}

/** The batch progress display: an observer for `runBatch` plus a final stop. */
export interface BatchProgress extends BatchObserver {
  stop(): void;
}

/**
 * Creates the batch progress display.
 * @param options.totalBytes bytes of every model to upload
 * @param options.totalModels number of models to upload
 * @param options.stream where to write (default stderr)
 * @param options.tty force the terminal mode on/off (default: the stream is a TTY)
 */
export function createBatchProgress(options: {
  totalBytes: number;
  totalModels: number;
  stream?: NodeJS.WriteStream;
  tty?: boolean;
}): BatchProgress {
  const stream = options.stream ?? process.stderr;
  const tty = options.tty ?? (stream.isTTY === true && !process.env.CI);
  const started = Date.now();
  let doneModels = 0;
  // bytes of each file of the models in flight, and the running total of every file so far
  const fileBytes = new Map<BatchItem, Map<string, number>>();
  let sentBytes = 0;
  let current: { label: string; sent: number; total: number; since: number; base: number } | null = null;
  const steps = new Map<string, number>();
  let timer: NodeJS.Timeout | null = null;

  const rateOf = (bytes: number, since: number) => bytes / Math.max(0.001, (Date.now() - since) / 1000);
  const line = (): string => {
    const bytes = sentBytes;
    const rate = rateOf(bytes, started);
    const eta = rate > 0 ? (options.totalBytes - bytes) / rate : Number.NaN;
    let text = `[${doneModels}/${options.totalModels} models] ${formatBytes(bytes)} / ${formatBytes(options.totalBytes)} ${formatBytes(rate)}/s ETA ${formatEta(eta)}`;
    if (current) {
      const fileRate = rateOf(current.sent - current.base, current.since);
      const fileEta = fileRate > 0 ? (current.total - current.sent) / fileRate : Number.NaN;
      text += ` · ${current.label} ${formatBytes(current.sent)} / ${formatBytes(current.total)} ${formatBytes(fileRate)}/s ETA ${formatEta(fileEta)}`;
    }
    const width = stream.columns && stream.columns > 10 ? stream.columns - 1 : 200;
    return text.length > width ? `${text.slice(0, width - 1)}…` : text;
  };
  const draw = () => stream.write(`\r\x1b[K${line()}`);
  const print = (text: string) => {
    if (tty) stream.write(`\r\x1b[K${text}\n`);
    else stream.write(`${text}\n`);
    if (tty) draw();
  };
  if (tty) timer = setInterval(draw, 200);

  return {
    onModelStart(item: BatchItem) {
      print(
        `[${item.entry.publicId}] uploading ${formatCount(item.fileCount, 'file')} (${formatBytes(item.totalBytes)}) from ${item.entry.folder}`,
      );
    },
    onModelDone(item: BatchItem) {
      doneModels++;
      fileBytes.delete(item);
      if (item.status === 'created') print(`[${item.entry.publicId}] created ${item.modelId}`);
      else print(`[${item.entry.publicId}] failed: ${item.problems.join('; ')}`);
    },
    onFile(item: BatchItem, key: string, status: FileStatus, progress?: UploadProgress) {
      const id = `${item.entry.publicId}\u0000${key}`;
      if (!progress) return;
      let files = fileBytes.get(item);
      if (!files) fileBytes.set(item, (files = new Map()));
      sentBytes += progress.bytesTransferred - (files.get(key) ?? 0);
      files.set(key, progress.bytesTransferred);
      const label = `${item.entry.publicId} ${key}`;
      if (tty) {
        if (status === 'uploading') {
          if (current?.label !== label)
            current = {
              label,
              sent: progress.bytesTransferred,
              total: progress.totalBytes,
              since: Date.now(),
              base: progress.bytesTransferred,
            };
          else current.sent = progress.bytesTransferred;
        } else if (current?.label === label) current = null;
        return;
      }
      if (progress.totalBytes < LARGE_FILE) return;
      const percent = progress.totalBytes > 0 ? Math.floor((progress.bytesTransferred / progress.totalBytes) * 100) : 100;
      const step = status === 'completed' ? 100 : Math.floor(percent / 25) * 25;
      if ((steps.get(id) ?? -1) >= step) return;
      steps.set(id, step);
      const rate = rateOf(sentBytes, started);
      print(
        `[${item.entry.publicId}] ${key} ${formatBytes(progress.bytesTransferred)} / ${formatBytes(progress.totalBytes)} (${percent}%) ${formatBytes(rate)}/s`,
      );
    },
    stop() {
      if (timer) clearInterval(timer);
      timer = null;
      if (tty) stream.write('\r\x1b[K');
    },
  };
}
