/**
 * The CLI's content platform (`ContentPlatform`, shared/content-check/platform.ts), lent to the
 * add-model and additional-files workflows: local files read as byte sources
 * (node:fs), photos decoded and thumbnails made with sharp (within the photo pixel limit,
 * `IMAGE_MAX_PIXELS`, refused from the header), web-sized splats (SPZ) and web-sized GLBs made in
 * worker threads (web-splat.ts, web-glb.ts).
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ByteSource } from '@shared/content-check/byte-source.js';
import { readAll } from '@shared/content-check/byte-source.js';
import type { ContentPlatform } from '@shared/content-check/platform.js';
import type { NativeUploadSource } from '@shared/ports/files.js';
import { fileByteSource } from './byte-source.js';
import { decodeImageWithSharp, thumbnailWithSharp } from './images.js';
import { compressGlbFile } from './web-glb.js';
import { compressSplatFile, PREVIEW_GAUSSIANS } from './web-splat.js';

/** Local paths of the byte sources this platform opened (so a PLY is compressed from its file, not copied first). */
const localPaths = new WeakMap<ByteSource, string>();

/**
 * Opens a Node upload source for reading: the file at its `localPath`.
 * @param source the upload source
 * @param name the file name the checks show
 * @returns the byte source, or null when the source has no local path
 */
export function openLocalSource(source: NativeUploadSource, name: string): ByteSource | null {
  if (typeof source.localPath !== 'string' || source.localPath === '') return null;
  const opened = fileByteSource(source.localPath, source.size, name);
  localPaths.set(opened, source.localPath);
  return opened;
}

/**
 * Makes the web-sized copy (SPZ v3) of a splat (a 3DGS PLY or a `.splat`, told by the source's
 * name) in a temporary folder under `os.tmpdir()` and reads it back, with the preview of a
 * capture of more than `PREVIEW_ABOVE_GAUSSIANS` (400,000) Gaussians (its `PREVIEW_GAUSSIANS`
 * most important Gaussians, SH degree 0); the folder is removed afterwards. A source this
 * platform opened is compressed from its own file; any other source is first written to the folder.
 * @param splat the splat
 * @returns the SPZ as a Blob, and the preview's SPZ (null for a smaller capture)
 * @throws AppError `invalid-argument` when the splat cannot be read, `internal` when the worker dies
 */
export async function compressSplatLocally(splat: ByteSource): Promise<{ copy: Blob; preview: Blob | null }> {
  const dir = await mkdtemp(join(tmpdir(), 'catalog-web-splat-'));
  const name = splat.name.toLowerCase().endsWith('.splat') ? 'model.splat' : 'model.ply';
  try {
    let input = localPaths.get(splat);
    if (input === undefined) {
      input = join(dir, name);
      await writeFile(input, await readAll(splat));
    }
    const output = join(dir, 'model.spz');
    const previewOutput = join(dir, 'model.preview.spz');
    const result = await compressSplatFile(input, output, name, { preview: { output: previewOutput, gaussians: PREVIEW_GAUSSIANS } });
    const blobOf = (bytes: Buffer<ArrayBuffer>) =>
      new Blob([new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength)], { type: 'application/octet-stream' });
    return { copy: blobOf(await readFile(output)), preview: result.preview === null ? null : blobOf(await readFile(previewOutput)) };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * Makes the web-sized copy of a GLB ({@link compressGlbFile}: textures at most 2048 px as WebP,
 * meshopt geometry) in a temporary folder under `os.tmpdir()` and reads it back when it is kept
 * (at least 2× smaller than the original); the folder is removed afterwards. A source this
 * platform opened is read from its own file; any other source is first written to the folder.
 * @param glb the GLB
 * @returns the copy as a Blob, or `copy: null` with why it was not kept
 * @throws AppError `invalid-argument` when the GLB cannot be read, `internal` when the worker dies
 */
export async function compressGlbLocally(glb: ByteSource): Promise<{ copy: Blob; skipped: null } | { copy: null; skipped: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'catalog-web-glb-'));
  try {
    let input = localPaths.get(glb);
    if (input === undefined) {
      input = join(dir, 'model.glb');
      await writeFile(input, await readAll(glb));
    }
    const output = join(dir, 'model.web.glb');
    const result = await compressGlbFile(input, output);
    if (result.skipped !== null) return { copy: null, skipped: result.skipped };
    const bytes = await readFile(output);
    return {
      copy: new Blob([new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength)], { type: 'model/gltf-binary' }),
      skipped: null,
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * The CLI's content platform: `open` (a local file by its `localPath`), `decodeImage` (sharp,
 * full decode), `makeThumbnail` (sharp JPEG, long edge 512 px), `compressSplat` (SPZ v3 via
 * {@link compressSplatLocally}) and `compressGlb` ({@link compressGlbLocally}). Pass it as `content` to every `addModel` and
 * `uploadAdditionalFiles` call.
 */
export const nodeContentPlatform: ContentPlatform = {
  open: openLocalSource,
  decodeImage: decodeImageWithSharp,
  makeThumbnail: thumbnailWithSharp,
  compressSplat: compressSplatLocally,
  compressGlb: compressGlbLocally,
};
