/**
 * The 'Changes' panel in jsdom: the legend in metres with the capture's scale (as text too), the
 * threshold slider labelled and reporting its value, the regions with their fly-to buttons, the
 * out-of-date note only when there is a reason, and the message for large captures (regions still
 * listed). The page's toggle, the colours and the flights are in viewer-page.test.tsx.
 */
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ChangeMapRecord } from '@shared/types.js';
import { changeColour, changeScaleMax, formatChangeDistance, regionCentreInCapture } from '../lib/change-colours.js';
import { ChangesPanel, type ChangesPanelProps } from './changes-panel.js';

afterEach(cleanup);

const map: ChangeMapRecord = {
  id: 'ref__cap',
  referenceModelId: 'ref',
  modelId: 'cap',
  projectId: 'p1',
  valuesPath: 'models/cap/changes/ref.bin',
  inputs: { modelFile: 'a', referenceFile: 'b', alignment: null },
  registration: { matrix: [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1], rmsError: 0.01, iterations: 3, pairs: 10 },
  levelOfDetection: 0.02,
  pointCount: 1000,
  referencePointCount: 1000,
  histogram: { min: -0.3, max: 0.3, counts: [1, 1] },
  regions: [
    { id: 1, side: 'capture', centroid: [1, 2, 3], min: [0, 1, 2], max: [2, 3, 4], count: 120, meanDistance: 0.25, maxDistance: 0.3 },
  ],
  computed_by: 'cli',
};

function props(overrides: Partial<ChangesPanelProps> = {}): ChangesPanelProps {
  return {
    changeMap: { map, outOfDate: null },
    unitsPerMetre: 1,
    threshold: 0.02,
    scaleMax: 0.3,
    onThreshold: vi.fn(),
    colouring: 'shown',
    valuesError: null,
    onFlyTo: vi.fn(),
    ...overrides,
  };
}

describe('ChangesPanel', () => {
  it('reads the legend, the threshold and the regions in metres with the scale; no out-of-date note while current', () => {
    const onThreshold = vi.fn();
    const onFlyTo = vi.fn();
    render(<ChangesPanel {...props({ onThreshold, onFlyTo, unitsPerMetre: 10, threshold: 0.2, scaleMax: 3 })} />);
    const panel = screen.getByRole('region', { name: 'Changes' });
    expect(within(panel).getByTestId('changes-legend').textContent).toContain(
      'Blue: inside the reference surface (down to −0.3 m and beyond); grey: within ±0.02 m (unchanged); red: outside it (up to +0.3 m and beyond).',
    );
    expect(within(panel).queryByText(/no scale/)).toBeNull();
    const slider = within(panel).getByRole('slider', { name: 'Threshold: 0.02 m (level of detection 0.002 m)' });
    expect(slider.getAttribute('aria-valuetext')).toBe('0.02 m');
    fireEvent.change(slider, { target: { value: '0.5' } });
    expect(onThreshold).toHaveBeenCalledWith(0.5);
    expect(screen.queryByTestId('changes-out-of-date')).toBeNull();
    const [region] = within(panel).getAllByTestId('change-region');
    expect(region!.textContent).toMatch(/^1\. Added or moved: 120 Gaussians, mean \+0.025 m,\s+max \+0.03 m, centre \(1, 2, 3\)/);
    fireEvent.click(within(region!).getByRole('button', { name: 'Fly to region 1' }));
    expect(onFlyTo).toHaveBeenCalledWith(map.regions[0]);
  });

  it('says when the map is out of date, and that large captures are not coloured yet (the regions still listed)', () => {
    render(
      <ChangesPanel
        {...props({ changeMap: { map, outOfDate: 'The alignment changed since this change map was computed' }, colouring: 'large' })}
      />,
    );
    expect(screen.getByTestId('changes-out-of-date').textContent).toBe(
      'Out of date: The alignment changed since this change map was computed. Compute the change map again to bring it up to date.',
    );
    expect(screen.getByRole('status').textContent).toMatch(/^Colouring is not available for large captures yet/);
    expect(screen.getAllByTestId('change-region')).toHaveLength(1);
  });
});

describe('change colours', () => {
  it('greys within the threshold and unmeasured values, reds positive and blues negative, clamped at the end', () => {
    expect(changeColour(0.01, 0.02, 0.3)).toEqual([150, 150, 150]);
    expect(changeColour(-0.01, 0.02, 0.3)).toEqual([150, 150, 150]);
    expect(changeColour(Number.NaN, 0.02, 0.3)).toEqual([80, 80, 80]);
    expect(changeColour(0.3, 0.02, 0.3)).toEqual([230, 30, 30]);
    expect(changeColour(5, 0.02, 0.3)).toEqual([230, 30, 30]);
    expect(changeColour(-5, 0.02, 0.3)).toEqual([30, 90, 235]);
    const small = changeColour(0.03, 0.02, 0.3);
    expect(small[0]).toBeGreaterThan(small[2] + 40);
    expect(small[0]).toBeLessThan(230);
  });

  it('scales to the largest region distance, formats metres or model units, and carries a centre back into the capture', () => {
    expect(changeScaleMax(map)).toBe(0.3);
    expect(changeScaleMax({ ...map, regions: [], histogram: { min: -0.7, max: 0.1, counts: [1] } })).toBe(0.7);
    expect(formatChangeDistance(-0.25, null)).toBe('−0.25 model units');
    expect(formatChangeDistance(0.25, 2, true)).toBe('+0.125 m');
    // capture → reference moves +1 in x: the reference-frame centroid (1, 2, 3) is (0, 2, 3) in the capture.
    expect(regionCentreInCapture(map.regions[0]!, [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 1, 0, 0, 1])).toEqual({ x: 0, y: 2, z: 3 });
  });
});
