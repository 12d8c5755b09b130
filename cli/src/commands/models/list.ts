/**
 * `catalog models list`: every model (hidden ones included), by project, then by Public ID
 * (`shared/order.ts`); capture dates as 'YYYY-MM-DD' (`--json`: as stored); the scale
 * (`metadata.unitsPerMetre`) as model units per metre, '-' when unknown.
 */
import { Command } from 'commander';
import { z } from 'zod';
import { formatCount } from '@shared/format.js';
import { modelTypeLabel } from '@shared/model-type.js';
import { compareCodeUnits, sortModelsByPublicId } from '@shared/order.js';
import { backendOptionsShape } from '../../lib/backend.js';
import { examplesHelp, leafCommand } from '../../lib/command.js';
import { findProject } from '../../lib/lookup.js';
import { captureDateText, formatTable } from '../../lib/output.js';

const schema = z.object({ project: z.string().optional(), ...backendOptionsShape });

/** `catalog models list [--project <id>]` */
export const listCommand = leafCommand({
  command: new Command('list')
    .description('list models (hidden ones included), by project')
    .option('--project <id>', 'only this project (id, structure ID or slug)'),
  backend: true,
  schema,
  help: examplesHelp(['catalog models list --project TWR-001 --json']),
  run: async (input, _ctx, open) => {
    const { backend } = await open();
    const project = input.project ? await findProject(backend, input.project) : null;
    const found = await backend.catalog.query('models', project ? { where: [['projectId', '==', project.id]] } : undefined);
    // By project, then by publicId as everywhere else (shared/order.ts; the sort is stable).
    const models = sortModelsByPublicId(found).sort((a, b) => compareCodeUnits(a.projectId ?? '', b.projectId ?? ''));
    const rows = models.map((m) => [
      m.publicId,
      m.name,
      modelTypeLabel(m),
      m.visible === false ? 'hidden' : 'visible',
      m.isReference ? 'yes' : '',
      captureDateText(m.metadata?.captureDate),
      m.metadata?.unitsPerMetre ? `${m.metadata.unitsPerMetre}/m` : '-',
      m.projectId ?? '-',
      m.id,
    ]);
    return {
      result: models,
      text:
        models.length === 0
          ? 'No models'
          : formatTable(['PUBLIC ID', 'NAME', 'TYPE', 'VISIBILITY', 'REFERENCE', 'CAPTURED', 'SCALE', 'PROJECT', 'ID'], rows),
      summary: formatCount(models.length, 'model'),
    };
  },
});
