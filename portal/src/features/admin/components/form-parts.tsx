/**
 * Small parts the admin and add-model forms share: the result banner, a labelled form field and
 * the typed-name delete confirmation (SPEC.md §4 "Project delete flow", §5 "Delete model" and
 * "Delete project").
 */
import { useState, type ReactNode } from 'react';
import { confirmTypedName } from '@shared/validation/confirm.js';

/** A success (green) or error (red) result message. */
export interface BannerMessage {
  kind: 'success' | 'error';
  text: string;
}

/** The result banner: an alert for errors, a status for successes, nothing without a message. */
export function Banner({ banner }: { banner: BannerMessage | null }) {
  if (!banner) return null;
  return (
    <p className={`alert alert-${banner.kind}`} role={banner.kind === 'error' ? 'alert' : 'status'}>
      {banner.text}
    </p>
  );
}

/** A label wrapping its control, with the label text above it; `wide` spans the form grid. */
export function Field({ label, wide = false, children }: { label: ReactNode; wide?: boolean; children: ReactNode }) {
  return (
    <label className={`field${wide ? ' field-wide' : ''}`}>
      <span className="field-label">{label}</span>
      {children}
    </label>
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
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function confirm() {
    if (!confirmTypedName(typed, expectedName)) {
      setError(mismatchText);
      return;
    }
    setBusy(true);
    try {
      await onConfirm(typed);
    } catch (e) {
      setError(failureText(e));
      setBusy(false);
    }
  }

  return (
    <div className="panel delete-box" role="dialog" aria-label={title}>
      {showTitle ? <h3 className="panel-title">{title}</h3> : null}
      <p className="alert alert-warning">{warning}</p>
      <Field label={prompt}>
        <input type="text" value={typed} placeholder={placeholder} onChange={(e) => setTyped(e.target.value)} />
      </Field>
      <Banner banner={error === null ? null : { kind: 'error', text: error }} />
      <div className="actions">
        <button type="button" className="button button-secondary" onClick={onCancel}>
          Cancel
        </button>
        <button
          type="button"
          className="button button-danger"
          disabled={busy || (requireMatch && !confirmTypedName(typed, expectedName))}
          onClick={() => void confirm()}
        >
          {confirmLabel}
        </button>
      </div>
    </div>
  );
}
