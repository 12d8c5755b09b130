/**
 * `catalog files add`: adds images, thumbnails, assets or the camera metadata to a model,
 * through the model-files workflows the portal's model management screen uses. Camera metadata
 * (one JSON file) is checked before anything is written; other files already stored with the
 * same size are not sent again (a re-run after an interruption); a file refused by its content
 * check keeps the check's message. The model record's file lists follow every change.
 */
import { readFile, stat } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import { z } from 'zod';
import { AppError, ErrorCode, rewrap } from '@shared/errors.js';
import { formatBytes } from '@shared/format.js';
import { ModelMessages, cameraMetadataUploaded, filesUploaded } from '@shared/messages.js';
import { assetPath, cameraMetadataPath, imagePath, thumbnailPath } from '@shared/paths.js';
import { validateCameraMetadataFiles } from '@shared/validation/camera.js';
import { uploadAdditionalFiles, uploadCameraMetadata } from '@shared/workflows/index.js';
import { examplesHelp, leafCommand } from '../../lib/command.js';
import { nodeContentPlatform } from '../../lib/content-platform.js';
import { localFileSource } from '../../lib/local-file.js';
import { findModelRef, modelRefCommand, modelRefShape } from '../../lib/lookup.js';
import { resumingFiles } from '../../lib/resume.js';

const KINDS = ['images', 'thumbnails', 'assets', 'cameras'] as const;
const PATH_OF = { images: imagePath, thumbnails: thumbnailPath, assets: assetPath } as const;

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
      // a file refused by its content check is said as the check says it; other failures with the upload-failed message
      if (error instanceof AppError && error.code === ErrorCode.InvalidArgument) throw error;
      throw rewrap(error, ModelMessages.uploadFilesFailed);
    }
    const stored = names.map((name) => PATH_OF[kind](model.uuid || model.id, name));
    return { result: { id: model.id, paths: stored }, text: stored.join('\n'), summary: filesUploaded(result.count, result.folder) };
  },
});
