/**
 * The virtual card grid's keyboard support in jsdom: the focused row and its
 * neighbours are rendered beside the virtualiser's rows at the offsets they have in the list, so
 * Tab from the last rendered row finds the next one.
 */
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { VirtualCardGrid, withFocusedRows } from './virtual-card-grid.js';

afterEach(cleanup);

const rows = (from: number, to: number, size = 100) =>
  Array.from({ length: to - from + 1 }, (_, k) => ({ index: from + k, offset: (from + k) * size, size }));

describe('withFocusedRows', () => {
  it('adds nothing without focus or when the focused row and its neighbours are rendered', () => {
    expect(withFocusedRows(rows(0, 4), null, 50, () => 100)).toEqual(rows(0, 4));
    expect(withFocusedRows(rows(0, 4), 2, 50, () => 100)).toEqual(rows(0, 4));
  });

  it('adds the row after the last rendered one, at the offset that continues the list', () => {
    expect(withFocusedRows(rows(0, 4), 4, 50, () => 100)).toEqual([...rows(0, 4), { index: 5, offset: 500, size: 100 }]);
  });

  it('keeps a focused row scrolled far away, with its neighbours, measured sizes counted in', () => {
    const sizeOf = (i: number) => (i === 6 ? 250 : 100);
    const out = withFocusedRows(rows(0, 4), 10, 50, sizeOf);
    expect(out.map((r) => r.index)).toEqual([0, 1, 2, 3, 4, 9, 10, 11]);
    expect(out.find((r) => r.index === 9)?.offset).toBe(1050); // 500 + rows 5–8 (100 + 250 + 100 + 100)
    expect(out.find((r) => r.index === 10)?.offset).toBe(1150);
  });

  it('adds the rows before the first rendered one going back, and never rows outside the list', () => {
    const out = withFocusedRows(rows(20, 24), 19, 25, () => 100);
    expect(out.map((r) => [r.index, r.offset])).toEqual([
      [18, 1800],
      [19, 1900],
      [20, 2000],
      [21, 2100],
      [22, 2200],
      [23, 2300],
      [24, 2400],
    ]);
    expect(withFocusedRows(rows(20, 24), 24, 25, () => 100).map((r) => r.index)).toEqual([20, 21, 22, 23, 24]);
    expect(withFocusedRows([], 0, 3, () => 100)).toEqual([
      { index: 0, offset: 0, size: 100 },
      { index: 1, offset: 100, size: 100 },
    ]);
  });
});

describe('VirtualCardGrid', () => {
  it('renders the next row once focus is in the last rendered one, and drops it when focus leaves', () => {
    const items = Array.from({ length: 200 }, (_, i) => `Card ${i}`);
    render(
      <>
        <button type="button">before</button>
        <VirtualCardGrid
          items={items}
          itemKey={(item) => item}
          estimatedRowHeight={400}
          renderItem={(item) => <a href={`#${item}`}>{item}</a>}
          testId="grid"
        />
      </>,
    );
    const shown = () => screen.getAllByRole('link').map((a) => a.textContent);
    const rendered = shown();
    expect(rendered.length).toBeLessThan(items.length);
    const lastIndex = rendered.length - 1;
    expect(screen.queryByRole('link', { name: `Card ${lastIndex + 1}` })).toBeNull();
    act(() => screen.getByRole('link', { name: `Card ${lastIndex}` }).focus());
    expect(screen.getByRole('link', { name: `Card ${lastIndex + 1}` })).toBeTruthy();
    expect(document.activeElement?.textContent).toBe(`Card ${lastIndex}`);
    act(() => screen.getByRole('button', { name: 'before' }).focus());
    expect(screen.queryByRole('link', { name: `Card ${lastIndex + 1}` })).toBeNull();
  });
});
