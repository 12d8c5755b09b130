/**
 * The content checks' messages, in the user's terms: what the file is and what is wrong, then
 * the file name in brackets ('This .glb is an HTML page, not a GLB file (html-named.glb).').
 */

/** The extension a message calls the file by ('.glb'), from its name; '' when it has none. */
export function dotExtension(fileName: string): string {
  const match = /\.([^./\\]+)$/.exec(fileName);
  return match ? `.${match[1]!.toLowerCase()}` : '';
}

/**
 * A content-check message: `This {.ext} {what} ({fileName}).`
 * @param fileName the file as the user named it
 * @param what e.g. 'is an HTML page, not a GLB file'
 */
export function contentMessage(fileName: string, what: string): string {
  const ext = dotExtension(fileName);
  return `This ${ext === '' ? 'file' : ext} ${what} (${fileName}).`;
}

/**
 * A size in mebibytes as messages show it, rounded up to a tenth ('512 MiB', '67.3 MiB'), so a
 * size over a limit never reads as the limit itself.
 */
export function formatMiB(bytes: number): string {
  const tenths = Math.ceil((bytes / (1024 * 1024)) * 10);
  return `${tenths % 10 === 0 ? tenths / 10 : (tenths / 10).toFixed(1)} MiB`;
}

/** 'a Git LFS pointer (a 131-byte text file), not the {thing} itself: …' */
export function lfsPointerMessage(fileName: string, size: number, thing: string): string {
  return contentMessage(
    fileName,
    `is a Git LFS pointer (a ${size}-byte text file), not the ${thing} itself: fetch the real file with 'git lfs pull' and upload that`,
  );
}
