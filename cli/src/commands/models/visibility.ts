/**
 * `catalog models hide` and `catalog models unhide`; hiding the
 * reference model is refused with the workflow's message.
 */
import type { Command } from 'commander';
import { ErrorCode, isAppError, rewrap } from '@shared/errors.js';
import { ModelMessages } from '@shared/messages.js';
import { setModelVisibility } from '@shared/workflows/index.js';
import { examplesHelp, leafCommand } from '../../lib/command.js';
import { findModelRef, modelRefCommand } from '../../lib/lookup.js';
import { modelRefSchema } from './common.js';

/**
 * `catalog models hide|unhide <model> [--project <id>]`.
 * @param name the subcommand's name
 * @param visible the visibility it sets
 */
function visibilityCommand(name: 'hide' | 'unhide', visible: boolean): Command {
  return leafCommand({
    command: modelRefCommand(name, visible ? 'show a hidden model to users again' : 'hide a model from non-admin users'),
    backend: true,
    schema: modelRefSchema,
    help: examplesHelp([`catalog models ${name} TWR-001-2025-06 --project TWR-001`]),
    run: async (input, _ctx, open) => {
      const { backend } = await open();
      const model = await findModelRef(backend, input.model, input.project);
      try {
        await setModelVisibility(backend.catalog, model.id, visible, backend.files);
      } catch (error) {
        if (isAppError(error, ErrorCode.FailedPrecondition)) throw error;
        throw rewrap(error, ModelMessages.visibilityFailed);
      }
      return { result: { id: model.id, visible }, text: model.id, summary: `${model.publicId} is now ${visible ? 'visible' : 'hidden'}.` };
    },
  });
}

/** `catalog models hide <model>` */
export const hideCommand = visibilityCommand('hide', false);
/** `catalog models unhide <model>` */
export const unhideCommand = visibilityCommand('unhide', true);
