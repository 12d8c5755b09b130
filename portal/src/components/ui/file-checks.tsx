/**
 * The 'File checks' panel: a model's stored validation report (`ValidationReport`,
 * shared/types.ts), per checked file its verdict and facts — splat: Gaussians, SH degree,
 * bounding box; GLB: generator, meshes, triangles, textures, extensions, validator warnings;
 * camera metadata: cameras and how many have a photo; photos: count and pixel sizes — then the
 * report's notes. Shown on the project detail's model entries (as a disclosure) and in Model
 * Management.
 */
import type { ReactNode } from 'react';
import { formatBytes, formatDateTimeLocal, formatNumber } from '@shared/format.js';
import type { BoundingBox, FileCheckBase, FileCheckVerdict, ValidationReport } from '@shared/types.js';
import { Badge, type BadgeTone } from './badge.js';
import './file-checks.css';

/** Shown when a model has no stored report (uploaded before the checks existed). */
export const NO_FILE_CHECKS_TEXT = 'No file checks stored for this model.';

/** A coordinate with at most 2 decimals. */
function coordinate(n: number): string {
  return String(Number(n.toFixed(2)));
}

/** '(x, y, z) to (x, y, z)'. */
export function formatBoundingBox(box: BoundingBox): string {
  const point = (p: readonly number[]) => `(${p.map(coordinate).join(', ')})`;
  return `${point(box.min)} to ${point(box.max)}`;
}

/** '304 cameras, 5 with a photo'. */
export function formatCameras(cameras: number, withPhoto: number): string {
  return `${formatNumber(cameras)} ${cameras === 1 ? 'camera' : 'cameras'}, ${formatNumber(withPhoto)} with a photo`;
}

/** '5 photos, 531 × 946' (several sizes: '531 × 946 (4), 640 × 480 (1)'). */
export function formatPhotos(count: number, dimensions: ReadonlyArray<{ width: number; height: number; count: number }>): string {
  const sizes = dimensions.map((d) => `${d.width} × ${d.height}${dimensions.length > 1 ? ` (${d.count})` : ''}`);
  const head = `${formatNumber(count)} ${count === 1 ? 'photo' : 'photos'}`;
  return sizes.length > 0 ? `${head}, ${sizes.join(', ')}` : head;
}

const VERDICTS: Record<FileCheckVerdict, { text: string; tone: BadgeTone }> = {
  ok: { text: 'OK', tone: 'green' },
  warnings: { text: 'Warnings', tone: 'amber' },
  refused: { text: 'Refused', tone: 'orange' },
};

function Verdict({ verdict }: { verdict: FileCheckVerdict }) {
  const { text, tone } = VERDICTS[verdict];
  return <Badge tone={tone}>{text}</Badge>;
}

/** One checked file: its label, verdict, name and size, facts, problem and warnings. */
function CheckRow({
  label,
  check,
  facts,
  testId,
}: {
  label: string;
  check: Pick<FileCheckBase, 'verdict' | 'problem' | 'warnings'> & { fileName?: string; size?: number };
  /** Term, value, and whether the fact spans the whole row (long values). */
  facts: Array<[string, ReactNode, boolean?]>;
  testId: string;
}) {
  return (
    <section className="file-check" data-testid={testId} aria-label={label}>
      <div className="file-check-head">
        <h4 className="file-check-title">{label}</h4>
        <Verdict verdict={check.verdict} />
        {check.fileName !== undefined ? (
          <span className="muted small file-check-file">
            {check.fileName}
            {check.size !== undefined ? `, ${formatBytes(check.size)}` : ''}
          </span>
        ) : null}
      </div>
      {check.problem ? <p className="file-check-problem">{check.problem}</p> : null}
      {facts.length > 0 ? (
        <dl className="file-check-facts">
          {facts.map(([term, value, wide]) => (
            <div key={term} className={wide ? 'file-check-fact-wide' : undefined}>
              <dt>{term}</dt>
              <dd>{value}</dd>
            </div>
          ))}
        </dl>
      ) : null}
      {check.warnings.length > 0 ? (
        <ul className="file-check-warnings" aria-label={`${label} warnings`}>
          {check.warnings.map((warning, i) => (
            <li key={i}>{warning}</li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}

/** The report's rows and notes. */
function ReportBody({ report }: { report: ValidationReport }) {
  const { splat, glb, cameraMetadata, photos } = report;
  const empty = !splat && !glb && !cameraMetadata && !photos;
  return (
    <>
      {splat ? (
        <CheckRow
          label="Splat"
          testId="file-check-splat"
          check={splat}
          facts={
            splat.verdict === 'refused'
              ? []
              : [
                  ['Gaussians', formatNumber(splat.gaussians)],
                  ['SH degree', String(splat.shDegree)],
                  ['Format', splat.format === 'ply' ? `PLY${splat.encoding ? ` (${splat.encoding})` : ''}` : '.splat'],
                  ['Bounding box', splat.boundingBox ? formatBoundingBox(splat.boundingBox) : 'none', true],
                ]
          }
        />
      ) : null}
      {glb ? (
        <CheckRow
          label="GLB"
          testId="file-check-glb"
          check={glb}
          facts={
            glb.verdict === 'refused'
              ? []
              : [
                  ['Generator', glb.generator ?? '(none)'],
                  ['Meshes', formatNumber(glb.meshes)],
                  ['Triangles', formatNumber(glb.triangles)],
                  ['Textures', formatNumber(glb.textures)],
                  ['Extensions', glb.extensions.length > 0 ? glb.extensions.join(', ') : '(none)', glb.extensions.length > 1],
                  ['Validator warnings', formatNumber(glb.issues.warnings)],
                ]
          }
        />
      ) : null}
      {cameraMetadata ? (
        <CheckRow
          label="Camera metadata"
          testId="file-check-cameras"
          check={cameraMetadata}
          facts={cameraMetadata.verdict === 'refused' ? [] : [['Cameras', formatCameras(cameraMetadata.cameras, cameraMetadata.withPhoto)]]}
        />
      ) : null}
      {photos ? (
        <CheckRow
          label="Photos"
          testId="file-check-photos"
          check={{ verdict: photos.verdict, problem: null, warnings: photos.refused.map((r) => r.problem || r.fileName) }}
          facts={[
            ['Photos', formatPhotos(photos.count, photos.dimensions)],
            ['Total size', formatBytes(photos.bytes)],
          ]}
        />
      ) : null}
      {empty ? <p className="muted small">No files were checked.</p> : null}
      {report.notes.length > 0 ? (
        <ul className="file-check-notes" aria-label="Notes">
          {report.notes.map((note, i) => (
            <li key={i}>{note}</li>
          ))}
        </ul>
      ) : null}
      <p className="muted small file-check-meta">
        Checked {formatDateTimeLocal(report.checkedAt)} by {report.checker}
      </p>
    </>
  );
}

export interface FileChecksProps {
  /** The model's stored report (`model.validation`); missing for models stored before the checks. */
  report: ValidationReport | null | undefined;
  /** A closed disclosure ('File checks' summary) instead of a titled panel. */
  collapsible?: boolean;
}

/** The 'File checks' panel of one model. */
export function FileChecks({ report, collapsible = false }: FileChecksProps) {
  const body = report ? <ReportBody report={report} /> : <p className="muted small">{NO_FILE_CHECKS_TEXT}</p>;
  if (collapsible) {
    return (
      <details className="file-checks file-checks-disclosure" data-testid="file-checks">
        <summary>File checks</summary>
        {body}
      </details>
    );
  }
  return (
    <section className="panel file-checks" aria-label="File checks" data-testid="file-checks">
      <h3 className="panel-title">File checks</h3>
      {body}
    </section>
  );
}
