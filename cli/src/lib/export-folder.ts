/**
 * Reading an export folder that someone else may have prepared (`catalog import`): every file is
 * opened without following a symbolic link at any part of its path, must be a regular file with
 * no other hard link, and its bytes are read from the descriptor that was checked. So a link
 * in the folder (to the data folder's `auth-secret`, to `/etc/passwd`) is refused instead of
 * imported, and a file swapped for a link after the check is caught.
 *
 * How a file is opened (Node has no `openat`): each folder on the way is checked with `lstat`
 * (a folder, not a link), the file itself with `lstat` (a regular file, one link), then opened
 * with `O_NOFOLLOW`; the open descriptor's `fstat` must be that same file (device and inode).
 * Where the system names open descriptors (`/proc/self/fd` on Linux), the descriptor's real path
 * must be the expected one, which also closes the window in which a checked folder could be
 * swapped for a link. A file that has another hard link is refused: its other name may be
 * anywhere (a hard link to a secret is a regular file too).
 */
import { constants } from 'node:fs';
import type { BigIntStats } from 'node:fs';
import { lstat, open, opendir, readlink, realpath, stat } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import type { ByteSource } from '@shared/content-check/byte-source.js';

/** Deepest folder nesting walked below a listed folder (a stored path is `models/{uuid}/{folder}/{name}`). */
const MAX_TREE_DEPTH = 8;

/** A file of the export folder refused, with the reason (its message names the file). */
export class ExportEntryError extends Error {
  constructor(
    readonly rel: string,
    reason: string,
  ) {
    super(`${rel}: ${reason}`);
    this.name = 'ExportEntryError';
  }
}

/** What identifies a file's content: the same device, inode, size and change times. */
export interface FileIdentity {
  dev: bigint;
  ino: bigint;
  size: bigint;
  mtimeNs: bigint;
  ctimeNs: bigint;
}

const identityOf = (s: BigIntStats): FileIdentity => ({ dev: s.dev, ino: s.ino, size: s.size, mtimeNs: s.mtimeNs, ctimeNs: s.ctimeNs });

/** True when two identities are the same file with the same content times and size. */
export function sameIdentity(a: FileIdentity, b: FileIdentity): boolean {
  return a.dev === b.dev && a.ino === b.ino && a.size === b.size && a.mtimeNs === b.mtimeNs && a.ctimeNs === b.ctimeNs;
}

/** A checked, open regular file of the export folder. */
export interface ExportFile {
  /** Its path relative to the folder, with '/'. */
  rel: string;
  handle: FileHandle;
  /** Size in bytes. */
  size: number;
  /** Last modification, ms since the epoch. */
  mtimeMs: number;
  identity: FileIdentity;
  /**
   * A path that opens this very file again whatever happens to its name (`/proc/self/fd/N` or
   * `/dev/fd/N`), for readers that open by path; null where the system has none (then the
   * caller compares {@link ExportFile.identity} before and after reading).
   */
  descriptorPath: string | null;
  /** Closes the descriptor (idempotent). */
  close(): Promise<void>;
}

/** Why a link is refused (the same words wherever it is found, so a refusal names it once). */
const LINK_REASON = 'is a symbolic link (an export holds only regular files and folders)';

const isMissing = (error: unknown): boolean => (error as NodeJS.ErrnoException)?.code === 'ENOENT';

/** A regular file with a single name: what an export's files must be. */
function regularFileProblem(s: BigIntStats): string | null {
  if (s.isSymbolicLink()) return LINK_REASON;
  if (!s.isFile()) return 'is not a regular file';
  if (s.nlink > 1n) return 'has other hard links (an export holds only files of its own; copy the folder with `cp -r`)';
  return null;
}

/** How this system names an open descriptor, checked once: the prefix, or null when none works. */
let descriptorPrefix: Promise<string | null> | undefined;

async function findDescriptorPrefix(handle: FileHandle, expected: BigIntStats): Promise<string | null> {
  for (const prefix of ['/proc/self/fd/', '/dev/fd/']) {
    try {
      const s = await stat(`${prefix}${handle.fd}`, { bigint: true });
      if (s.dev === expected.dev && s.ino === expected.ino) return prefix;
    } catch {
      // not on this system
    }
  }
  return null;
}

/** An export folder opened for safe reading. */
export class ExportFolder {
  private constructor(
    /** The folder's real path (links in the path given resolved once: the person running the import chose it). */
    readonly root: string,
  ) {}

  /**
   * Opens an export folder.
   * @param dir the folder as given
   * @throws Error when it does not exist or is not a folder
   */
  static async open(dir: string): Promise<ExportFolder> {
    const root = await realpath(dir);
    if (!(await stat(root)).isDirectory()) throw new Error(`${dir} is not a folder`);
    return new ExportFolder(root);
  }

  /**
   * Checks the folders on the way to `rel` (each a real folder, not a link).
   * @returns false when one of them does not exist
   * @throws ExportEntryError when one is a link or not a folder
   */
  private async checkParents(rel: string): Promise<boolean> {
    const parts = rel.split('/');
    let current = this.root;
    for (let i = 0; i < parts.length - 1; i++) {
      current = join(current, parts[i]!);
      let s;
      try {
        s = await lstat(current);
      } catch (error) {
        if (isMissing(error)) return false;
        throw error;
      }
      const shown = parts.slice(0, i + 1).join('/');
      if (s.isSymbolicLink())
        throw new ExportEntryError(rel, `its folder ${shown} is a symbolic link (an export holds only regular files and folders)`);
      if (!s.isDirectory()) throw new ExportEntryError(rel, `${shown} is not a folder`);
    }
    return true;
  }

  /**
   * Whether `rel` is there at all (without following links): for optional files.
   * @returns false when it (or a folder on the way) does not exist
   */
  async has(rel: string): Promise<boolean> {
    if (!(await this.checkParents(rel))) return false;
    try {
      await lstat(join(this.root, ...rel.split('/')));
      return true;
    } catch (error) {
      if (isMissing(error)) return false;
      throw error;
    }
  }

  /**
   * Opens a regular file of the folder without following links (see the module comment).
   * @param rel its path relative to the folder, with '/'
   * @returns the open, checked file; the caller closes it
   * @throws ExportEntryError (missing; a link at any part of the path; not a regular file;
   *   another hard link; not inside the folder)
   */
  async openFile(rel: string): Promise<ExportFile> {
    if (!(await this.checkParents(rel))) throw new ExportEntryError(rel, 'is missing from the export');
    const full = join(this.root, ...rel.split('/'));
    let before: BigIntStats;
    try {
      before = await lstat(full, { bigint: true });
    } catch (error) {
      if (isMissing(error)) throw new ExportEntryError(rel, 'is missing from the export');
      throw error;
    }
    const problem = regularFileProblem(before);
    if (problem !== null) throw new ExportEntryError(rel, problem);
    let handle: FileHandle;
    try {
      // O_NONBLOCK: a file swapped for a FIFO after the check must not hang the open.
      handle = await open(full, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0));
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ELOOP' || code === 'EMLINK') throw new ExportEntryError(rel, LINK_REASON);
      if (isMissing(error)) throw new ExportEntryError(rel, 'is missing from the export');
      throw error;
    }
    try {
      const opened = await handle.stat({ bigint: true });
      const openedProblem = regularFileProblem(opened);
      if (openedProblem !== null) throw new ExportEntryError(rel, openedProblem);
      if (opened.dev !== before.dev || opened.ino !== before.ino) throw new ExportEntryError(rel, 'changed while it was being opened');
      descriptorPrefix ??= findDescriptorPrefix(handle, opened);
      const prefix = await descriptorPrefix;
      if (prefix === '/proc/self/fd/') {
        const actual = await readlink(`${prefix}${handle.fd}`);
        if (actual !== full)
          throw new ExportEntryError(rel, 'is not inside the export folder (a folder on its way was replaced by a link)');
      }
      let closed = false;
      return {
        rel,
        handle,
        size: Number(opened.size),
        mtimeMs: Number(opened.mtimeMs),
        identity: identityOf(opened),
        descriptorPath: prefix === null ? null : `${prefix}${handle.fd}`,
        async close() {
          if (closed) return;
          closed = true;
          await handle.close();
        },
      };
    } catch (error) {
      await handle.close();
      throw error;
    }
  }

  /**
   * Reads a whole regular file of the folder (opened as {@link openFile} does).
   * @param rel its path relative to the folder
   * @param maxBytes the largest size accepted
   * @returns its bytes
   * @throws ExportEntryError as {@link openFile}, or when it is larger than `maxBytes`
   */
  async readFile(rel: string, maxBytes: number): Promise<Buffer> {
    const file = await this.openFile(rel);
    try {
      if (file.size > maxBytes) throw new ExportEntryError(rel, `is larger than ${maxBytes} bytes`);
      const bytes = Buffer.alloc(file.size);
      let done = 0;
      while (done < file.size) {
        const { bytesRead } = await file.handle.read(bytes, done, file.size - done, done);
        if (bytesRead === 0) break;
        done += bytesRead;
      }
      if (done !== file.size || !sameIdentity(identityOf(await file.handle.stat({ bigint: true })), file.identity))
        throw new ExportEntryError(rel, 'changed while it was being read');
      return bytes;
    } finally {
      await file.close();
    }
  }

  /**
   * Every regular file under the folder `rel` (none when it does not exist), walked without
   * following links.
   * @param rel a folder relative to the export folder
   * @returns the files' paths relative to the export folder, sorted, and one line per entry that
   *   is a link, neither a file nor a folder, or nested too deep (each naming it)
   * @throws ExportEntryError when `rel` itself (or a folder on its way) is a link or not a folder
   */
  async listTree(rel: string): Promise<{ files: string[]; problems: string[] }> {
    const files: string[] = [];
    const problems: string[] = [];
    if (!(await this.has(rel))) return { files, problems };
    const top = await lstat(join(this.root, ...rel.split('/')));
    if (top.isSymbolicLink()) throw new ExportEntryError(rel, LINK_REASON);
    if (!top.isDirectory()) throw new ExportEntryError(rel, 'is not a folder');
    const walk = async (folder: string, depth: number): Promise<void> => {
      const dir = await opendir(join(this.root, ...folder.split('/')));
      for await (const entry of dir) {
        const path = `${folder}/${entry.name}`;
        if (entry.isSymbolicLink()) problems.push(`${path}: ${LINK_REASON}`);
        else if (entry.isDirectory()) {
          if (depth >= MAX_TREE_DEPTH) problems.push(`${path}: is nested deeper than any stored file`);
          else await walk(path, depth + 1);
        } else if (entry.isFile()) files.push(path);
        else problems.push(`${path}: is not a regular file or folder`);
      }
    };
    await walk(rel, 1);
    files.sort();
    return { files, problems };
  }
}

/**
 * An open export file as a byte source of the content checks: every read comes from the checked
 * descriptor, never from the path again.
 * @param file the open file
 * @param name the name the checks show and take the declared type from
 */
export function exportFileByteSource(file: ExportFile, name: string): ByteSource {
  return {
    name,
    size: file.size,
    async read(offset, length) {
      const want = Math.max(0, Math.min(length, file.size - offset));
      const buffer = Buffer.allocUnsafe(want);
      let done = 0;
      while (done < want) {
        const { bytesRead } = await file.handle.read(buffer, done, want - done, offset + done);
        if (bytesRead === 0) break;
        done += bytesRead;
      }
      return new Uint8Array(buffer.buffer, buffer.byteOffset, done);
    },
  };
}

/**
 * The current identity of an open file (its `fstat`), to compare with {@link ExportFile.identity}
 * after its bytes were read or sent.
 */
export async function currentIdentity(file: ExportFile): Promise<FileIdentity> {
  return identityOf(await file.handle.stat({ bigint: true }));
}
