import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useEffect, useState } from 'react';
import { Link, MemoryRouter, Route, Routes } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useFocusOnNavigation } from './route-focus.js';

function Focuser() {
  useFocusOnNavigation();
  return null;
}

/** A page whose heading arrives after a delay, as a lazy route or a data load renders it. */
function SlowPage() {
  const [loaded, setLoaded] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setLoaded(true), 50);
    return () => clearTimeout(timer);
  }, []);
  return <main>{loaded ? <h1>Projects</h1> : <p>Loading...</p>}</main>;
}

function DialogPage() {
  return (
    <main>
      <h1>Edit</h1>
      <div role="dialog" aria-label="Confirm">
        <input aria-label="Typed name" autoFocus />
      </div>
    </main>
  );
}

function app(initial = '/') {
  return render(
    <MemoryRouter initialEntries={[initial]}>
      <Focuser />
      <Routes>
        <Route
          path="/"
          element={
            <main>
              <h1>Home</h1>
              <Link to="/projects">Projects</Link>
              <Link to="/dialog">Dialog</Link>
              <Link to="/?view=table">Table</Link>
            </main>
          }
        />
        <Route path="/projects" element={<SlowPage />} />
        <Route path="/dialog" element={<DialogPage />} />
      </Routes>
    </MemoryRouter>,
  );
}

afterEach(cleanup);

describe('focus after a page change', () => {
  it('leaves focus alone on the first page', () => {
    app();
    expect(document.activeElement).toBe(document.body);
  });

  it("moves focus to the new page's h1 once it renders, without adding it to the Tab order", async () => {
    app();
    fireEvent.click(screen.getByRole('link', { name: 'Projects' }));
    const heading = await screen.findByRole('heading', { name: 'Projects' });
    await vi.waitFor(() => expect(document.activeElement).toBe(heading));
    expect(heading.getAttribute('tabindex')).toBe('-1');
  });

  it('keeps focus where a page put it on purpose (a dialog field)', async () => {
    app();
    fireEvent.click(screen.getByRole('link', { name: 'Dialog' }));
    const field = screen.getByRole('textbox', { name: 'Typed name' });
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(document.activeElement).toBe(field);
  });

  it('keeps focus on the control when only the query string changes', async () => {
    app();
    const table = screen.getByRole('link', { name: 'Table' });
    table.focus();
    fireEvent.click(table);
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(document.activeElement).toBe(table);
  });
});
