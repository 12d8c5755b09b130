/**
 * The typed-name delete confirmation of a model or a project: the typed text must equal the name
 * (trimmed) before the delete runs.
 *
 * It is a modal dialog (WCAG 2.1.2, 2.4.3, 4.1.2): ModalDialog (modal-dialog.tsx) moves the focus
 * into it (to the typed-name input), keeps Tab inside it, closes on Escape and gives the focus
 * back to the control that opened it — or, when that control went away with what was deleted,
 * to the place its `returnFocus` names.
 */
import { useId, useRef, useState, type ReactNode } from 'react';
import { confirmTypedName } from '@shared/validation/confirm.js';
import { LiveBanner } from './banner.js';
import { ModalDialog } from './modal-dialog.js';
import { Field } from './field.js';
import { useAction } from '../../hooks/use-action.js';
import './forms.css';

export interface TypedNameConfirmProps {
  /** The dialog's accessible name (and heading, with `showTitle`). */
  title: string;
  showTitle?: boolean;
  warning: string;
  prompt: string;
  placeholder: string;
  /** The name to type; compared trimmed with `confirmTypedName`. */
  expectedName: string;
  /** Shown when the typed text does not match. */
  mismatchText: string;
  confirmLabel: string;
  /** Keeps the confirm button disabled until the typed text matches. */
  requireMatch?: boolean;
  /** Called with the typed text on a match; a rejection shows `failureText(error)`. */
  onConfirm: (typed: string) => void | Promise<void>;
  failureText?: (error: unknown) => string;
  onCancel: () => void;
  /** Where the focus goes on close when the control that opened the box is gone (see {@link ModalDialog}). */
  returnFocus?: () => HTMLElement | null;
  /** More content under the buttons (e.g. a progress line). */
  children?: ReactNode;
}

/** The delete confirmation box: the typed text starts empty and must equal the name (trimmed). */
export function TypedNameConfirm({
  title,
  showTitle = false,
  warning,
  prompt,
  placeholder,
  expectedName,
  mismatchText,
  confirmLabel,
  requireMatch = false,
  onConfirm,
  failureText = String,
  onCancel,
  returnFocus,
  children,
}: TypedNameConfirmProps) {
  const [typed, setTyped] = useState('');
  const remove = useAction(onConfirm, { failure: failureText });
  // Stays busy after a success: the box goes away.
  const busy = remove.busy || remove.status === 'success';
  const input = useRef<HTMLInputElement>(null);
  const id = useId();
  const warningId = `typed-name-warning-${id}`;
  const messageId = `typed-name-message-${id}`;
  const mismatch = remove.status === 'error' && remove.args === null;

  function confirm() {
    if (busy) return;
    if (!confirmTypedName(typed, expectedName)) {
      remove.fail(mismatchText);
      input.current?.focus();
    } else void remove.run(typed);
  }

  return (
    <ModalDialog
      title={title}
      showTitle={showTitle}
      describedBy={warningId}
      initialFocus={input}
      onCancel={onCancel}
      returnFocus={returnFocus}
      className="panel delete-box"
    >
      <p id={warningId} className="alert alert-warning">
        {warning}
      </p>
      <Field label={prompt}>
        <input
          ref={input}
          type="text"
          value={typed}
          placeholder={placeholder}
          autoComplete="off"
          aria-invalid={mismatch || undefined}
          aria-describedby={mismatch ? messageId : undefined}
          onChange={(e) => setTyped(e.target.value)}
          onKeyDown={(e) => {
            // Enter in the box confirms, as in a form
            if (e.key === 'Enter' && !busy && (!requireMatch || confirmTypedName(typed, expectedName))) {
              e.preventDefault();
              confirm();
            }
          }}
        />
      </Field>
      <LiveBanner id={messageId} banner={remove.message} />
      <div className="actions">
        <button type="button" className="button button-secondary" onClick={onCancel}>
          Cancel
        </button>
        <button
          type="button"
          className="button button-danger"
          disabled={requireMatch && !confirmTypedName(typed, expectedName)}
          // aria-disabled while deleting: a disabled button would drop the focus out of the dialog
          aria-disabled={busy || undefined}
          onClick={confirm}
        >
          {confirmLabel}
        </button>
      </div>
      {children}
    </ModalDialog>
  );
}
