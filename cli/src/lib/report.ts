/**
 * The CLI's text rendering of a model's validation report (`ValidationReport`, shared/types.ts;
 * the portal's 'File checks' panel, portal/src/components/ui/file-checks.tsx, renders the same
 * report as HTML): printed by `catalog validate` for a folder and by `catalog models show` for a
 * stored model. Per file the check's verdict and facts — splat: Gaussians, SH degree, bounding box; GLB:
 * generator, meshes, triangles, textures, extensions, the validator's warnings; cameras: count and
 * how many have a photo; photos: count and pixel sizes — then the report's notes.
 */
import { formatBytes, formatCount, formatIsoDate, formatNumber } from '@shared/format.js';
import type { BoundingBox, FileCheckBase, ValidationReport } from '@shared/types.js';

/** Shown by `catalog models show` for a model stored before the content checks existed. */
export const NO_STORED_REPORT_MESSAGE = 'No file checks stored (uploaded before checks existed): run catalog doctor --fix';

/** A coordinate with at most 3 decimals. */
function coordinate(n: number): string {
  return String(Number(n.toFixed(3)));
}

/** '(x, y, z) to (x, y, z)' */
function formatBox(box: BoundingBox): string {
  const point = (p: readonly number[]) => `(${p.map(coordinate).join(', ')})`;
  return `${point(box.min)} to ${point(box.max)}`;
}

/** A verdict padded for the column: 'ok', 'warnings', 'REFUSED'. */
function verdictCell(verdict: FileCheckBase['verdict']): string {
  return (verdict === 'refused' ? 'REFUSED' : verdict).padEnd(9);
}

/**
 * The human text of a validation report, one line per checked file (with its problem and
 * warnings indented below), then the notes.
 * @param report the report (from `checkModelContent` or a model's stored `validation`)
 * @param options.title the first line's start (default 'File checks'); the checker and the check's
 *   day ('YYYY-MM-DD') follow it
 * @returns lines joined by '\n'
 */
export function formatValidationReport(report: ValidationReport, options: { title?: string } = {}): string {
  const lines: string[] = [`${options.title ?? 'File checks'} (${report.checker}, ${formatIsoDate(report.checkedAt)}):`];
  const row = (label: string, check: FileCheckBase, facts: string) => {
    lines.push(
      `  ${label.padEnd(8)} ${verdictCell(check.verdict)}${check.fileName} (${formatBytes(check.size)})${facts ? `: ${facts}` : ''}`,
    );
    if (check.problem) lines.push(`             ✖ ${check.problem}`);
    for (const w of check.warnings) lines.push(`             ⚠ ${w}`);
  };
  const { splat, glb, cameraMetadata, photos } = report;
  if (splat) {
    const facts =
      splat.verdict === 'refused'
        ? ''
        : [
            `${formatNumber(splat.gaussians)} Gaussians`,
            `SH degree ${splat.shDegree}`,
            splat.format === 'ply' ? `PLY ${splat.encoding ?? ''}`.trim() : '.splat',
            splat.boundingBox ? `bounding box ${formatBox(splat.boundingBox)}` : 'no bounding box',
          ].join(', ');
    row('splat', splat, facts);
  }
  if (glb) {
    const facts =
      glb.verdict === 'refused'
        ? ''
        : [
            `generator ${glb.generator ?? '(none)'}`,
            formatCount(glb.meshes, 'mesh', 'meshes'),
            `${formatNumber(glb.triangles)} triangles`,
            formatCount(glb.textures, 'texture'),
            `extensions ${glb.extensions.length > 0 ? glb.extensions.join(', ') : '(none)'}`,
            formatCount(glb.issues.warnings, 'validator warning'),
          ].join(', ');
    row('GLB', glb, facts);
  }
  if (cameraMetadata) {
    const facts =
      cameraMetadata.verdict === 'refused'
        ? ''
        : `${formatNumber(cameraMetadata.cameras)} cameras, ${formatNumber(cameraMetadata.withPhoto)} with a photo`;
    row('cameras', cameraMetadata, facts);
  }
  if (photos) {
    const sizes = photos.dimensions.map((d) => `${d.width}×${d.height}${photos.dimensions.length > 1 ? ` (${d.count})` : ''}`);
    lines.push(
      `  ${'photos'.padEnd(8)} ${verdictCell(photos.verdict)}${formatCount(photos.count, 'photo')} (${formatBytes(photos.bytes)})${sizes.length > 0 ? `: ${sizes.join(', ')}` : ''}`,
    );
    for (const r of photos.refused) lines.push(`             ✖ ${r.problem || r.fileName}`);
  }
  if (!splat && !glb && !cameraMetadata && !photos) lines.push('  (no files checked)');
  for (const note of report.notes) lines.push(`  note: ${note}`);
  return lines.join('\n');
}
