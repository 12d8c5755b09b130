/**
 * What `catalog findings list` and `export` share: the scope they read (one model, or every
 * model of a project), the `[model] [--project]` arguments, and the findings rendered as a
 * table, JSON or CSV. The rows, their order and the CSV are the portal report's (`findingRows`,
 * `findingsCsv` of `shared/annotations.ts`). A malformed stored finding never fails a command:
 * the table and the CSV show what it has, the JSON is the stored findings exactly; the table's
 * cells are made terminal-safe by `formatTable`.
 */
import { Command } from 'commander';
import { z } from 'zod';
import { findingModelFacts, findingRows, findingsCsv } from '@shared/annotations.js';
import type { FindingRow } from '@shared/annotations.js';
import type { Backend } from '@shared/ports/index.js';
import type { Annotation, Model } from '@shared/types.js';
import { listModelAnnotations, listProjectAnnotations } from '@shared/workflows/index.js';
import { backendOptionsShape } from '../../lib/backend.js';
import { findModelRef, findProject } from '../../lib/lookup.js';
import { formatTable, usageError } from '../../lib/output.js';

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
    const references = await changeRegionReferences(backend, annotations);
    return {
      kind: 'model',
      id: found.id,
      label: found.publicId,
      annotations,
      rows: findingRows(annotations, findingModelFacts([found, ...references])),
    };
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

/**
 * The reference models named by the findings' change regions (the table names each region's
 * reference); one that is gone or cannot be read is left out (the row then shows its id).
 */
async function changeRegionReferences(backend: Pick<Backend, 'catalog'>, annotations: readonly Annotation[]): Promise<Model[]> {
  // (as stored: a malformed one names nothing)
  const named = annotations.map((a) => (a.changeRegion as { referenceModelId?: unknown } | null | undefined)?.referenceModelId);
  const ids = [...new Set(named.filter((id): id is string => typeof id === 'string' && id !== ''))];
  const models = await Promise.all(ids.map((id) => backend.catalog.get('models', id).catch(() => null)));
  return models.filter((m): m is Model => m !== null);
}

/**
 * The findings table for human output ('No findings' when empty; '-' for an empty cell; a finding
 * made from a change region names it in the measurement column).
 */
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
      r.measurement || r.changeRegion || '-',
      r.id,
    ]),
  );
}

/**
 * The findings as `--format` asks: JSON (the stored findings, exactly, with a final newline), CSV
 * (the report's table) or a table.
 * @param scope the findings read by {@link readFindings}
 * @param format 'json', 'csv' or 'table'
 * @returns the text, and `data` marking the two data formats for the output wrapper (printed byte
 *   for byte); no `data` for the table
 */
export function renderFindings(scope: FindingsScope, format: 'json' | 'csv' | 'table'): { text: string; data?: 'json' | 'csv' } {
  if (format === 'json') return { text: `${JSON.stringify(scope.annotations, null, 2)}\n`, data: 'json' };
  if (format === 'csv') return { text: findingsCsv(scope.rows), data: 'csv' };
  return { text: findingsTable(scope.rows) };
}

/** `[model] [--project <project>]` and the backend options: the schema fields of both subcommands. */
export const scopeShape = { model: z.string().optional(), project: z.string().optional(), ...backendOptionsShape };

/**
 * A subcommand with the `[model]` argument and the `--project <project>` option.
 * @param name the subcommand's name
 * @param description its one-line description
 * @returns the new command, for more options
 */
export function scopeCommand(name: string, description: string): Command {
  return new Command(name)
    .description(description)
    .argument('[model]', 'model id, or public ID (omit it and give --project for a whole project)')
    .option('--project <project>', "project (id, structure ID or slug): the public ID's project, or without a model every model of it");
}
