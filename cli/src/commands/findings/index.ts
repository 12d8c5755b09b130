/**
 * `catalog findings …`: list and export the findings of one model, or of every model of a
 * project, as a table, JSON or CSV. One file per subcommand; this one only registers them.
 */
import { Command } from 'commander';
import { examplesHelp } from '../../lib/command.js';
import { findingsExportCommand } from './export.js';
import { findingsListCommand } from './list.js';

export type { FindingsScope } from './common.js';
export { readFindings } from './common.js';
export { findingsExportCommand, findingsListCommand };

/** `catalog findings …` */
export const findingsCommand = new Command('findings')
  // Stored findings are `annotations` documents; the command answers to that name too.
  .alias('annotations')
  .description('list and export the findings of a model or a project')
  .addCommand(findingsListCommand)
  .addCommand(findingsExportCommand)
  .addHelpText(
    'after',
    examplesHelp([
      'catalog findings list TWR-001-2025-06 --project TWR-001',
      'catalog findings export --project TWR-001 --format csv --out findings.csv',
    ]),
  );
