/**
 * `catalog files delete`: deletes files of a model after a yes/no question (`--yes` without a
 * terminal). Paths may be storage paths or paths inside the model folder; the main model files
 * (splat, GLB) are refused, as is any path that is not a file of this model, before anything is
 * deleted. The record stops listing each file, then the file goes.
 */
import { z } from 'zod';
import { AppError, ErrorCode, rewrap } from '@shared/errors.js';
import { ModelMessages, ValidationMessages, filesDeleted } from '@shared/messages.js';
import { fileEntryType, isMainModelFile, modelFolder } from '@shared/paths.js';
import { deleteModelFile } from '@shared/workflows/index.js';
import { examplesHelp, leafCommand } from '../../lib/command.js';
import { findModelRef, modelRefCommand, modelRefShape } from '../../lib/lookup.js';
import { askConfirm } from '../../lib/prompts.js';

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
