/**
 * The server's change-map job at the top of the 'Changes' panel, in jsdom: waiting and computing
 * (the per cent in a status line, a labelled progress bar), the failure's reason, the skipped
 * reason, and nothing to say once done; the panel shows it above the map, and alone (with its
 * title) while the first map of a capture is being computed.
 */
import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ChangeMapJob } from '@shared/ports/index.js';
import { ChangeMapProgress, changeMapJobText } from './change-map-progress.js';
import { ChangesPanel } from './changes-panel.js';

afterEach(cleanup);

const job = (change: Partial<ChangeMapJob>): ChangeMapJob => ({
  modelId: 'cap',
  referenceModelId: 'ref',
  state: 'computing',
  fraction: 0.4,
  message: null,
  computations: 0,
  updated_at: '2026-01-01T00:00:00.000Z',
  ...change,
});

describe('ChangeMapProgress', () => {
  it('says how far the computation is, with a progress bar', () => {
    render(<ChangeMapProgress job={job({ fraction: 0.4 })} />);
    expect(screen.getByRole('status').textContent).toBe('Computing the change map… 40 %');
    const bar = screen.getByRole('progressbar', { name: 'Change map progress' });
    expect((bar as HTMLProgressElement).value).toBeCloseTo(0.4);
  });

  it('says a queued job waits, why one failed or was skipped, and nothing once done', () => {
    expect(changeMapJobText(job({ state: 'queued', fraction: 0 }))).toBe('Computing the change map… waiting for the captures before it.');
    const { rerender } = render(
      <ChangeMapProgress job={job({ state: 'failed', message: 'Cannot read the capture model.ply: there is no such file' })} />,
    );
    expect(screen.getByRole('status').textContent).toBe(
      'The change map could not be computed: Cannot read the capture model.ply: there is no such file',
    );
    expect(screen.queryByRole('progressbar')).toBeNull();
    rerender(<ChangeMapProgress job={job({ state: 'skipped', message: 'M-1 has no splat file' })} />);
    expect(screen.getByRole('status').textContent).toBe('No change map: M-1 has no splat file');
    // the same live region, emptied: what it says next is announced
    rerender(<ChangeMapProgress job={job({ state: 'done', fraction: 1 })} />);
    expect(screen.getByRole('status').textContent).toBe('');
    expect(changeMapJobText(null)).toBe('');
  });

  it('stands alone in the panel while the first map is computed', () => {
    render(
      <ChangesPanel
        changeMap={null}
        job={job({ fraction: 0.95 })}
        unitsPerMetre={1}
        threshold={0}
        scaleMax={1}
        onThreshold={vi.fn()}
        colouring="loading"
        valuesError={null}
      />,
    );
    const panel = screen.getByRole('region', { name: 'Changes' });
    expect(within(panel).getByRole('status').textContent).toBe('Computing the change map… 95 %');
    expect(within(panel).queryByRole('slider')).toBeNull();
  });
});
