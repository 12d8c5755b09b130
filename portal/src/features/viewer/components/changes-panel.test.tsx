/**
 * The 'Changes' panel in jsdom: the legend in metres with the capture's scale (as text too), the
 * histogram (bars in the scale's colours, marks at ± the threshold, its ends and its text), the
 * threshold slider labelled and reporting its value, the regions with their fly-to and 'Create
 * finding' buttons (the draft a region gives the findings form), the out-of-date note only when
 * there is a reason, and the message for large captures (regions still listed). The page's
 * toggle, the colours and the flights are in viewer-page.test.tsx.
 */
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ChangeMapRecord } from '@shared/types.js';
import { changeColour, changeScaleMax, formatChangeDistance, histogramSplit, regionCentreInCapture } from '../lib/change-colours.js';
import { ChangesPanel, type ChangesPanelProps } from './changes-panel.js';
import { changeRegionDraft } from '../hooks/use-changes-tool.js';

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
    changeMap: { map, outOfDate: null, referenceName: 'Tower 2025' },
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
        {...props({
          changeMap: { map, outOfDate: 'The alignment changed since this change map was computed', referenceName: null },
          colouring: 'large',
        })}
      />,
    );
    expect(screen.getByTestId('changes-out-of-date').textContent).toBe(
      'Out of date: The alignment changed since this change map was computed. Compute the change map again to bring it up to date.',
    );
    expect(screen.getByRole('status').textContent).toMatch(/^Colouring is not available for large captures yet/);
    expect(screen.getAllByTestId('change-region')).toHaveLength(1);
  });

  it('says that a mesh is not coloured yet, and still lists the regions with their fly-to', () => {
    const onFlyTo = vi.fn();
    render(<ChangesPanel {...props({ colouring: 'mesh', onFlyTo })} />);
    expect(screen.getByRole('status').textContent).toBe(
      'The mesh is not coloured by change yet (its change map was measured at points sampled on the GLB): the regions below still work.',
    );
    expect(screen.getByTestId('changes-panel').getAttribute('data-colouring')).toBe('mesh');
    const [region] = screen.getAllByTestId('change-region');
    fireEvent.click(within(region!).getByRole('button', { name: 'Fly to region 1' }));
    expect(onFlyTo).toHaveBeenCalled();
  });
});

describe('ChangesPanel histogram', () => {
  const histogram = { min: -0.4, max: 0.4, counts: [10, 30, 500, 700, 40, 0, 0, 20] };

  it('says how many Gaussians lie within ± the threshold and how many beyond, with the axis ends in metres', () => {
    // bins of 0.1: ±0.2 takes the middle four whole (500 + 700 + 40 + 0)
    render(
      <ChangesPanel
        {...props({ changeMap: { map: { ...map, histogram }, outOfDate: null, referenceName: null }, threshold: 0.2, scaleMax: 0.4 })}
      />,
    );
    const figure = screen.getByRole('figure');
    expect(within(figure).getByTestId('changes-histogram-text').textContent).toBe(
      '1,240 Gaussians within ±0.2 m, 60 beyond (1,300 measured, from −0.4 m to +0.4 m). Dashed lines: ± the threshold; bar heights on a log scale.',
    );
    // the figure is named by its text; the drawing itself is hidden from screen readers
    expect(figure.querySelector('svg')?.getAttribute('aria-hidden')).toBe('true');
    expect(figure.querySelector('.changes-histogram-ends')?.textContent).toBe('−0.4 m+0.4 m');
    // one bar per non-empty bin, each in the scale's colour at its centre (grey inside the threshold)
    const bars = [...figure.querySelectorAll('rect')];
    expect(bars).toHaveLength(6);
    expect(bars[2]!.getAttribute('fill')).toBe('rgb(150, 150, 150)');
    expect(bars[0]!.getAttribute('fill')).toBe(`rgb(${changeColour(-0.35, 0.2, 0.4).join(', ')})`);
    expect(bars[5]!.getAttribute('fill')).toBe(`rgb(${changeColour(0.35, 0.2, 0.4).join(', ')})`);
    // marks at −0.2 and +0.2: 2 and 6 bins from the left
    expect([...figure.querySelectorAll('line')].map((line) => Math.round(Number(line.getAttribute('x1')) * 1000) / 1000)).toEqual([2, 6]);
  });

  it('estimates a bin the threshold cuts, and follows the threshold; model units without a scale', () => {
    const { rerender } = render(
      <ChangesPanel
        {...props({
          changeMap: { map: { ...map, histogram }, outOfDate: null, referenceName: null },
          unitsPerMetre: null,
          threshold: 0.05,
        })}
      />,
    );
    const text = () => screen.getByTestId('changes-histogram-text').textContent;
    // half of each of the two middle bins: 350 + 20
    expect(text()).toMatch(
      /^About 370 Gaussians within ±0.05 model units, about 930 beyond \(1,300 measured, from −0.4 model units to \+0.4 model units\)\./,
    );
    rerender(
      <ChangesPanel
        {...props({ changeMap: { map: { ...map, histogram }, outOfDate: null, referenceName: null }, unitsPerMetre: null, threshold: 0.5 })}
      />,
    );
    expect(text()).toMatch(/^1,300 Gaussians within ±0.5 model units, 0 beyond/);
    // (± the threshold lies outside the histogram: no marks)
    expect(screen.getByRole('figure').querySelectorAll('line')).toHaveLength(0);
    // an estimate that rounds to nothing says so
    rerender(
      <ChangesPanel
        {...props({
          changeMap: { map: { ...map, histogram }, outOfDate: null, referenceName: null },
          unitsPerMetre: null,
          threshold: 0.399,
        })}
      />,
    );
    expect(text()).toMatch(/^About 1,300 Gaussians within ±0.399 model units, almost none beyond \(/);
    rerender(
      <ChangesPanel
        {...props({
          changeMap: { map: { ...map, histogram }, outOfDate: null, referenceName: null },
          unitsPerMetre: null,
          threshold: 0.00001,
        })}
      />,
    );
    expect(text()).toMatch(/^Almost no Gaussians within ±0.00001 model units, about 1,300 beyond \(/);
  });

  it('counts the split from the values the capture was painted with, at that threshold', () => {
    const shown = { map: { ...map, histogram }, outOfDate: null, referenceName: null };
    const { rerender } = render(
      <ChangesPanel {...props({ changeMap: shown, threshold: 0.05, applied: { threshold: 0.05, changed: 120, measured: 1300 } })} />,
    );
    const text = () => screen.getByTestId('changes-histogram-text').textContent;
    expect(text()).toMatch(/^1,180 Gaussians within ±0.05 m, 120 beyond \(1,300 measured,/);
    expect(screen.getByTestId('changes-panel').getAttribute('data-changed-gaussians')).toBe('120');
    // painted at another threshold (the slider moved since): the bins' estimate
    rerender(
      <ChangesPanel {...props({ changeMap: shown, threshold: 0.05, applied: { threshold: 0.02, changed: 400, measured: 1300 } })} />,
    );
    expect(text()).toMatch(/^About 370 Gaussians within ±0.05 m, about 930 beyond/);
  });

  it('splits a histogram: whole bins, cut bins by their share, one value repeated', () => {
    expect(histogramSplit(histogram, 0.2)).toEqual({ within: 1240, beyond: 60, total: 1300, estimated: false });
    expect(histogramSplit(histogram, 0)).toEqual({ within: 0, beyond: 1300, total: 1300, estimated: false });
    expect(histogramSplit(histogram, 0.15)).toEqual({ within: 250 + 700 + 40, beyond: 310, total: 1300, estimated: true });
    expect(histogramSplit({ min: 0.1, max: 0.1, counts: [9] }, 0.2)).toEqual({ within: 9, beyond: 0, total: 9, estimated: false });
  });
});

describe("ChangesPanel 'Create finding'", () => {
  it('shows a button per region only for an account that may add findings, and hands it the region', () => {
    const onCreateFinding = vi.fn();
    const { rerender } = render(<ChangesPanel {...props({ onCreateFinding })} />);
    const button = screen.getByRole('button', { name: 'Create finding from change region 1' });
    expect(button.textContent).toBe('Create finding');
    fireEvent.click(button);
    expect(onCreateFinding).toHaveBeenCalledWith(map.regions[0]);
    rerender(<ChangesPanel {...props()} />);
    expect(screen.queryByRole('button', { name: /Create finding/ })).toBeNull();
  });

  it("a region's draft: its centre in the capture's frame, the region named and stored, a prefilled title", () => {
    // capture → reference moves +1 in x
    const moved = { ...map, registration: { ...map.registration, matrix: [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 1, 0, 0, 1] } };
    const removed = { ...map.regions[0]!, id: 3, side: 'reference' as const, maxDistance: -0.62 };
    expect(changeRegionDraft(removed, { map: moved, outOfDate: null, referenceName: 'Tower 2025' }, 2)).toEqual({
      points: [{ x: 0, y: 2, z: 3 }],
      measure: null,
      changeRegion: {
        region: { referenceModelId: 'ref', regionId: 3, maxDistance: -0.62 },
        text: 'Change region 3 against Tower 2025: max −0.31 m',
      },
      prefill: { title: 'Change region 3: removed', category: 'other' },
    });
    expect(changeRegionDraft(map.regions[0]!, { map, outOfDate: null, referenceName: null }, null).changeRegion?.text).toBe(
      'Change region 1: max +0.3 model units',
    );
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
