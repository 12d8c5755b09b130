/**
 * A modal dialog over a dimmed page (WCAG 2.1.2, 2.4.3, 4.1.2): role dialog or alertdialog with
 * aria-modal, named and described; the focus moves into it on open, Tab stays inside, Escape
 * cancels, and on close the focus goes back to the control that opened it (or to the place
 * `returnFocus` names when that control went away). The typed-name delete confirmation and the
 * findings' dialogs are built on it.
 */
import { useEffect, useId, useRef, type KeyboardEvent, type ReactNode, type RefObject } from 'react';
import { keepTabInside, tabbableIn } from './focus.js';
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
