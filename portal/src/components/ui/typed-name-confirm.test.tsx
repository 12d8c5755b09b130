/**
 * The typed-name delete confirmation as a modal dialog: named and described, the focus
 * moves to the typed-name input, Tab stays inside, Escape cancels, the focus goes back to the
 * opener (or to `returnFocus` when the opener went away), a mismatch marks the input invalid.
 */
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { TypedNameConfirm } from './typed-name-confirm.js';

afterEach(cleanup);

/** A page with an opener button, the box while open, and a heading to fall back to. */
function Page({
  onConfirm = async () => undefined,
  removeOpenerOnConfirm = false,
}: {
  onConfirm?: () => Promise<void>;
  removeOpenerOnConfirm?: boolean;
}) {
  const [open, setOpen] = useState(false);
  const [opener, setOpener] = useState(true);
  return (
    <div>
      <h2 tabIndex={-1} id="list-title">
        Models
      </h2>
      {opener ? (
        <button type="button" onClick={() => setOpen(true)}>
          Delete Model
        </button>
      ) : null}
      <button type="button">Elsewhere</button>
      {open ? (
        <TypedNameConfirm
          title="Delete Model"
          showTitle
          warning="This cannot be undone."
          prompt="Please type Survey to confirm:"
          placeholder="Type model name here..."
          expectedName="Survey"
          mismatchText="Model name doesn't match. Deletion canceled."
          confirmLabel="Delete"
          onConfirm={async () => {
            await onConfirm();
            if (removeOpenerOnConfirm) setOpener(false);
            setOpen(false);
          }}
          onCancel={() => setOpen(false)}
          returnFocus={() => document.getElementById('list-title')}
        />
      ) : null}
    </div>
  );
}

function open() {
  const opener = screen.getByRole('button', { name: 'Delete Model' });
  opener.focus();
  fireEvent.click(opener);
  return opener;
}

describe('TypedNameConfirm as a modal dialog', () => {
  it('is a named, described modal dialog and takes the focus to the typed-name input', () => {
    render(<Page />);
    open();
    const dialog = screen.getByRole('dialog', { name: 'Delete Model' });
    expect(dialog.getAttribute('aria-modal')).toBe('true');
    const description = document.getElementById(dialog.getAttribute('aria-describedby') ?? '');
    expect(description?.textContent).toBe('This cannot be undone.');
    expect(document.activeElement).toBe(screen.getByLabelText('Please type Survey to confirm:'));
  });

  it('keeps Tab inside: Tab on the last control goes to the first, Shift+Tab on the first to the last', () => {
    render(<Page />);
    open();
    const input = screen.getByLabelText('Please type Survey to confirm:');
    const confirm = screen.getByRole('button', { name: 'Delete' });
    confirm.focus();
    fireEvent.keyDown(confirm, { key: 'Tab' });
    expect(document.activeElement).toBe(input);
    fireEvent.keyDown(input, { key: 'Tab', shiftKey: true });
    expect(document.activeElement).toBe(confirm);
    // a control in the middle: the browser moves on by itself (not prevented)
    const cancel = screen.getByRole('button', { name: 'Cancel' });
    cancel.focus();
    expect(fireEvent.keyDown(cancel, { key: 'Tab' })).toBe(true);
  });

  it('closes on Escape and gives the focus back to the button that opened it', () => {
    render(<Page />);
    const opener = open();
    fireEvent.keyDown(screen.getByLabelText('Please type Survey to confirm:'), { key: 'Escape' });
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(opener);
  });

  it('gives the focus back on Cancel too', () => {
    render(<Page />);
    const opener = open();
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(document.activeElement).toBe(opener);
  });

  it('marks the input invalid on a mismatch, described by the message, and keeps the focus there', () => {
    render(<Page />);
    open();
    const input = screen.getByLabelText('Please type Survey to confirm:');
    fireEvent.change(input, { target: { value: 'Surv' } });
    fireEvent.click(screen.getByRole('button', { name: 'Delete' }));
    expect(input.getAttribute('aria-invalid')).toBe('true');
    const message = document.getElementById(input.getAttribute('aria-describedby') ?? '');
    expect(message?.textContent).toBe("Model name doesn't match. Deletion canceled.");
    expect(message?.querySelector('[role="alert"]')).not.toBeNull();
    expect(document.activeElement).toBe(input);
  });

  it('Enter in the input confirms; when the opener went away with the deleted item, the focus goes to returnFocus', async () => {
    render(<Page removeOpenerOnConfirm />);
    open();
    const input = screen.getByLabelText('Please type Survey to confirm:');
    fireEvent.change(input, { target: { value: ' Survey ' } });
    fireEvent.keyDown(input, { key: 'Enter' });
    await act(() => Promise.resolve());
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Delete Model' })).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole('heading', { name: 'Models' }));
  });

  it('has its result regions in the page before a message arrives', () => {
    render(<Page />);
    open();
    const dialog = screen.getByRole('dialog');
    expect(dialog.querySelector('[aria-live="assertive"]')).not.toBeNull();
    expect(dialog.querySelector('[aria-live="polite"]')).not.toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
