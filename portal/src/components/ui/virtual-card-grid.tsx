/**
 * A responsive card grid that renders only the rows near the viewport (issue 17: 1,000 projects
 * on /projects and /catalog): the page scrolls as usual (react-window v2's `useVirtualizer` with
 * the window as scroll element), the column count follows the grid's width as `.card-grid`'s
 * `repeat(auto-fill, minmax(<min>px, 1fr))` would (one column at phone width), and each row's
 * height is measured (cards keep their content; rows are re-measured when the columns change).
 */
import { Fragment, useLayoutEffect, useState, type ReactNode } from 'react';
import { useDynamicRowHeight, useVirtualizer } from 'react-window';

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
  const {
    items: rows,
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
  return (
    <div ref={setElement} className="virtual-card-grid" style={{ position: 'relative', height: totalSize }} data-testid={testId}>
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
