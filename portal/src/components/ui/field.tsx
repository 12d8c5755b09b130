/**
 * A labelled form field: the label wraps its control, with the label text above it. And the
 * per-field error state of a form (WCAG 3.3.1 Error Identification, 1.3.1): the fields
 * a validation message is about get `aria-invalid` and `aria-describedby` (the form's message),
 * and the first of them takes the focus after a refused submit.
 */
import { useCallback, useEffect, useId, useMemo, useRef, useState, type ReactNode, type RefObject } from 'react';
import './forms.css';

/** A label wrapping its control, with the label text above it; `wide` spans the form grid. */
export function Field({ label, wide = false, children }: { label: ReactNode; wide?: boolean; children: ReactNode }) {
  return (
    <label className={`field${wide ? ' field-wide' : ''}`}>
      <span className="field-label">{label}</span>
      {children}
    </label>
  );
}

/** The ARIA attributes of a field: none, or invalid and described by the form's message. */
export interface InvalidProps {
  'aria-invalid'?: true;
  'aria-describedby'?: string;
}

/** A text-like input in a {@link Field}: `onChange` gets the new value; `invalid` from {@link FieldErrors.props}. */
export function TextField({
  label,
  value,
  onChange,
  type = 'text',
  placeholder,
  invalid,
  autoComplete,
}: {
  label: ReactNode;
  value: string;
  onChange: (value: string) => void;
  type?: 'text' | 'email' | 'password' | 'date';
  placeholder?: string;
  invalid?: InvalidProps;
  autoComplete?: string;
}) {
  return (
    <Field label={label}>
      <input
        type={type}
        value={value}
        placeholder={placeholder}
        autoComplete={autoComplete}
        onChange={(e) => onChange(e.target.value)}
        {...invalid}
      />
    </Field>
  );
}

/** The per-field error state of one form (see {@link useFieldErrors}). */
export interface FieldErrors<K extends string> {
  /** Put on the `<form>`: the first invalid control in it takes the focus after {@link mark}. */
  formRef: RefObject<HTMLFormElement | null>;
  /** The id to give the element showing the form's message (a `LiveBanner`). */
  messageId: string;
  /** The fields marked invalid. */
  invalid: readonly K[];
  /** Marks `keys` invalid (none: clears) and, when there are any, moves the focus to the first invalid control. */
  mark: (keys: readonly K[]) => void;
  /** The attributes for field `key`'s control. */
  props: (key: K) => InvalidProps;
}

/**
 * The invalid fields of a form, named by the caller's keys. After `mark(keys)` each of those
 * fields' controls (spread `props(key)` on them) is `aria-invalid` and described by the element
 * with id `messageId`, and the first `[aria-invalid="true"]` control inside `formRef` in document
 * order takes the focus.
 */
export function useFieldErrors<K extends string>(): FieldErrors<K> {
  const [invalid, setInvalid] = useState<readonly K[]>([]);
  const [focusRequest, setFocusRequest] = useState(0);
  const formRef = useRef<HTMLFormElement | null>(null);
  const messageId = `form-message-${useId()}`;
  useEffect(() => {
    if (focusRequest > 0) formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [focusRequest]);
  const mark = useCallback((keys: readonly K[]) => {
    setInvalid(keys);
    if (keys.length > 0) setFocusRequest((n) => n + 1);
  }, []);
  const props = useCallback(
    (key: K): InvalidProps => (invalid.includes(key) ? { 'aria-invalid': true, 'aria-describedby': messageId } : {}),
    [invalid, messageId],
  );
  return useMemo(() => ({ formRef, messageId, invalid, mark, props }), [messageId, invalid, mark, props]);
}

/**
 * Keeps the focus from being lost (WCAG 2.4.3): after `trigger` changes (not on mount),
 * when the focus is on <body> — its control went away (a deleted row, a Cancel shown only while
 * uploading) or was replaced — `target()` takes it (made focusable by script when it is not).
 * @param trigger what the recovery follows (an action's status, the list it changed)
 * @param target the element to focus, read when `trigger` changes
 */
export function useFocusRecovery(trigger: unknown, target: () => HTMLElement | null | undefined): void {
  const latest = useRef(target);
  latest.current = target;
  const previous = useRef(trigger);
  useEffect(() => {
    if (Object.is(previous.current, trigger)) return;
    previous.current = trigger;
    if (document.activeElement !== null && document.activeElement !== document.body) return;
    const element = latest.current();
    if (!element) return;
    if (element.tabIndex < 0 && !element.hasAttribute('tabindex')) element.setAttribute('tabindex', '-1');
    element.focus();
  }, [trigger]);
}
