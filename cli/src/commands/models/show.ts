/**
 * `catalog models show`: one model record, by id or by Public ID (within `--project`), with its
 * stored validation report printed as `catalog validate` prints a folder's; the
 * capture date as 'YYYY-MM-DD' (`--json`: as stored).
 */
import { examplesHelp, leafCommand } from '../../lib/command.js';
import { findModelRef, modelRefCommand } from '../../lib/lookup.js';
import { withReadableDates } from '../../lib/output.js';
import { formatValidationReport, NO_STORED_REPORT_MESSAGE } from '../../lib/report.js';
import { modelRefSchema } from './common.js';

/** `catalog models show <model> [--project <id>]` */
export const showCommand = leafCommand({
  command: modelRefCommand(
    'show',
    'show a model record, its files and its file checks',
    'project of the public ID (id, structure ID or slug)',
  ),
  backend: true,
  schema: modelRefSchema,
  help: examplesHelp(['catalog models show TWR-001-2025-06 --project TWR-001', 'catalog models show TWR-001-2025-06 --json']),
  run: async (input, _ctx, open) => {
    const { backend } = await open();
    const model = await findModelRef(backend, input.model, input.project);
    const validation = model.validation ?? null;
    const { validation: _stored, ...record } = model;
    const checks = validation ? formatValidationReport(validation) : NO_STORED_REPORT_MESSAGE;
    return {
      // the record as stored, `validation` null when the model has no report
      result: { ...model, validation },
      // the capture date as 'YYYY-MM-DD'; --json prints it as stored
      text: `${JSON.stringify(withReadableDates(record), null, 2)}\n${checks}`,
      summary: `${model.publicId} ${model.name} (${model.id})`,
    };
  },
});
