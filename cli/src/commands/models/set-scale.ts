/**
 * `catalog models set-scale`: a model's scale, `metadata.unitsPerMetre` (how
 * many model units make one metre, so measurements also show metres), or `none` to clear it.
 */
import { z } from 'zod';
import { setUnitsPerMetre } from '@shared/workflows/index.js';
import { examplesHelp, leafCommand } from '../../lib/command.js';
import { findModelRef, modelRefCommand, modelRefShape } from '../../lib/lookup.js';

const schema = z.object({ ...modelRefShape, unitsPerMetre: z.string() });

/** `catalog models set-scale <model> <unitsPerMetre|none> [--project <id>]` */
export const setScaleCommand = leafCommand({
  command: modelRefCommand('set-scale', 'set how many model units make one metre (or none to clear it)').argument(
    '<unitsPerMetre>',
    "a positive number, or 'none' for an unknown scale",
  ),
  backend: true,
  schema,
  help: examplesHelp([
    'catalog models set-scale TWR-001-2025-06 1 --project TWR-001      # the model is in metres',
    'catalog models set-scale TWR-001-2025-06 1000 --project TWR-001   # in millimetres',
    'catalog models set-scale TWR-001-2025-06 none --project TWR-001',
  ]),
  run: async (input, _ctx, open) => {
    const { backend } = await open();
    const model = await findModelRef(backend, input.model, input.project);
    const typed = input.unitsPerMetre.trim();
    // 'none' clears; '' is refused here (an empty argument is a slip, not a request to clear)
    const value = typed.toLowerCase() === 'none' ? null : typed === '' ? Number.NaN : typed;
    const unitsPerMetre = await setUnitsPerMetre(backend.catalog, model.id, value);
    return {
      result: { id: model.id, unitsPerMetre },
      text: unitsPerMetre === null ? 'none' : String(unitsPerMetre),
      summary:
        unitsPerMetre === null ? `${model.publicId} has no scale now.` : `${model.publicId}: ${unitsPerMetre} model units per metre.`,
    };
  },
});
