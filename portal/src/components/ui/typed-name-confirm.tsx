/**
 * The typed-name delete confirmation (SPEC.md §4 "Project delete flow", §5 "Delete model" and
 * "Delete project"): the typed text must equal the name (trimmed) before the delete runs.
 */
import { useState } from 'react';
import { confirmTypedName } from '@shared/validation/confirm.js';
import { Banner } from './banner.js';
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
}: TypedNameConfirmProps) {
  const [typed, setTyped] = useState('');
  const remove = useAction(onConfirm, { failure: failureText });
  // Stays busy after a success: the box goes away.
  const busy = remove.busy || remove.status === 'success';

  function confirm() {
    if (!confirmTypedName(typed, expectedName)) remove.fail(mismatchText);
    else void remove.run(typed);
  }

  return (
    <div className="panel delete-box" role="dialog" aria-label={title}>
      {showTitle ? <h3 className="panel-title">{title}</h3> : null}
      <p className="alert alert-warning">{warning}</p>
      <Field label={prompt}>
        <input type="text" value={typed} placeholder={placeholder} onChange={(e) => setTyped(e.target.value)} />
      </Field>
      <Banner banner={remove.message} />
      <div className="actions">
        <button type="button" className="button button-secondary" onClick={onCancel}>
          Cancel
        </button>
        <button
          type="button"
          className="button button-danger"
          disabled={busy || (requireMatch && !confirmTypedName(typed, expectedName))}
          onClick={confirm}
        >
          {confirmLabel}
        </button>
      </div>
    </div>
  );
}
