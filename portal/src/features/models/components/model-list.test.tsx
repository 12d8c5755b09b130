/**
 * The model list's keyboard walk in jsdom: Tab on the last control of the last
 * rendered row scrolls the next row in and focuses its first control; Shift+Tab likewise
 * backwards; elsewhere Tab is left to the browser.
 */
import { cleanup, createEvent, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { walkPastRenderedRows } from './model-list.js';

afterEach(cleanup);

/** A list of `count` rows of which [from, to) are rendered; scrollToRow widens the window to the row. */
function Harness({ count, start }: { count: number; start: [number, number] }) {
  const [[from, to], setWindow] = useState(start);
  const scrollToRow = (index: number) => setWindow(([f, t]) => [Math.min(f, index), Math.max(t, index + 1)]);
  return (
    <div data-testid="list" onKeyDown={(event) => walkPastRenderedRows(event, count, scrollToRow)}>
      {Array.from({ length: to - from }, (_, k) => from + k).map((i) => (
        <div key={i} aria-posinset={i + 1} aria-setsize={count}>
          <a href={`#p${i}`}>project {i}</a>
          <a href={`#v${i}`}>view {i}</a>
          <button type="button" disabled>
            Preparing...
          </button>
        </div>
      ))}
    </div>
  );
}

/** Presses Tab (or Shift+Tab) on `element`; true when the handler took it over. */
function tab(element: HTMLElement, shiftKey = false): boolean {
  element.focus();
  const event = createEvent.keyDown(element, { key: 'Tab', shiftKey });
  fireEvent(element, event);
  return event.defaultPrevented;
}

describe('walkPastRenderedRows', () => {
  it('Tab on the last rendered row scrolls the next row in and focuses its first control', async () => {
    render(<Harness count={10} start={[0, 3]} />);
    const last = screen.getByRole('link', { name: 'view 2' });
    last.focus();
    expect(tab(last)).toBe(true);
    await waitFor(() => expect(document.activeElement?.textContent).toBe('project 3'));
  });

  it('Shift+Tab on the first rendered row focuses the previous row’s last control', async () => {
    render(<Harness count={10} start={[5, 8]} />);
    const first = screen.getByRole('link', { name: 'project 5' });
    first.focus();
    expect(tab(first, true)).toBe(true);
    await waitFor(() => expect(document.activeElement?.textContent).toBe('view 4'));
  });

  it('leaves Tab to the browser before the last control of the last rendered row', () => {
    render(<Harness count={10} start={[0, 3]} />);
    expect(tab(screen.getByRole('link', { name: 'project 2' }))).toBe(false);
    expect(document.activeElement?.textContent).toBe('project 2');
    expect(screen.queryByRole('link', { name: 'project 3' })).toBeNull();
  });

  it('leaves Tab to the browser inside a row, when the next row is rendered, and past the first or last row', () => {
    render(<Harness count={3} start={[0, 3]} />);
    expect(tab(screen.getByRole('link', { name: 'project 1' }))).toBe(false); // inside the row
    expect(tab(screen.getByRole('link', { name: 'view 1' }))).toBe(false); // row 2 is rendered
    expect(tab(screen.getByRole('link', { name: 'view 2' }))).toBe(false); // the last row: Tab leaves the list
    expect(tab(screen.getByRole('link', { name: 'project 0' }), true)).toBe(false); // the first row
  });
});
