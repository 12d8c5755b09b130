/**
 * `catalog files add|list|delete`: the files of a model (SPEC.md §2 model files, §5 file rules:
 * camera metadata checked before anything is written, main model files only deleted with the
 * whole model; §8 file messages). The model record's file lists follow every change.
 */
import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import { Command } from 'commander';
import { z } from 'zod';
import { parseCameraMetadata } from '../../../shared/camera-metadata.js';
import { AppError, ErrorCode } from '../../../shared/errors.js';
import { formatBytes } from '../../../shared/format.js';
import { ModelMessages, ValidationMessages, cameraMetadataUploaded, filesDeleted, filesUploaded } from '../../../shared/messages.js';
import { SERVER_TIMESTAMP } from '../../../shared/ports/catalog.js';
import { assetPath, cameraMetadataPath, fileEntryType, imagePath, isMainModelFile, modelFolder, thumbnailPath } from '../../../shared/paths.js';
import type { Model } from '../../../shared/types.js';
import { validateCameraMetadataFiles } from '../../../shared/validation/camera.js';
import { listFilesDeep } from '../../../shared/workflows/util.js';
import { addBackendOptions, backendOptionsShape } from '../lib/backend.js';
import { backendFor } from '../lib/command-backend.js';
import { findModel, findProject } from '../lib/lookup.js';
import { addCommonOptions, defineAction } from '../lib/output.js';
import { askConfirm } from '../lib/prompts.js';
import { resumingFiles } from '../lib/resume.js';

const KINDS = ['images', 'thumbnails', 'assets', 'cameras'] as const;
type Kind = (typeof KINDS)[number];
const RECORD_FIELD: Record<Exclude<Kind, 'cameras'>, 'images' | 'thumbnails' | 'assets'> = { images: 'images', thumbnails: 'thumbnails', assets: 'assets' };
const PATH_OF: Record<Exclude<Kind, 'cameras'>, (uuid: string, name: string) => string> = { images: imagePath, thumbnails: thumbnailPath, assets: assetPath };
const FOLDER_NAME: Record<Exclude<Kind, 'cameras'>, string> = { images: 'images', thumbnails: 'images_thumbnails', assets: 'assets' };

async function modelOf(backend: Parameters<typeof findModel>[0], ref: string, project?: string): Promise<Model> {
  return findModel(backend, ref, project ? (await findProject(backend, project)).id : undefined);
}

// ---- add ---------------------------------------------------------------------------------------

const addSchema = z.object({
  model: z.string().min(1),
  files: z.array(z.string().min(1)).min(1),
  kind: z.enum(KINDS, { error: 'must be images, thumbnails, assets or cameras' }),
  project: z.string().optional(),
  ...backendOptionsShape,
});

/** `catalog files add <model> <files...> --kind images|thumbnails|assets|cameras` */
export const addCommand = addCommonOptions(
  addBackendOptions(
    new Command('add')
      .description('add images, thumbnails, assets or the camera metadata to a model')
      .argument('<model>', 'model id, or public ID')
      .argument('<files...>', 'files to add (one JSON file for --kind cameras)')
      .option('--kind <kind>', 'images, thumbnails, assets or cameras (required)')
      .option('--project <id>', 'project of the public ID'),
  ),
).addHelpText('after', '\nExamples:\n  $ catalog files add TWR-001-2025-06 ./photos/*.jpg --kind images\n  $ catalog files add TWR-001-2025-06 ./cameras.json --kind cameras\n');

defineAction(addCommand, addSchema, async (input, ctx) => {
  const paths = input.files.map((f) => resolve(f));
  const sizes: number[] = [];
  for (const p of paths) {
    const info = await stat(p).catch(() => null);
    if (!info?.isFile()) throw new AppError(ErrorCode.NotFound, `Not a file: ${p}`, { context: { path: p } });
    sizes.push(info.size);
  }
  let cameraText: string | null = null;
  let cameraCount = 0;
  if (input.kind === 'cameras') {
    const checked = validateCameraMetadataFiles(paths.map((p) => ({ name: basename(p) })));
    if (!checked.ok) throw new AppError(ErrorCode.InvalidArgument, checked.message);
    cameraText = await readFile(paths[0], 'utf8');
    const parsed = parseCameraMetadata(cameraText);
    if (!parsed.ok) throw new AppError(ErrorCode.InvalidArgument, parsed.message);
    cameraCount = parsed.value.length;
  }
  const { backend } = await backendFor(input, ctx);
  const model = await modelOf(backend, input.model, input.project);
  const uuid = model.uuid || model.id;
  if (input.kind === 'cameras') {
    const path = cameraMetadataPath(uuid);
    await backend.files.upload(path, new Blob([cameraText as string], { type: 'application/json' }), { contentType: 'application/json' });
    await backend.catalog.update('models', model.id, { 'files.cameraMetadata': path, last_updated: SERVER_TIMESTAMP });
    return { result: { id: model.id, paths: [path], cameras: cameraCount }, text: path, summary: cameraMetadataUploaded(cameraCount) };
  }
  const kind = input.kind;
  const targets = paths.map((p) => PATH_OF[kind](uuid, basename(p)));
  if (new Set(targets).size !== targets.length) throw new AppError(ErrorCode.InvalidArgument, `Duplicate file name in ${FOLDER_NAME[kind]}`);
  const { files } = resumingFiles(backend.files);
  const done: string[] = [];
  try {
    for (let i = 0; i < paths.length; i++) {
      await files.upload(targets[i], { size: sizes[i], input: createReadStream(paths[i]), name: basename(paths[i]) });
      done.push(targets[i]);
      if (!ctx.json) ctx.log(`uploaded ${basename(paths[i])} (${formatBytes(sizes[i])})`);
    }
  } catch (error) {
    throw new AppError(error instanceof AppError ? error.code : ErrorCode.Internal, ModelMessages.uploadFilesFailed, { cause: error, context: { uploaded: done } });
  } finally {
    // the record lists what was stored, even when a later file failed
    if (done.length > 0) {
      const field = RECORD_FIELD[kind];
      const list = [...new Set([...(model.files?.[field] ?? []), ...done])];
      await backend.catalog.update('models', model.id, { [`files.${field}`]: list, last_updated: SERVER_TIMESTAMP });
    }
  }
  return { result: { id: model.id, paths: done }, text: done.join('\n'), summary: filesUploaded(done.length, FOLDER_NAME[kind]) };
});

// ---- list --------------------------------------------------------------------------------------

const listSchema = z.object({ model: z.string().min(1), project: z.string().optional(), ...backendOptionsShape });

/** `catalog files list <model>` */
export const listCommand = addCommonOptions(
  addBackendOptions(
    new Command('list').description('list the stored files of a model').argument('<model>', 'model id, or public ID').option('--project <id>', 'project of the public ID'),
  ),
).addHelpText('after', '\nExample:\n  $ catalog files list TWR-001-2025-06 --json\n');

defineAction(listCommand, listSchema, async (input, ctx) => {
  const { backend } = await backendFor(input, ctx);
  const model = await modelOf(backend, input.model, input.project);
  const paths = (await listFilesDeep(backend.files, modelFolder(model.uuid || model.id))).sort();
  const entries = [];
  for (const path of paths) {
    const meta = await backend.files.getMetadata(path);
    entries.push({ path, type: fileEntryType(path), size: meta.size });
  }
  return {
    result: entries,
    text: entries.map((e) => `${(e.type ?? '-').padEnd(14)} ${formatBytes(e.size).padStart(10)}  ${e.path}`).join('\n') || 'No files',
    summary: `${entries.length} files (${formatBytes(entries.reduce((n, e) => n + e.size, 0))})`,
  };
});

// ---- delete ------------------------------------------------------------------------------------

const deleteSchema = z.object({ model: z.string().min(1), paths: z.array(z.string().min(1)).min(1), project: z.string().optional(), ...backendOptionsShape });

/** `catalog files delete <model> <paths...>` */
export const deleteCommand = addCommonOptions(
  addBackendOptions(
    new Command('delete')
      .description('delete files of a model (not its splat or GLB: delete the model instead)')
      .argument('<model>', 'model id, or public ID')
      .argument('<paths...>', 'storage paths (or paths inside the model folder, e.g. images/a.jpg)')
      .option('--project <id>', 'project of the public ID'),
  ),
).addHelpText('after', '\nExample:\n  $ catalog files delete TWR-001-2025-06 images/IMG_0001.jpg --yes\n');

defineAction(deleteCommand, deleteSchema, async (input, ctx) => {
  const { backend } = await backendFor(input, ctx);
  const model = await modelOf(backend, input.model, input.project);
  const folder = modelFolder(model.uuid || model.id);
  const paths = input.paths.map((p) => (p.startsWith(`${folder}/`) ? p : `${folder}/${p.replace(/^\/+/, '')}`));
  for (const path of paths) {
    const type = fileEntryType(path);
    if (isMainModelFile(type)) throw new AppError(ErrorCode.InvalidArgument, ValidationMessages.cannotDeleteMainFiles, { context: { path } });
    if (type === null) throw new AppError(ErrorCode.InvalidArgument, `Not a file of this model: ${path}`, { context: { path } });
  }
  const yes = await askConfirm(ctx, { message: `Delete ${paths.length} file(s) of ${model.publicId}?`, flag: '--yes' });
  if (!yes) throw new AppError(ErrorCode.Canceled, 'Nothing deleted.');
  for (const path of paths) {
    try {
      await backend.files.delete(path);
    } catch (error) {
      if (!(error instanceof AppError && error.code === ErrorCode.ObjectNotFound)) {
        throw new AppError(error instanceof AppError ? error.code : ErrorCode.Internal, ModelMessages.deleteFileFailed, { cause: error });
      }
    }
  }
  const gone = new Set(paths);
  const f = model.files ?? {};
  await backend.catalog.update('models', model.id, {
    'files.images': (f.images ?? []).filter((p) => !gone.has(p)),
    'files.thumbnails': (f.thumbnails ?? []).filter((p) => !gone.has(p)),
    'files.assets': (f.assets ?? []).filter((p) => !gone.has(p)),
    ...(f.cameraMetadata && gone.has(f.cameraMetadata) ? { 'files.cameraMetadata': null } : {}),
    last_updated: SERVER_TIMESTAMP,
  });
  return { result: { id: model.id, deleted: paths }, text: paths.join('\n'), summary: paths.length === 1 ? ModelMessages.fileDeleted : filesDeleted(paths.length) };
});

/** `catalog files …` */
export const filesCommand = new Command('files')
  .description('add, list and delete the files of a model (images, thumbnails, assets, camera metadata)')
  .addCommand(addCommand)
  .addCommand(listCommand)
  .addCommand(deleteCommand)
  .addHelpText('after', '\nExamples:\n  $ catalog files add TWR-001-2025-06 ./photos/*.jpg --kind images\n  $ catalog files list TWR-001-2025-06\n');
