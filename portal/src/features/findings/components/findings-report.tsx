/**
 * The per-project findings report: a table of the findings on the project's
 * models the user can open (`findingRows`: model, capture date, title, category, severity,
 * status, measurement or the change region it was made from), filters by category, status and
 * minimum severity, each finding linking
 * to the viewer at its model, 'Export CSV' (`findingsCsv` of the rows shown, as
 * `{structure_id}-findings.csv`) and 'Print' (the print stylesheet in findings.css prints the
 * table without the shell).
 */
import { useId, useMemo, useState } from 'react';
import { Link } from 'react-router-dom';
import {
  ANNOTATION_CATEGORIES,
  ANNOTATION_SEVERITIES,
  ANNOTATION_STATUSES,
  CATEGORY_LABELS,
  SEVERITY_LABELS,
  STATUS_LABELS,
  findingModelFacts,
  severityLabel,
  findingRows,
  findingsCsv,
  readableFinding,
  type FindingRow,
} from '@shared/annotations.js';
import { formatCount, formatDate } from '@shared/format.js';
import { findingLink } from '@shared/links.js';
import type { Annotation, AnnotationCategory, AnnotationStatus, Model, Project } from '@shared/types.js';
import { EmptyState } from '../../../components/ui/empty-state.js';
import '../../../components/ui/forms.css';
import { LoadingState } from '../../../components/ui/spinner.js';
import { paths } from '../../../config/paths.js';
import type { Resource } from '../../../lib/resource.js';
import { useProjectFindings } from '../api/use-project-findings.js';
import { downloadText, findingsFileName } from '../lib/download.js';
import '../findings.css';

/** The report's filters: '' is "all". */
export interface FindingsFilter {
  category: AnnotationCategory | '';
  status: AnnotationStatus | '';
  /** Lowest severity shown, 1 shows all. */
  minSeverity: number;
}

/** No filter: every finding. */
export const NO_FILTER: FindingsFilter = { category: '', status: '', minSeverity: 1 };

/**
 * The findings a filter keeps. No filter keeps every finding, also one whose stored category,
 * status or severity is not a known one.
 * @param annotations the findings
 * @param filter category ('' all), status ('' all), lowest severity (1 or less: all)
 */
export function filterFindings(annotations: readonly Annotation[], filter: FindingsFilter): Annotation[] {
  return annotations.filter(
    (a) =>
      (filter.category === '' || a.category === filter.category) &&
      (filter.status === '' || a.status === filter.status) &&
      (filter.minSeverity <= 1 || a.severity >= filter.minSeverity),
  );
}

/** What the report shows and does; {@link ProjectFindingsReport} reads the findings for it. */
export interface FindingsReportProps {
  project: Project;
  /** The project's models the user can open. */
  models: readonly Model[];
  findings: Resource<Annotation[]>;
  /** The viewer base URL (null while the runtime config loads: the rows have no link yet). */
  viewerUrl: string | null;
  /** Starts the browser's print (default `window.print`). */
  print?: () => void;
  /** Saves the CSV (default {@link downloadText}). */
  download?: (fileName: string, text: string, type: string) => void;
}

function Select<T extends string | number>({
  label,
  value,
  options,
  onChange,
}: {
  label: string;
  value: T;
  options: ReadonlyArray<readonly [T, string]>;
  onChange: (value: string) => void;
}) {
  const id = useId();
  return (
    <div className="field findings-filter">
      <label htmlFor={id}>{label}</label>
      <select id={id} value={value} onChange={(e) => onChange(e.target.value)}>
        {options.map(([option, text]) => (
          <option key={option} value={option}>
            {text}
          </option>
        ))}
      </select>
    </div>
  );
}

function FindingsTable({ project, rows, viewerUrl }: { project: Project; rows: readonly FindingRow[]; viewerUrl: string | null }) {
  return (
    <div className="findings-table-scroll">
      <table className="table findings-table" data-testid="findings-table">
        <caption className="visually-hidden">Findings of {project.name}</caption>
        <thead>
          <tr>
            <th scope="col">Finding</th>
            <th scope="col">Model</th>
            <th scope="col">Capture Date</th>
            <th scope="col">Title</th>
            <th scope="col">Category</th>
            <th scope="col">Severity</th>
            <th scope="col">Status</th>
            <th scope="col">Measurement</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.id} data-testid="finding-row" data-finding-id={row.id}>
              <th scope="row">
                {viewerUrl !== null && row.publicId !== '' ? (
                  <a
                    href={findingLink(viewerUrl, row.publicId, row.seq)}
                    aria-label={`${row.number}, ${row.modelName}: open in the viewer`}
                  >
                    {row.number}
                  </a>
                ) : (
                  row.number
                )}
              </th>
              <td>
                {row.modelName}
                {row.publicId ? <span className="findings-public-id mono">{row.publicId}</span> : null}
              </td>
              <td className="findings-date">{formatDate(row.captureDate)}</td>
              <td className="findings-title">
                {row.title}
                {row.followUpOf ? <span className="findings-follow-up muted">Follow-up</span> : null}
              </td>
              <td>{row.category}</td>
              <td>
                {row.severity === null ? (
                  '—'
                ) : (
                  <span className={`findings-severity findings-severity-${row.severity}`}>{severityLabel(row.severity)}</span>
                )}
              </td>
              <td>{row.status}</td>
              <td>{[row.measurement, row.changeRegion].filter((text) => text !== '').join('; ') || '—'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The report screen's content for a loaded project (see the module comment). */
export function FindingsReport({ project, models, findings, viewerUrl, print, download }: FindingsReportProps) {
  const [filter, setFilter] = useState<FindingsFilter>(NO_FILTER);
  // Read through readableFinding: a malformed stored finding is listed with what it has.
  const all = useMemo(() => (findings.status === 'success' ? findings.data.map(readableFinding) : null), [findings]);
  const facts = useMemo(() => findingModelFacts(models), [models]);
  const rows = useMemo(() => (all === null ? [] : findingRows(filterFindings(all, filter), facts)), [all, filter, facts]);
  const filtered = filter.category !== '' || filter.status !== '' || filter.minSeverity > 1;

  return (
    <div className="findings-report" data-testid="findings-report">
      <nav className="breadcrumb" aria-label="Breadcrumb">
        <Link to={paths.projects.getHref()}>Projects</Link>
        <span aria-hidden="true"> / </span>
        <Link to={paths.project.getHref(project.id)}>{project.name}</Link>
        <span aria-hidden="true"> / </span>
        <span aria-current="page">Findings</span>
      </nav>
      <header className="page-header">
        <div>
          <h1 className="page-title">Findings report</h1>
          <p className="muted">
            {project.name} · Structure ID: <strong>{project.structure_id || 'Not set'}</strong> · {formatCount(models.length, 'model')}
          </p>
        </div>
        <div className="actions findings-actions">
          <button
            type="button"
            className="button button-secondary"
            disabled={all === null}
            onClick={() => (download ?? downloadText)(findingsFileName(project), findingsCsv(rows), 'text/csv;charset=utf-8')}
          >
            Export CSV
          </button>
          <button type="button" className="button button-secondary" onClick={() => (print ?? (() => window.print()))()}>
            Print
          </button>
        </div>
      </header>
      {findings.status === 'loading' ? <LoadingState label="Loading findings..." /> : null}
      {findings.status === 'error' ? <p className="alert alert-error">Failed to load findings. Please try again.</p> : null}
      {all !== null && all.length === 0 ? (
        <EmptyState title="No findings yet" text="Findings marked in the viewer on this project's models are listed here." />
      ) : null}
      {all !== null && all.length > 0 ? (
        <section className="panel" aria-labelledby="findings-table-title">
          <div className="panel-head">
            <h2 className="panel-title" id="findings-table-title">
              Findings ({all.length})
            </h2>
          </div>
          <div className="findings-filters" role="group" aria-label="Filter findings">
            <Select
              label="Category"
              value={filter.category}
              options={[['', 'All categories'], ...ANNOTATION_CATEGORIES.map((c) => [c, CATEGORY_LABELS[c]] as const)]}
              onChange={(category) => setFilter({ ...filter, category: category as FindingsFilter['category'] })}
            />
            <Select
              label="Status"
              value={filter.status}
              options={[['', 'All statuses'], ...ANNOTATION_STATUSES.map((s) => [s, STATUS_LABELS[s]] as const)]}
              onChange={(status) => setFilter({ ...filter, status: status as FindingsFilter['status'] })}
            />
            <Select
              label="Minimum severity"
              value={filter.minSeverity}
              options={ANNOTATION_SEVERITIES.map((s) => [s, s === 1 ? 'Any severity' : `${SEVERITY_LABELS[s]} or higher`] as const)}
              onChange={(minSeverity) => setFilter({ ...filter, minSeverity: Number(minSeverity) })}
            />
            <p className="muted findings-count" role="status">
              {filtered
                ? `Showing ${rows.length} of ${formatCount(all.length, 'finding')}`
                : `Showing ${formatCount(all.length, 'finding')}`}
            </p>
          </div>
          {rows.length === 0 ? (
            <p className="muted">No findings match these filters.</p>
          ) : (
            <FindingsTable project={project} rows={rows} viewerUrl={viewerUrl} />
          )}
        </section>
      ) : null}
    </div>
  );
}

/** {@link FindingsReport} with the findings of `models` read through {@link useProjectFindings}. */
export function ProjectFindingsReport(props: Omit<FindingsReportProps, 'findings'>) {
  const findings = useProjectFindings(props.models);
  return <FindingsReport {...props} findings={findings} />;
}
