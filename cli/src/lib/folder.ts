/**
 * Model folders on disk: walk a folder, read it as an upload plan (`shared/model-folder.ts`),
 * check every file's content with the shared content checks (`checkModelContent`,
 * shared/content-check/: 3DGS PLY / `.splat`, GLB with gltf-validator, camera metadata with its
 * rules, photos and thumbnails decoded with sharp), keep the validation report, and
 * turn the plan into the `addModel` workflow's files. Nothing here writes anywhere.
 */
import { createReadStream } from 'node:fs';
import type { ReadStream } from 'node:fs';
import { readFile, readdir, stat } from 'node:fs/promises';
import { join, relative, resolve, sep } from 'node:path';
import { checkModelContent } from '@shared/content-check/index.js';
import { AppError, ErrorCode } from '@shared/errors.js';
import { formatBytes, formatCount } from '@shared/format.js';
import type { FolderFile, FolderProblem, ModelFolderPlan, PlannedFile } from '@shared/model-folder.js';
import { planModelFolder } from '@shared/model-folder.js';
import type { ModelType, ValidationReport } from '@shared/types.js';
import type { AddModelFile, AddModelInput } from '@shared/workflows/add-model.js';
import { fileByteSource } from './byte-source.js';
import { decodeImageWithSharp } from './images.js';
import { formatValidationReport } from './report.js';

/**
 * Every file under a folder, recursively, as '/'-separated relative paths with sizes.
 * Symbolic links are followed for files, not for folders.
 * @param folder the folder (absolute or relative to the current directory)
 * @returns the files, sorted by path
 * @throws AppError `not-found` when the folder does not exist or is not a folder
 */
export async function scanFolder(folder: string): Promise<FolderFile[]> {
  const root = resolve(folder);
  const info = await stat(root).catch(() => null);
  if (info === null || !info.isDirectory()) {
    throw new AppError(ErrorCode.NotFound, `Not a folder: ${folder}`, { context: { folder: root } });
  }
  const out: FolderFile[] = [];
  const walk = async (dir: string): Promise<void> => {
    const entries = await readdir(dir, { withFileTypes: true });
    for (const entry of entries) {
      const abs = join(dir, entry.name);
      if (entry.isDirectory()) await walk(abs);
      else if (entry.isFile() || entry.isSymbolicLink()) {
        const s = await stat(abs).catch(() => null);
        if (s?.isFile()) out.push({ path: relative(root, abs).split(sep).join('/'), size: s.size });
      }
    }
  };
  await walk(root);
  return out.sort((a, b) => a.path.localeCompare(b.path));
}

/** A model folder read from disk, checked, ready to upload when `problems` is empty. */
export interface FolderInspection {
  /** Absolute folder path. */
  folder: string;
  plan: ModelFolderPlan;
  /**
   * Plan problems, then file-content problems (splat, GLB, camera metadata with the catalogue's
   * messages, photos, thumbnails), in that order.
   */
  problems: FolderProblem[];
  /** The camera metadata text, when the folder has a valid one. */
  cameraMetadataText: string | null;
  /** Number of cameras in the valid camera metadata. */
  cameraCount: number | null;
  /**
   * The content checks' validation report of the planned files, what the upload
   * stores with the model; refused files have the verdict 'refused' and their problem.
   */
  report: ValidationReport;
}

/**
 * Reads a model folder: the plan, then the content checks of every planned file
 * (`checkModelContent` over the files on disk, photos fully decoded with sharp; thumbnails
 * checked as photos). Writes nothing.
 * @param folder the model folder
 * @param options.modelType the type asked for (default: inferred)
 * @returns the inspection, with the validation report
 * @throws AppError `not-found` when the folder does not exist
 */
export async function inspectModelFolder(folder: string, options: { modelType?: ModelType | null } = {}): Promise<FolderInspection> {
  const root = resolve(folder);
  const files = await scanFolder(root);
  const plan = planModelFolder(files, { modelType: options.modelType ?? null });
  const problems: FolderProblem[] = [...plan.problems];
  const source = (file: PlannedFile) => fileByteSource(join(root, file.path), file.size, file.fileName);

  const { report, images, thumbnails } = await checkModelContent(
    {
      splat: plan.splat ? source(plan.splat) : null,
      glb: plan.glb ? source(plan.glb) : null,
      cameraMetadata: plan.cameraMetadata ? source(plan.cameraMetadata) : null,
      images: plan.images.map(source),
      thumbnails: plan.thumbnails.map(source),
    },
    { decodeImage: decodeImageWithSharp },
  );

  const refused = (file: PlannedFile | null, check: { verdict: string; problem: string | null } | null) => {
    if (file !== null && check !== null && check.verdict === 'refused')
      problems.push({ code: 'bad-file', message: check.problem ?? `${file.fileName} was refused.`, path: file.path });
  };
  refused(plan.splat, report.splat);
  refused(plan.glb, report.glb);
  refused(plan.cameraMetadata, report.cameraMetadata);
  plan.images.forEach((file, i) => refused(file, images[i] ?? null));
  plan.thumbnails.forEach((file, i) => refused(file, thumbnails[i] ?? null));

  let cameraMetadataText: string | null = null;
  let cameraCount: number | null = null;
  if (plan.cameraMetadata !== null && report.cameraMetadata?.verdict !== 'refused') {
    cameraMetadataText = await readFile(join(root, plan.cameraMetadata.path), 'utf8');
    cameraCount = report.cameraMetadata?.cameras ?? null;
  }
  return { folder: root, plan, problems, cameraMetadataText, cameraCount, report };
}

/**
 * Throws when an inspection found problems.
 * @throws AppError `invalid-argument` whose message is the problems' messages, one a line (a
 *   single camera-metadata problem is exactly the catalogue's message)
 */
export function assertNoProblems(inspection: FolderInspection): void {
  if (inspection.problems.length === 0) return;
  throw new AppError(ErrorCode.InvalidArgument, inspection.problems.map((p) => p.message).join('\n'), {
    context: { folder: inspection.folder, problems: inspection.problems },
  });
}

/** Streams opened for an upload; close them when it ends. */
export interface FolderFiles {
  files: AddModelInput['files'];
  /** Closes every file handle opened for the upload. */
  close(): void;
}

/**
 * The `addModel` workflow's files for a checked folder: each file as a Node upload source
 * (`{ size, input: fs.ReadStream, name, localPath }`), the camera metadata as text. A stream is
 * opened only when the upload reads `input`, and the store reads it to its end or destroys it,
 * so a folder of thousands of photos holds only the files in flight open; `close()` destroys
 * any left (after a failure).
 * @param inspection a folder inspection without problems
 */
export function folderUploadFiles(inspection: FolderInspection): FolderFiles {
  const open = new Set<ReadStream>();
  const closeAll = () => {
    for (const s of open) s.destroy();
    open.clear();
  };
  const source = (file: PlannedFile): AddModelFile => {
    const path = join(inspection.folder, file.path);
    let stream: ReadStream | null = null;
    return {
      name: file.fileName,
      source: {
        size: file.size,
        name: file.fileName,
        localPath: path,
        get input(): ReadStream {
          if (stream === null || stream.destroyed) {
            const opened = createReadStream(path);
            opened.on('error', () => undefined);
            opened.on('close', () => open.delete(opened));
            open.add(opened);
            stream = opened;
          }
          return stream;
        },
      },
    };
  };
  const { plan } = inspection;
  const files: AddModelInput['files'] = {
    images: plan.images.map(source),
    thumbnails: plan.thumbnails.map(source),
    assets: plan.assets.map(source),
  };
  if (plan.splat) files.splat = source(plan.splat);
  if (plan.glb) files.glb = source(plan.glb);
  if (plan.cameraMetadata && inspection.cameraMetadataText !== null) {
    files.cameraMetadata = { text: inspection.cameraMetadataText, name: plan.cameraMetadata.fileName };
  }
  return { files, close: closeAll };
}

/** The JSON form of an inspection (`catalog validate --json`, `catalog models upload`). */
export function inspectionSummary(inspection: FolderInspection): {
  folder: string;
  layout: ModelFolderPlan['layout'];
  modelType: ModelType | null;
  typeInferred: boolean;
  files: { kind: string; path: string; size: number }[];
  cameraCount: number | null;
  totalBytes: number;
  ignored: ModelFolderPlan['ignored'];
  problems: FolderProblem[];
  report: ValidationReport;
} {
  const { plan } = inspection;
  const files = [plan.splat, plan.glb, plan.cameraMetadata, ...plan.images, ...plan.thumbnails, ...plan.assets]
    .filter((f): f is PlannedFile => f !== null)
    .map((f) => ({ kind: f.kind, path: f.path, size: f.size }));
  return {
    folder: inspection.folder,
    layout: plan.layout,
    modelType: plan.modelType,
    typeInferred: plan.typeInferred,
    files,
    cameraCount: inspection.cameraCount,
    totalBytes: plan.totalBytes,
    ignored: plan.ignored,
    problems: inspection.problems,
    report: inspection.report,
  };
}

/**
 * A human description of an inspection: layout, type, each planned file with its size, ignored
 * files, the content checks' report (`formatValidationReport`) and problems (unless
 * `options.problems` is false).
 */
export function describeInspection(inspection: FolderInspection, options: { problems?: boolean } = {}): string {
  const { plan } = inspection;
  const lines: string[] = [
    `Folder:  ${inspection.folder}`,
    `Layout:  ${plan.layout === '3dgs' ? '3DGS training output' : 'flat model folder'}`,
    `Type:    ${plan.modelType ?? 'unknown'}${plan.typeInferred && plan.modelType ? ' (inferred)' : ''}`,
  ];
  const main: Array<[string, PlannedFile | null]> = [
    ['splat', plan.splat],
    ['GLB', plan.glb],
    ['cameras', plan.cameraMetadata],
  ];
  for (const [label, file] of main) {
    if (file) {
      const extra = label === 'cameras' && inspection.cameraCount !== null ? `, ${inspection.cameraCount} cameras` : '';
      lines.push(`${(label + ':').padEnd(9)}${file.path} (${formatBytes(file.size)}${extra})`);
    }
  }
  const groups: Array<[string, PlannedFile[]]> = [
    ['images', plan.images],
    ['thumbnails', plan.thumbnails],
    ['assets', plan.assets],
  ];
  for (const [label, list] of groups) {
    if (list.length > 0)
      lines.push(`${(label + ':').padEnd(9)}${formatCount(list.length, 'file')} (${formatBytes(list.reduce((n, f) => n + f.size, 0))})`);
  }
  lines.push(`Total:   ${formatBytes(plan.totalBytes)}`);
  if (plan.ignored.length > 0) {
    lines.push('Ignored:');
    for (const i of plan.ignored) lines.push(`  ${i.path} (${i.reason})`);
  }
  lines.push(formatValidationReport(inspection.report));
  if (options.problems === false) return lines.join('\n');
  if (inspection.problems.length > 0) {
    lines.push('Problems:');
    for (const p of inspection.problems) lines.push(`  ✖ ${p.message}`);
  } else lines.push('No problems found.');
  return lines.join('\n');
}
