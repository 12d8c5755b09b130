/**
 * A tus-js-client `fileReader` (its documented extension point, `FileReader.openFile`) for local
 * files in Node: the same as tus-js-client's own Node reader (an `fs.ReadStream` with a path is
 * read again from its path, each slice a new stream over the requested byte range), but each
 * slice reads in large blocks instead of Node's default 64 KiB. A 64 KiB stream costs one
 * thread-pool round trip and one socket write per 64 KiB; large blocks keep the socket fed
 * (1 GiB PUT on loopback into a discarding server: 1.5–1.7 s at 64 KiB, 0.9–1.0 s at 1–4 MiB,
 * measured here). Every other input (Buffer, other streams) goes to tus-js-client's own reader.
 */
import { createReadStream, ReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import * as tus from 'tus-js-client';

/**
 * Block size of a slice's reads, in bytes (1 MiB). A slice's stream holds at most one block
 * ahead, so an upload keeps about two blocks in memory whatever the file size (4 MiB blocks were
 * no faster here and added ~15 MB to the CLI's peak RSS in `npm run bench:upload`).
 */
export const UPLOAD_READ_BLOCK_BYTES = 1024 * 1024;

/** tus-js-client's FileSource: one open input, sliced into request bodies. */
interface FileSource {
  size: number;
  slice(start: number, end: number): Promise<{ value: unknown; done: boolean }>;
  close(): void;
}

/** tus-js-client's FileReader. */
export interface TusFileReader {
  openFile(input: unknown, chunkSize: number): Promise<FileSource>;
}

/**
 * The file reader to pass to tus-js-client as `fileReader` (see the module comment).
 * @param blockBytes read size of each slice's stream in bytes (default {@link UPLOAD_READ_BLOCK_BYTES})
 * @returns a FileReader; `openFile` rejects as tus-js-client's own does (e.g. ENOENT from `stat`)
 */
export function largeBlockFileReader(blockBytes: number = UPLOAD_READ_BLOCK_BYTES): TusFileReader {
  const fallback = (tus.defaultOptions as unknown as { fileReader: TusFileReader }).fileReader;
  return {
    async openFile(input: unknown, chunkSize: number): Promise<FileSource> {
      if (!(input instanceof ReadStream) || input.path == null) return fallback.openFile(input, chunkSize);
      const stream = input;
      const path = stream.path.toString();
      const { size: fileSize } = await stat(path);
      // A ReadStream may cover a range of the file (start/end, `end` inclusive): that range is the upload.
      const first = (stream as ReadStream & { start?: number }).start ?? 0;
      const last = (stream as ReadStream & { end?: number }).end;
      const size = (Number.isFinite(last) ? (last as number) + 1 : fileSize) - first;
      return {
        size,
        slice(start: number, end: number) {
          const value = createReadStream(path, { start: first + start, end: first + Math.min(end, size) - 1, highWaterMark: blockBytes });
          const length = Math.max(0, Math.min(end, size) - start);
          // The HTTP stack sends `size` as Content-Length.
          Object.assign(value, { size: length });
          return Promise.resolve({ value, done: start + length >= size });
        },
        close() {
          stream.destroy();
        },
      };
    },
  };
}
