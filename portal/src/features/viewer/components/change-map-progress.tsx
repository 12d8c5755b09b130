/**
 * The server's job for a capture's change map, as the 'Changes' panel shows it at its top: a
 * polite live region that says the map is waiting or being computed (with how far, in per cent,
 * and a progress bar), why it could not be computed, or why the capture has none. Once a job is
 * known the region stays in the panel, empty while there is nothing to say (the job done), so
 * that what it says next is announced. While a capture's first map is computed, the panel is
 * this line alone under its title ({@link ChangeMapProgressPanel}).
 */
import { useId } from 'react';
import type { ChangeMapJob } from '@shared/ports/index.js';
import './change-map-progress.css';

/** What the panel says of a job (empty when there is nothing to say: done, or no job). */
export function changeMapJobText(job: ChangeMapJob | null): string {
  if (job === null) return '';
  switch (job.state) {
    case 'queued':
      return 'Computing the change map… waiting for the captures before it.';
    case 'computing':
      return `Computing the change map… ${Math.round(job.fraction * 100)} %`;
    case 'failed':
      return `The change map could not be computed: ${job.message ?? 'unknown error'}`;
    case 'skipped':
      return `No change map: ${job.message ?? 'nothing to compare'}`;
    case 'done':
      return '';
  }
}

/** The job's line (role=status) and, while it computes, its progress bar. */
export function ChangeMapProgress({ job }: { job: ChangeMapJob | null }) {
  const text = changeMapJobText(job);
  const state = job?.state ?? 'none';
  return (
    <div className="change-map-progress" data-testid="change-map-progress" data-state={state}>
      <p className={`change-map-progress-text${state === 'failed' ? ' change-map-progress-failed' : ''}`} role="status">
        {text}
      </p>
      {job?.state === 'computing' || job?.state === 'queued' ? (
        <progress className="change-map-progress-bar" aria-label="Change map progress" max={1} value={job.fraction} />
      ) : null}
    </div>
  );
}

/** The 'Changes' panel before the capture has a map: its title and the job's line (`className`: the panel's layout, as the map's panel). */
export function ChangeMapProgressPanel({ job, className = 'changes-panel' }: { job: ChangeMapJob | null; className?: string }) {
  const titleId = useId();
  return (
    <section className={className} aria-labelledby={titleId} data-testid="changes-panel">
      <h2 id={titleId} className="changes-title">
        Changes
      </h2>
      <ChangeMapProgress job={job} />
    </section>
  );
}
