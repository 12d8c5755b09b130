/**
 * `catalog files list`: the stored files of a model, one a line with its type and size, and
 * their count and total size; 'No files' when there is none.
 */
import { z } from 'zod';
import { formatBytes } from '@shared/format.js';
import { listModelFiles } from '@shared/workflows/index.js';
import { examplesHelp, leafCommand } from '../../lib/command.js';
import { findModelRef, modelRefCommand, modelRefShape } from '../../lib/lookup.js';

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
