/**
 * `catalog files add|list|delete`: the files of a model (SPEC.md §2 model files, §5 file rules:
 * camera metadata checked before anything is written, main model files only deleted with the
 * whole model; §8 file messages), through the model-files workflows the portal's model
 * management screen uses. The model record's file lists follow every change.
 */
import { readFile, stat } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import { Command } from 'commander';
import { z } from 'zod';
import { AppError, ErrorCode, rewrap } from '@shared/errors.js';
import { formatBytes } from '@shared/format.js';
import { ModelMessages, ValidationMessages, cameraMetadataUploaded, filesDeleted, filesUploaded } from '@shared/messages.js';
import { assetPath, cameraMetadataPath, fileEntryType, imagePath, isMainModelFile, modelFolder, thumbnailPath } from '@shared/paths.js';
import { validateCameraMetadataFiles } from '@shared/validation/camera.js';
import { deleteModelFile, listModelFiles, uploadAdditionalFiles, uploadCameraMetadata } from '@shared/workflows/index.js';
import { nodeContentPlatform } from '../lib/content-platform.js';
import { localFileSource } from '../lib/local-file.js';
import { findModelRef, modelRefCommand, modelRefShape } from '../lib/lookup.js';
import { askConfirm } from '../lib/prompts.js';
import { examplesHelp, leafCommand } from '../lib/command.js';
import { resumingFiles } from '../lib/resume.js';

const KINDS = ['images', 'thumbnails', 'assets', 'cameras'] as const;
const PATH_OF = { images: imagePath, thumbnails: thumbnailPath, assets: assetPath } as const;

// ---- add ---------------------------------------------------------------------------------------

const addSchema = z.object({
  ...modelRefShape,
  files: z.array(z.string().min(1)).min(1),
  kind: z.enum(KINDS, { error: 'must be images, thumbnails, assets or cameras' }),
});

/** `catalog files add <model> <files...> --kind images|thumbnails|assets|cameras` */
export const addCommand = leafCommand({
  command: modelRefCommand('add', 'add images, thumbnails, assets or the camera metadata to a model')
    .argument('<files...>', 'files to add (one JSON file for --kind cameras)')
    .option('--kind <kind>', 'images, thumbnails, assets or cameras (required)'),
  backend: true,
  schema: addSchema,
  help: examplesHelp([
    'catalog files add TWR-001-2025-06 ./photos/*.jpg --kind images',
    'catalog files add TWR-001-2025-06 ./cameras.json --kind cameras',
  ]),
  run: async (input, ctx, open) => {
    const paths = input.files.map((f) => resolve(f));
    const sizes: number[] = [];
    for (const p of paths) {
      const info = await stat(p).catch(() => null);
      if (!info?.isFile()) throw new AppError(ErrorCode.NotFound, `Not a file: ${p}`, { context: { path: p } });
      sizes.push(info.size);
    }
    if (input.kind === 'cameras') {
      // the file choice first, so that only the one JSON file is read
      const checked = validateCameraMetadataFiles(paths.map((p) => ({ name: basename(p), path: p })));
      if (!checked.ok) throw new AppError(ErrorCode.InvalidArgument, checked.message);
      const text = await readFile(checked.value.path, 'utf8');
      const { backend } = await open();
      const model = await findModelRef(backend, input.model, input.project);
      const { cameras } = await uploadCameraMetadata(backend, model.id, [{ name: checked.value.name, text }]);
      const path = cameraMetadataPath(model.uuid || model.id);
      return { result: { id: model.id, paths: [path], cameras }, text: path, summary: cameraMetadataUploaded(cameras) };
    }
    const kind = input.kind;
    const names = paths.map((p) => basename(p));
    if (new Set(names).size !== names.length) throw new AppError(ErrorCode.InvalidArgument, `Duplicate file name in ${kind}`);
    const { backend } = await open();
    const model = await findModelRef(backend, input.model, input.project);
    // files already stored with the same size are not sent again (a re-run after an interruption)
    const { files } = resumingFiles(backend.files);
    let result;
    try {
      result = await uploadAdditionalFiles(
        { catalog: backend.catalog, files },
        model.id,
        kind,
        paths.map((p, i) => ({ name: names[i], source: localFileSource(p, sizes[i]) })),
        {
          content: nodeContentPlatform,
          onFile: (name, status, progress) => {
            if (status === 'completed' && !ctx.json) ctx.log(`uploaded ${name} (${formatBytes(progress?.totalBytes ?? 0)})`);
          },
        },
      );
    } catch (error) {
      // a refused file (issue 16 content checks) is said as the check says it; other failures with the spec's message
      if (error instanceof AppError && error.code === ErrorCode.InvalidArgument) throw error;
      throw rewrap(error, ModelMessages.uploadFilesFailed);
    }
    const stored = names.map((name) => PATH_OF[kind](model.uuid || model.id, name));
    return { result: { id: model.id, paths: stored }, text: stored.join('\n'), summary: filesUploaded(result.count, result.folder) };
  },
});

// ---- list --------------------------------------------------------------------------------------

const listSchema = z.object(modelRefShape);

/** `catalog files list <model>` */
export const listCommand = leafCommand({
  command: modelRefCommand('list', 'list the stored files of a model'),
  backend: true,
  schema: listSchema,
  help: examplesHelp(['catalog files list TWR-001-2025-06 --json']),
  run: async (input, _ctx, open) => {
    const { backend } = await open();
    const model = await findModelRef(backend, input.model, input.project);
    const entries = await listModelFiles(backend, model.id);
    return {
      result: entries,
      text: entries.map((e) => `${e.type.padEnd(14)} ${formatBytes(e.size ?? 0).padStart(10)}  ${e.path}`).join('\n') || 'No files',
      summary: `${entries.length} files (${formatBytes(entries.reduce((n, e) => n + (e.size ?? 0), 0))})`,
    };
  },
});

// ---- delete ------------------------------------------------------------------------------------

const deleteSchema = z.object({ ...modelRefShape, paths: z.array(z.string().min(1)).min(1) });

/** `catalog files delete <model> <paths...>` */
export const deleteCommand = leafCommand({
  command: modelRefCommand('delete', 'delete files of a model (not its splat or GLB: delete the model instead)').argument(
    '<paths...>',
    'storage paths (or paths inside the model folder, e.g. images/a.jpg)',
  ),
  backend: true,
  schema: deleteSchema,
  help: examplesHelp(['catalog files delete TWR-001-2025-06 images/IMG_0001.jpg --yes']),
  run: async (input, ctx, open) => {
    const { backend } = await open();
    const model = await findModelRef(backend, input.model, input.project);
    const folder = modelFolder(model.uuid || model.id);
    const paths = input.paths.map((p) => (p.startsWith(`${folder}/`) ? p : `${folder}/${p.replace(/^\/+/, '')}`));
    for (const path of paths) {
      const type = fileEntryType(path);
      if (isMainModelFile(type))
        throw new AppError(ErrorCode.InvalidArgument, ValidationMessages.cannotDeleteMainFiles, { context: { path } });
      if (type === null) throw new AppError(ErrorCode.InvalidArgument, `Not a file of this model: ${path}`, { context: { path } });
    }
    const yes = await askConfirm(ctx, { message: `Delete ${paths.length} file(s) of ${model.publicId}?`, flag: '--yes' });
    if (!yes) throw new AppError(ErrorCode.Canceled, 'Nothing deleted.');
    for (const path of paths) {
      try {
        // the record stops listing the file, then the file goes (one already gone counts as deleted)
        await deleteModelFile(backend, model.id, path);
      } catch (error) {
        throw rewrap(error, ModelMessages.deleteFileFailed, { path });
      }
    }
    return {
      result: { id: model.id, deleted: paths },
      text: paths.join('\n'),
      summary: paths.length === 1 ? ModelMessages.fileDeleted : filesDeleted(paths.length),
    };
  },
});

/** `catalog files …` */
export const filesCommand = new Command('files')
  .description('add, list and delete the files of a model (images, thumbnails, assets, camera metadata)')
  .addCommand(addCommand)
  .addCommand(listCommand)
  .addCommand(deleteCommand)
  .addHelpText(
    'after',
    '\nExamples:\n  $ catalog files add TWR-001-2025-06 ./photos/*.jpg --kind images\n  $ catalog files list TWR-001-2025-06\n',
  );
