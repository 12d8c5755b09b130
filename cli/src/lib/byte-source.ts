/**
 * Files on disk as byte sources of the content checks (`shared/content-check/byte-source.ts`):
 * each read opens the file, reads the range and closes it, so a check holds no file handle
 * between reads and a folder of thousands of photos can be checked a few at a time.
 */
import { open } from 'node:fs/promises';
import { basename } from 'node:path';
import type { ByteSource } from '@shared/content-check/byte-source.js';

/**
 * A local file as a byte source.
 * @param path the file's path
 * @param size its size in bytes
 * @param name the name checks show and take the declared type from (default: the path's base name)
 */
export function fileByteSource(path: string, size: number, name = basename(path)): ByteSource {
  return {
    name,
    size,
    async read(offset, length) {
      const want = Math.max(0, Math.min(length, size - offset));
      const handle = await open(path, 'r');
      try {
        const buffer = Buffer.allocUnsafe(want);
        let done = 0;
        while (done < want) {
          const { bytesRead } = await handle.read(buffer, done, want - done, offset + done);
          if (bytesRead === 0) break;
          done += bytesRead;
        }
        return new Uint8Array(buffer.buffer, buffer.byteOffset, done);
      } finally {
        await handle.close();
      }
    },
  };
}
