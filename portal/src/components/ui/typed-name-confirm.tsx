/**
 * The typed-name delete confirmation of a model or a project: the typed text must equal the name
 * (trimmed) before the delete runs.
 *
 * It is a modal dialog (WCAG 2.1.2, 2.4.3, 4.1.2): {@link ModalDialog} moves the focus
 * into it (to the typed-name input), keeps Tab inside it, closes on Escape and gives the focus
 * back to the control that opened it — or, when that control went away with what was deleted,
 * to the place its `returnFocus` names.
 */
import { useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode, type RefObject } from 'react';
import { confirmTypedName } from '@shared/validation/confirm.js';
import { LiveBanner } from './banner.js';
import { keepTabInside, tabbableIn } from './focus.js';
import { Field } from './field.js';
import { useAction } from '../../hooks/use-action.js';
import { useLatest } from '../../hooks/use-latest.js';
import './forms.css';

export interface ModalDialogProps {
  /** The dialog's accessible name; with `showTitle`, also its visible heading (aria-labelledby). */
  title: string;
  showTitle?: boolean;
  /** 'alertdialog' for a confirmation of something that cannot be undone. */
  role?: 'dialog' | 'alertdialog';
  /** The id of the element describing the dialog (aria-describedby). */
  describedBy?: string;
  /** Where the focus goes on open; default the first control. */
  initialFocus?: RefObject<HTMLElement | null>;
  /** Escape (and the caller's Cancel). */
  onCancel: () => void;
  /** Where the focus goes on close when the control that opened the dialog is gone (e.g. deleted with its row). */
  returnFocus?: () => HTMLElement | null;
  className?: string;
  children: ReactNode;
}

/**
 * A modal dialog over a dimmed page: role dialog/alertdialog with aria-modal, named and described;
 * the focus moves in on open, Tab and Shift+Tab cycle inside, Escape calls `onCancel`, and on
 * close the focus goes back to the element that had it when the dialog opened (or `returnFocus()`).
 */
export function ModalDialog({
  title,
  showTitle = false,
  role = 'dialog',
  describedBy,
  initialFocus,
  onCancel,
  returnFocus,
  className,
  children,
}: ModalDialogProps) {
  const box = useRef<HTMLDivElement>(null);
  const titleId = `dialog-title-${useId()}`;
  const latest = useLatest({ returnFocus, initialFocus });

  useEffect(() => {
    const opener =
      document.activeElement instanceof HTMLElement && document.activeElement !== document.body ? document.activeElement : null;
    const target = latest.current.initialFocus?.current ?? tabbableIn(box.current)[0] ?? box.current;
    target?.focus();
    return () => {
      // runs after the dialog left the page: the opener may have gone with it (a deleted row);
      // the latest returnFocus is the one wanted (it reads the page as it is now)
      // eslint-disable-next-line react-hooks/exhaustive-deps
      const back = opener?.isConnected ? opener : (latest.current.returnFocus?.() ?? null);
      back?.focus();
    };
  }, [latest]);

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      onCancel();
      return;
    }
    keepTabInside(event);
  }

  return (
    // A click on the dimmed page keeps the focus in the dialog (it would otherwise go to the body).
    <div className="dialog-backdrop" onMouseDown={(e) => e.target === e.currentTarget && e.preventDefault()}>
      <div
        ref={box}
        className={`dialog${className ? ` ${className}` : ''}`}
        role={role}
        aria-modal="true"
        aria-labelledby={showTitle ? titleId : undefined}
        aria-label={showTitle ? undefined : title}
        aria-describedby={describedBy}
        tabIndex={-1}
        onKeyDown={onKeyDown}
      >
        {showTitle ? (
          <h2 id={titleId} className="panel-title">
            {title}
          </h2>
        ) : null}
        {children}
      </div>
    </div>
  );
}

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
