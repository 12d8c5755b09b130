/**
 * Local files as upload sources of the file-store port.
 */
import { createReadStream } from 'node:fs';
import type { ReadStream } from 'node:fs';
import { basename } from 'node:path';
import type { NativeUploadSource } from '@shared/ports/files.js';

/**
 * A local file as a Node upload source whose stream opens only when the store reads `input`
 * (so a long list of files holds only the files in flight open); reading `input` again while
 * the stream is open returns the same stream.
 * @param path the file's path
 * @param size its size in bytes
 */
export function localFileSource(path: string, size: number): NativeUploadSource {
  let stream: ReadStream | null = null;
  return {
    size,
    name: basename(path),
    localPath: path,
    get input(): ReadStream {
      if (stream === null || stream.destroyed) {
        stream = createReadStream(path);
        stream.on('error', () => undefined);
      }
      return stream;
    },
  };
}
