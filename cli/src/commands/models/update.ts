/**
 * `catalog models update`: a model's name, Public ID and capture date through the shared
 * `updateModel` workflow (the Edit Model form's rules), with the Public ID unique within the
 * project (the CLI knows a model by its Public ID within its project; bulk uploads rely on it).
 */
import { z } from 'zod';
import { ModelMessages } from '@shared/messages.js';
import { updateModel } from '@shared/workflows/index.js';
import { examplesHelp, leafCommand } from '../../lib/command.js';
import { findModelRef, modelRefCommand, modelRefShape } from '../../lib/lookup.js';

const schema = z.object({
  ...modelRefShape,
  name: z.string().optional(),
  publicId: z.string().optional(),
  captureDate: z.string().optional(),
});

/** `catalog models update <model> [--name] [--public-id] [--capture-date]` */
export const updateCommand = leafCommand({
  command: modelRefCommand('update', 'edit a model: name, public ID, capture date (empty date clears it)')
    .option('--name <name>', 'new model name')
    .option('--public-id <id>', 'new public ID (letters, numbers, hyphens, underscores)')
    .option('--capture-date <date>', 'new capture date, e.g. 2025-06-02 ("" clears it)'),
  backend: true,
  schema,
  help: examplesHelp(['catalog models update TWR-001-2025-06 --name "June 2025 survey (final)" --capture-date 2025-06-03']),
  run: async (input, _ctx, open) => {
    const { backend } = await open();
    const model = await findModelRef(backend, input.model, input.project);
    const form = {
      name: input.name ?? model.name,
      publicId: input.publicId ?? model.publicId,
      captureDate: input.captureDate ?? model.metadata?.captureDate ?? '',
    };
    await updateModel(backend.catalog, model.id, form, { uniquePublicId: true });
    const updated = await backend.catalog.get('models', model.id);
    return { result: updated, text: model.id, summary: ModelMessages.modelUpdated };
  },
});
