/**
 * The per-project summary of the embedded document store (model counts and each project's
 * reference thumbnail), computed in SQL over the stored models and projects.
 */
import type { ProjectSummary } from '@shared/ports/catalog.js';
import { sortModelsByPublicId } from '@shared/order.js';
import { thumbnailPathOf } from '@shared/projects.js';
import { UNRESTRICTED_SCOPE } from '@shared/rules/document-rules.js';
import type { ReadScope } from '@shared/rules/document-rules.js';
import type { ModelData } from '@shared/types.js';
import type { SqliteDatabase } from '../db.js';

/**
 * The summary of every project ({@link ProjectSummary}): one SQL query over the models grouped
 * by project (the counts), one over the projects with the model each names as its reference (a
 * primary-key lookup per project), both with the visibility rule of the other reads
 * (`hideHidden`: hidden models neither counted nor used as the reference). The reference is the model named by the project's `reference_model_id` when
 * it belongs to the project (and is readable), else the first in publicId order of the
 * project's readable models flagged `isReference` (read by a second, small query only for
 * projects that need it); its thumbnail is the first of `files.thumbnails` when that is a
 * non-empty text.
 * @param db the open catalog database
 * @param scope the caller's scope for models (`readScope(principal, 'models')`)
 * @returns one summary per project, ordered by project id
 */
export function projectSummaries(db: SqliteDatabase, scope: ReadScope = UNRESTRICTED_SCOPE): ProjectSummary[] {
  const visible = (alias: string): string => (scope.hideHidden ? ` AND json_type(${alias}.data, '$.visible') IS NOT 'false'` : '');
  // One pass over the models, grouped by project (read from the projectId index; the data only for the visibility and flag).
  const grouped = db
    .prepare(
      `SELECT json_extract(m.data, '$.projectId') AS projectId, COUNT(*) AS modelCount,
              SUM(json_type(m.data, '$.isReference') = 'true') AS flagged
       FROM documents AS m
       WHERE m.collection = 'models' AND json_type(m.data, '$.projectId') = 'text'${visible('m')}
       GROUP BY json_extract(m.data, '$.projectId')`,
    )
    .all() as { projectId: string; modelCount: number; flagged: number }[];
  const byProject = new Map(grouped.map((row) => [row.projectId, row]));
  // Every project with the model its reference_model_id names (a primary-key lookup), when it belongs to the project and is readable.
  const projects = db
    .prepare(
      `SELECT p.id AS projectId, r.id AS referenceId,
              CASE WHEN json_type(r.data, '$.files.thumbnails[0]') = 'text' AND json_extract(r.data, '$.files.thumbnails[0]') <> ''
                   THEN json_extract(r.data, '$.files.thumbnails[0]') END AS referenceThumbnail
       FROM documents AS p
       LEFT JOIN documents AS r
         ON r.collection = 'models' AND r.id = json_extract(p.data, '$.reference_model_id')
        AND json_type(r.data, '$.projectId') = 'text' AND json_extract(r.data, '$.projectId') = p.id${visible('r')}
       WHERE p.collection = 'projects'
       ORDER BY p.id`,
    )
    .all() as { projectId: string; referenceId: string | null; referenceThumbnail: string | null }[];
  const rows = projects.map((row) => ({
    ...row,
    modelCount: byProject.get(row.projectId)?.modelCount ?? 0,
    flagged: byProject.get(row.projectId)?.flagged ?? 0,
  }));
  // Without a model named by reference_model_id, the first flagged one (rare: data written before the reference rule).
  const fallback = rows.filter((row) => row.referenceId === null && row.flagged > 0).map((row) => row.projectId);
  const flaggedThumbnails = new Map<string, string | null>();
  if (fallback.length > 0) {
    const flaggedModels = (
      db
        .prepare(
          `SELECT m.id AS id, m.data AS data FROM documents AS m
           WHERE m.collection = 'models' AND json_type(m.data, '$.isReference') = 'true'${visible('m')}
             AND json_extract(m.data, '$.projectId') IN (SELECT value FROM json_each(?))`,
        )
        .all(JSON.stringify(fallback)) as { id: string; data: string }[]
    ).map((row) => ({ ...(JSON.parse(row.data) as Pick<ModelData, 'projectId' | 'isReference' | 'files' | 'publicId'>), id: row.id }));
    for (const model of sortModelsByPublicId(flaggedModels)) {
      if (typeof model.projectId === 'string' && !flaggedThumbnails.has(model.projectId)) {
        flaggedThumbnails.set(model.projectId, thumbnailPathOf(model));
      }
    }
  }
  return rows.map((row) => ({
    projectId: row.projectId,
    modelCount: row.modelCount,
    referenceThumbnailPath: row.referenceId !== null ? row.referenceThumbnail : (flaggedThumbnails.get(row.projectId) ?? null),
  }));
}
