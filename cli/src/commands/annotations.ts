/**
 * `catalog annotations list|export` (issue 18 "Annotations" and "Report"): the findings of one
 * model, or of every model of a project, as a table, JSON or CSV. The rows, their order and the
 * CSV are the portal report's (`findingRows`, `findingsCsv` of `shared/annotations.ts`); the
 * findings are read with `listModelAnnotations` / `listProjectAnnotations`. A malformed stored
 * finding never fails the command: the table and the CSV show what it has (`findingRows`), the
 * JSON is the stored findings exactly; the table's cells are made terminal-safe by `formatTable`.
 */
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Command } from 'commander';
import { z } from 'zod';
import { findingModelFacts, findingRows, findingsCsv } from '@shared/annotations.js';
import type { FindingRow } from '@shared/annotations.js';
import { formatCount } from '@shared/format.js';
import type { Backend } from '@shared/ports/index.js';
import type { Annotation, Model } from '@shared/types.js';
import { listModelAnnotations, listProjectAnnotations } from '@shared/workflows/index.js';
import { backendOptionsShape } from '../lib/backend.js';
import { examplesHelp, leafCommand } from '../lib/command.js';
import { findModelRef, findProject } from '../lib/lookup.js';
import { formatTable, usageError } from '../lib/output.js';

/** What a findings command reads: one model, or a whole project (`--project` without a model). */
export interface FindingsScope {
  /** 'model' when a model was named, else 'project'. */
  kind: 'model' | 'project';
  /** The model's or the project's id. */
  id: string;
  /** Its Public ID or structure ID. */
  label: string;
  /** The findings, by model then number. */
  annotations: Annotation[];
  /** The findings table (report order). */
  rows: FindingRow[];
}

/**
 * Reads the findings of `<model>` (by id or Public ID, within `--project` when given), or of every
 * model of `--project` when no model is named (hidden models included: the CLI is an admin).
 * @param backend the opened backend
 * @param model the `[model]` argument
 * @param project the `--project` value (id, structure ID or slug)
 * @returns the scope with its findings and rows
 * @throws AppError `invalid-argument` when neither is given, `not-found` (model or project)
 */
export async function readFindings(
  backend: Pick<Backend, 'catalog'>,
  model: string | undefined,
  project: string | undefined,
): Promise<FindingsScope> {
  if (model !== undefined && model.trim() !== '') {
    const found = await findModelRef(backend, model, project);
    const annotations = await listModelAnnotations(backend.catalog, found.id);
    return { kind: 'model', id: found.id, label: found.publicId, annotations, rows: findingRows(annotations, findingModelFacts([found])) };
  }
  if (project === undefined || project.trim() === '') throw usageError('Name a model, or a project with --project');
  const found = await findProject(backend, project);
  const models: Model[] = await backend.catalog.query('models', { where: [['projectId', '==', found.id]] });
  const annotations = await listProjectAnnotations(
    backend.catalog,
    models.map((m) => m.id),
  );
  return {
    kind: 'project',
    id: found.id,
    label: found.structure_id,
    annotations,
    rows: findingRows(annotations, findingModelFacts(models)),
  };
}

/** The findings table for human output ('No findings' when empty; '-' for an empty cell). */
function findingsTable(rows: readonly FindingRow[]): string {
  if (rows.length === 0) return 'No findings';
  return formatTable(
    ['FINDING', 'MODEL', 'CAPTURED', 'TITLE', 'CATEGORY', 'SEVERITY', 'STATUS', 'MEASUREMENT', 'ID'],
    rows.map((r) => [
      r.number,
      r.publicId || r.modelName,
      r.captureDate ?? '-',
      r.title,
      r.category || '-',
      r.severity === null ? '-' : String(r.severity),
      r.status || '-',
      r.measurement || '-',
      r.id,
    ]),
  );
}

/**
 * The findings as `--format` asks: JSON (the stored findings, exactly), CSV (the report's table)
 * or a table; `data` marks the two data formats for the output wrapper (printed byte for byte).
 */
function render(scope: FindingsScope, format: 'json' | 'csv' | 'table'): { text: string; data?: 'json' | 'csv' } {
  if (format === 'json') return { text: `${JSON.stringify(scope.annotations, null, 2)}\n`, data: 'json' };
  if (format === 'csv') return { text: findingsCsv(scope.rows), data: 'csv' };
  return { text: findingsTable(scope.rows) };
}

const scopeShape = { model: z.string().optional(), project: z.string().optional(), ...backendOptionsShape };

/** `[model] [--project <project>]`, the arguments of both subcommands. */
function scopeCommand(name: string, description: string): Command {
  return new Command(name)
    .description(description)
    .argument('[model]', 'model id, or public ID (omit it and give --project for a whole project)')
    .option('--project <project>', "project (id, structure ID or slug): the public ID's project, or without a model every model of it");
}

const listSchema = z.object({ ...scopeShape, format: z.enum(['table', 'json', 'csv']).default('table') });

/** `catalog annotations list [model] [--project <project>] [--format table|json|csv]` */
export const annotationsListCommand = leafCommand({
  command: scopeCommand('list', "list a model's findings, or a whole project's").option(
    '--format <format>',
    'table, json (the stored findings) or csv (the report table)',
    'table',
  ),
  backend: true,
  schema: listSchema,
  help: examplesHelp(
    [
      'catalog annotations list TWR-001-2025-06 --project TWR-001',
      'catalog annotations list --project TWR-001 --format csv',
      'catalog annotations list <modelId> --json',
    ],
    '\n--json prints {"status":"ok","result":[…the stored findings…]} whatever --format says.',
  ),
  run: async (input, _ctx, open) => {
    const { backend } = await open();
    const scope = await readFindings(backend, input.model, input.project);
    return {
      result: scope.annotations,
      ...render(scope, input.format),
      summary: `${formatCount(scope.annotations.length, 'finding')} (${scope.kind} ${scope.label})`,
    };
  },
});

const exportSchema = z.object({ ...scopeShape, format: z.enum(['json', 'csv']), out: z.string().min(1).optional() });

/** `catalog annotations export [model] [--project <project>] --format json|csv [--out <file>]` */
export const annotationsExportCommand = leafCommand({
  command: scopeCommand('export', "export a model's or a whole project's findings as JSON or CSV")
    .requiredOption('--format <format>', 'json (the stored findings) or csv (the report table, as the portal exports it)')
    .option('--out <file>', 'write to this file instead of stdout'),
  backend: true,
  schema: exportSchema,
  help: examplesHelp([
    'catalog annotations export --project TWR-001 --format csv --out TWR-001-findings.csv',
    'catalog annotations export TWR-001-2025-06 --project TWR-001 --format json',
  ]),
  run: async (input, _ctx, open) => {
    const { backend } = await open();
    const scope = await readFindings(backend, input.model, input.project);
    const content = render(scope, input.format);
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
