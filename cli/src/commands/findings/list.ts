/**
 * `catalog findings list`: the findings of one model, or of every model of a project, as a
 * table, JSON (the stored findings) or CSV (the report table). `--json` wraps the stored findings
 * whatever `--format` says.
 */
import { z } from 'zod';
import { formatCount } from '@shared/format.js';
import { examplesHelp, leafCommand } from '../../lib/command.js';
import { readFindings, renderFindings, scopeCommand, scopeShape } from './common.js';

const listSchema = z.object({ ...scopeShape, format: z.enum(['table', 'json', 'csv']).default('table') });

/** `catalog findings list [model] [--project <project>] [--format table|json|csv]` */
export const findingsListCommand = leafCommand({
  command: scopeCommand('list', "list a model's findings, or a whole project's").option(
    '--format <format>',
    'table, json (the stored findings) or csv (the report table)',
    'table',
  ),
  backend: true,
  schema: listSchema,
  help: examplesHelp(
    [
      'catalog findings list TWR-001-2025-06 --project TWR-001',
      'catalog findings list --project TWR-001 --format csv',
      'catalog findings list <modelId> --json',
    ],
    '\n--json prints {"status":"ok","result":[…the stored findings…]} whatever --format says.',
  ),
  run: async (input, _ctx, open) => {
    const { backend } = await open();
    const scope = await readFindings(backend, input.model, input.project);
    return {
      result: scope.annotations,
      ...renderFindings(scope, input.format),
      summary: `${formatCount(scope.annotations.length, 'finding')} (${scope.kind} ${scope.label})`,
    };
  },
});
