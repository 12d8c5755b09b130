/**
 * A responsive card grid that renders only the rows near the viewport (a catalog may hold 1,000
 * projects on /projects and /catalog): the page scrolls as usual (react-window v2's
 * `useVirtualizer` with the window as scroll element), the column count follows the grid's width as
 * `.card-grid`'s `repeat(auto-fill, minmax(<min>px, 1fr))` would (one column at phone width), and
 * each row's height is measured (cards keep their content; rows are re-measured when the columns
 * change).
 *
 * Keyboard: the row holding focus and the rows on either side of it stay rendered
 * ({@link useFocusedRow}, {@link withFocusedRows}), so Tab and Shift+Tab walk card by card past
 * the rendered rows to the first and last item, and a focused card scrolled away with the mouse
 * keeps its focus.
 */
import { Fragment, useCallback, useLayoutEffect, useState, type FocusEvent, type ReactNode } from 'react';
import { useDynamicRowHeight, useVirtualizer, type VirtualItem } from 'react-window';

/** The width of an element in CSS pixels, followed with a ResizeObserver (0 until measured). */
export function useElementWidth(element: HTMLElement | null): number {
  const [width, setWidth] = useState(0);
  useLayoutEffect(() => {
    if (!element) return;
    setWidth(element.getBoundingClientRect().width);
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver((entries) => {
      const box = entries[0]?.contentRect;
      if (box) setWidth(box.width);
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, [element]);
  return width;
}

/** Columns of an auto-fill grid of `width` px with cards at least `min` px wide and `gap` px between them (at least 1). */
export function columnsFor(width: number, min: number, gap: number): number {
  return Math.max(1, Math.floor((width + gap) / (min + gap)));
}

/**
 * The rows a virtualiser renders plus the focused row and its neighbours (Tab from the
 * last rendered row must find the next one in the DOM; Shift+Tab likewise the previous one).
 * @param items the virtualiser's rows (contiguous, ascending by index), offsets and sizes in px
 * @param focused index of the row holding focus, or null
 * @param count number of rows
 * @param sizeOf size in px of a row that is not rendered (its measured height, else an estimate)
 * @returns the rows to render, ascending by index, each with the offset it has in the full list
 */
export function withFocusedRows(
  items: readonly VirtualItem[],
  focused: number | null,
  count: number,
  sizeOf: (index: number) => number,
): VirtualItem[] {
  if (focused === null || count === 0) return [...items];
  const wanted = [focused - 1, focused, focused + 1].filter((i) => i >= 0 && i < count);
  const first = items[0];
  const last = items[items.length - 1];
  const have = new Set(items.map((item) => item.index));
  const extra: VirtualItem[] = [];
  const after = wanted.filter((i) => !have.has(i) && (last === undefined || i > last.index));
  const before = wanted.filter((i) => !have.has(i) && first !== undefined && i < first.index);
  if (after.length > 0) {
    // offsets continue from the last rendered row (or from 0 when none is)
    let index = last ? last.index + 1 : 0;
    let offset = last ? last.offset + last.size : 0;
    const end = Math.max(...after);
    for (; index <= end; index++) {
      const size = sizeOf(index);
      if (after.includes(index)) extra.push({ index, offset, size });
      offset += size;
    }
  }
  if (before.length > 0 && first) {
    let offset = first.offset;
    for (let index = first.index - 1; index >= Math.min(...before); index--) {
      const size = sizeOf(index);
      offset -= size;
      if (before.includes(index)) extra.push({ index, offset, size });
    }
  }
  return [...items, ...extra].sort((a, b) => a.index - b.index);
}

/**
 * Which row (an element with `data-index`) inside a virtualised list holds focus: spread
 * `handlers` on the list's root element. Focus leaving the list clears it.
 */
export function useFocusedRow(): {
  focused: number | null;
  handlers: { onFocus: (event: FocusEvent<HTMLElement>) => void; onBlur: (event: FocusEvent<HTMLElement>) => void };
} {
  const [focused, setFocused] = useState<number | null>(null);
  const onFocus = useCallback((event: FocusEvent<HTMLElement>) => {
    const row = (event.target as Element).closest('[data-index]');
    const index = row && event.currentTarget.contains(row) ? Number(row.getAttribute('data-index')) : NaN;
    setFocused(Number.isInteger(index) ? index : null);
  }, []);
  const onBlur = useCallback((event: FocusEvent<HTMLElement>) => {
    const next = event.relatedTarget as Node | null;
    if (next === null || !event.currentTarget.contains(next)) setFocused(null);
  }, []);
  return { focused, handlers: { onFocus, onBlur } };
}

export interface VirtualCardGridProps<T> {
  items: readonly T[];
  /** A stable key per item. */
  itemKey: (item: T) => string;
  renderItem: (item: T) => ReactNode;
  /** Narrowest card in px (default 280, as `.card-grid`). */
  minColumnWidth?: number;
  /** Space between cards in px (default 20, `.card-grid`'s 1.25rem). */
  gap?: number;
  /** Height of a row of cards before it is measured, px. */
  estimatedRowHeight: number;
  /** Rows rendered beyond the viewport on each side (default 2). */
  overscanRows?: number;
  testId?: string;
}

export function VirtualCardGrid<T>({
  items,
  itemKey,
  renderItem,
  minColumnWidth = 280,
  gap = 20,
  estimatedRowHeight,
  overscanRows = 2,
  testId,
}: VirtualCardGridProps<T>) {
  const [element, setElement] = useState<HTMLDivElement | null>(null);
  const columns = columnsFor(useElementWidth(element), minColumnWidth, gap);
  const rowCount = Math.ceil(items.length / columns);
  const rowHeight = useDynamicRowHeight({ defaultRowHeight: estimatedRowHeight, key: columns });
  const { focused, handlers } = useFocusedRow();
  const {
    items: virtualRows,
    totalSize,
    measureElement,
  } = useVirtualizer({
    count: rowCount,
    element,
    itemSize: rowHeight,
    scrollElement: 'window',
    defaultSize: window.innerHeight, // until measured: the first render fills the window
    overscanCount: overscanRows,
  });
  const rows = withFocusedRows(virtualRows, focused, rowCount, (index) => rowHeight.getRowHeight(index) ?? rowHeight.getAverageRowHeight());
  return (
    <div
      ref={setElement}
      className="virtual-card-grid"
      style={{ position: 'relative', height: totalSize }}
      data-testid={testId}
      {...handlers}
    >
      {rows.map((row) => (
        <div
          key={`${columns}:${row.index}`}
          data-index={row.index}
          ref={measureElement}
          style={{ position: 'absolute', left: 0, right: 0, top: 0, transform: `translateY(${row.offset}px)` }}
        >
          <div className="card-grid" style={{ gridTemplateColumns: `repeat(${columns}, minmax(0, 1fr))`, paddingBottom: gap }}>
            {items.slice(row.index * columns, (row.index + 1) * columns).map((item) => (
              <Fragment key={itemKey(item)}>{renderItem(item)}</Fragment>
            ))}
          </div>
        </div>
      ))}
    </div>
  );
}
