/**
 * `catalog findings export`: the findings of one model, or of every model of a project, as
 * JSON (the stored findings) or CSV (the report table, as the portal exports it), to stdout or
 * to the file `--out` names (overwritten).
 */
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { z } from 'zod';
import { formatCount } from '@shared/format.js';
import { examplesHelp, leafCommand } from '../../lib/command.js';
import { readFindings, renderFindings, scopeCommand, scopeShape } from './common.js';

const exportSchema = z.object({ ...scopeShape, format: z.enum(['json', 'csv']), out: z.string().min(1).optional() });

/** `catalog findings export [model] [--project <project>] --format json|csv [--out <file>]` */
export const findingsExportCommand = leafCommand({
  command: scopeCommand('export', "export a model's or a whole project's findings as JSON or CSV")
    .requiredOption('--format <format>', 'json (the stored findings) or csv (the report table, as the portal exports it)')
    .option('--out <file>', 'write to this file instead of stdout'),
  backend: true,
  schema: exportSchema,
  help: examplesHelp([
    'catalog findings export --project TWR-001 --format csv --out TWR-001-findings.csv',
    'catalog findings export TWR-001-2025-06 --project TWR-001 --format json',
  ]),
  run: async (input, _ctx, open) => {
    const { backend } = await open();
    const scope = await readFindings(backend, input.model, input.project);
    const content = renderFindings(scope, input.format);
    const summary = `${formatCount(scope.annotations.length, 'finding')} (${scope.kind} ${scope.label})`;
    if (input.out === undefined) return { result: scope.annotations, ...content, summary };
    const file = resolve(input.out);
    writeFileSync(file, content.text);
    return {
      result: { file, format: input.format, count: scope.annotations.length },
      text: file,
      summary: `Wrote ${summary} to ${file}`,
    };
  },
});
