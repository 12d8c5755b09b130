/**
 * `catalog annotations …`: list and export the findings of one model, or of every model of a
 * project, as a table, JSON or CSV. One file per subcommand; this one only registers them.
 */
import { Command } from 'commander';
import { examplesHelp } from '../../lib/command.js';
import { annotationsExportCommand } from './export.js';
import { annotationsListCommand } from './list.js';

export type { FindingsScope } from './common.js';
export { readFindings } from './common.js';
export { annotationsExportCommand, annotationsListCommand };

/** `catalog annotations …` */
export const annotationsCommand = new Command('annotations')
  .description('list and export findings (annotations) of a model or a project')
  .addCommand(annotationsListCommand)
  .addCommand(annotationsExportCommand)
  .addHelpText(
    'after',
    examplesHelp([
      'catalog annotations list TWR-001-2025-06 --project TWR-001',
      'catalog annotations export --project TWR-001 --format csv --out findings.csv',
    ]),
  );
