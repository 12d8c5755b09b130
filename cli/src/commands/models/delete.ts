/**
 * `catalog models delete`: a model with its record and every file, after its name is typed.
 * Files left behind make it an error (exit 1)
 * that lists them; `catalog doctor --fix` removes them later.
 */
import { z } from 'zod';
import { ErrorCode, errorMessage, isAppError, rewrap } from '@shared/errors.js';
import { deleteModelFailed, modelDeletedWithLeftovers } from '@shared/messages.js';
import { deleteModel } from '@shared/workflows/index.js';
import { examplesHelp, leafCommand } from '../../lib/command.js';
import { findModelRef, modelRefCommand, modelRefShape, typedName } from '../../lib/lookup.js';

const schema = z.object({ ...modelRefShape, confirm: z.string().optional() });

/** `catalog models delete <model> [--confirm "<name>"]` */
export const deleteCommand = leafCommand({
  command: modelRefCommand('delete', 'delete a model, its record and all its files (type its name to confirm)').option(
    '--confirm <name>',
    'the model name, typed to confirm (required without a terminal)',
  ),
  backend: true,
  schema,
  help: examplesHelp(['catalog models delete TWR-001-2025-06 --project TWR-001 --confirm "June 2025 survey"']),
  run: async (input, ctx, open) => {
    const { backend } = await open();
    const model = await findModelRef(backend, input.model, input.project);
    const typed = await typedName(ctx, model.name, input.confirm);
    let result;
    try {
      result = await deleteModel(backend, model.id, typed);
    } catch (error) {
      if (isAppError(error, ErrorCode.InvalidArgument, ErrorCode.NotFound)) throw error;
      throw rewrap(error, deleteModelFailed(errorMessage(error)));
    }
    if (result.filesNotDeleted.length > 0) {
      // A partial delete is an error (exit 1) that lists what was left behind.
      return {
        result: { id: model.id, ...result },
        text: result.filesNotDeleted.join('\n'),
        failure: { code: ErrorCode.Internal, message: modelDeletedWithLeftovers(result.name, result.filesNotDeleted.length) },
      };
    }
    return { result: { id: model.id, ...result }, text: model.id, summary: modelDeletedWithLeftovers(result.name, 0) };
  },
});
