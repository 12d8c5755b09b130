/**
 * The alignment of a compared pair in the 'Findings' panel: whether the captures are aligned
 * (and how: one frame, 3 points, or the change map's registration accepted in the 'Changes'
 * panel, with their RMS error). Without an alignment an admin may
 * declare 'Same frame' or 'Align with 3 points': pick 3 points in the model's viewport and the
 * same 3, in the same order, in the reference's (the viewports' pick mode: a click, or P at the
 * view's centre), see the RMS error, and save. Admins remove an alignment; users only read its state.
 */
import { useMemo } from 'react';
import { formatPoint } from '@shared/annotations.js';
import type { Alignment, Model } from '@shared/types.js';
import type { AlignmentWrites } from '../api/alignments.js';
import { formatRms, solvePicks, type AlignmentPicks, type CompareSide } from '../lib/compare-pair.js';

/** The alignment of the pair: its state, and for admins the buttons to align, save or remove. */
export function AlignmentState({
  alignment,
  admin,
  busy,
  reference,
  writes,
  aligning,
  onAligning,
  run,
}: {
  alignment: Alignment | null | undefined;
  admin: boolean;
  busy: boolean;
  reference: Model;
  writes: AlignmentWrites;
  aligning: AlignmentPicks | null;
  onAligning: (next: AlignmentPicks | null) => void;
  run: (what: () => Promise<string>) => Promise<void>;
}) {
  const unitsPerMetre = reference.metadata?.unitsPerMetre ?? null;
  // The solve of the picked pairs, once both sides have 3 points.
  const solved = useMemo(() => solvePicks(aligning), [aligning]);

  if (alignment === undefined) return <p className="compare-findings-muted">Checking whether the captures are aligned…</p>;

  if (aligning) {
    const undo = (side: CompareSide) => onAligning({ ...aligning, [side]: aligning[side].slice(0, -1) });
    return (
      <div className="compare-align" data-testid="compare-align">
        <h3 className="compare-findings-subtitle">Align with 3 points</h3>
        <p className="compare-findings-muted">
          Click 3 points on the model (left), then the same 3 points in the same order on the reference model (right). P picks the point at
          the centre of a view.
        </p>
        {(['model', 'reference'] as const).map((side) => (
          <div key={side} className="compare-align-side">
            <p className="compare-align-count" data-testid={`align-count-${side}`}>
              {side === 'model' ? 'Model' : 'Reference model'}: {aligning[side].length} of 3 points
            </p>
            <ol className="compare-align-points">
              {aligning[side].map((point, i) => (
                <li key={i} className="mono">
                  {formatPoint(point)}
                </li>
              ))}
            </ol>
            {aligning[side].length > 0 ? (
              <button type="button" onClick={() => undo(side)}>
                {side === 'model' ? 'Undo last model point' : 'Undo last reference point'}
              </button>
            ) : null}
          </div>
        ))}
        <div role="status" className="compare-align-result" data-testid="align-result">
          {solved?.result ? `RMS error: ${formatRms(solved.result.rmsError, unitsPerMetre)}` : null}
        </div>
        <div role="alert" className="compare-findings-alerts">
          {solved?.error ? <p className="compare-findings-error">{solved.error}</p> : null}
        </div>
        <div className="compare-align-actions">
          <button
            type="button"
            aria-disabled={!solved?.result || busy || undefined}
            onClick={() => {
              if (!solved?.result || busy) return;
              const pairs = solved.pairs;
              void run(async () => {
                const saved = await writes.saveThreePoint(pairs);
                onAligning(null);
                return `Alignment saved (RMS error ${formatRms(saved.rmsError, unitsPerMetre)}).`;
              });
            }}
          >
            Save alignment
          </button>
          <button type="button" onClick={() => onAligning(null)}>
            Cancel
          </button>
        </div>
      </div>
    );
  }

  if (alignment === null) {
    return (
      <div className="compare-align" data-testid="compare-unaligned">
        <p className="compare-unaligned">These captures are not aligned.</p>
        <p className="compare-findings-muted">
          {admin
            ? 'Declare them in one frame, or align them with 3 points picked on both, to show the reference findings on this model.'
            : 'An admin can align them to show the reference findings on this model.'}
        </p>
        {admin ? (
          <div className="compare-align-actions">
            <button
              type="button"
              aria-disabled={busy || undefined}
              title="Both captures share one coordinate frame"
              onClick={() => void run(async () => (await writes.saveSameFrame(), 'Both captures are declared in one frame.'))}
            >
              Same frame
            </button>
            <button type="button" onClick={() => onAligning({ model: [], reference: [] })}>
              Align with 3 points
            </button>
          </div>
        ) : null}
      </div>
    );
  }

  return (
    <div className="compare-align" data-testid="compare-aligned">
      <p className="compare-aligned-text">
        {alignment.method === 'same-frame'
          ? 'Aligned: both captures are in one frame.'
          : alignment.method === 'icp'
            ? `Aligned by the change map's registration (RMS error ${formatRms(alignment.rmsError, unitsPerMetre)}).`
            : `Aligned with 3 points (RMS error ${formatRms(alignment.rmsError, unitsPerMetre)}).`}{' '}
        Reference findings not yet carried over are shown on this model in green.
      </p>
      {admin ? (
        <div className="compare-align-actions">
          <button
            type="button"
            aria-disabled={busy || undefined}
            onClick={() =>
              void run(async () => {
                await writes.remove();
                return 'Alignment removed.';
              })
            }
          >
            Remove alignment
          </button>
        </div>
      ) : null}
    </div>
  );
}
