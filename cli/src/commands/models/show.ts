/** `catalog models show`: one model record, by id or by Public ID (within `--project`). */
import { examplesHelp, leafCommand } from '../../lib/command.js';
import { findModelRef, modelRefCommand } from '../../lib/lookup.js';
import { modelRefSchema } from './common.js';

/** `catalog models show <model> [--project <id>]` */
export const showCommand = leafCommand({
  command: modelRefCommand('show', 'show a model record and its files', 'project of the public ID (id, structure ID or slug)'),
  backend: true,
  schema: modelRefSchema,
  help: examplesHelp(['catalog models show TWR-001-2025-06 --project TWR-001']),
  run: async (input, _ctx, open) => {
    const { backend } = await open();
    const model = await findModelRef(backend, input.model, input.project);
    return { result: model, summary: `${model.publicId} ${model.name} (${model.id})` };
  },
});
