/** A labelled form field: the label wraps its control, with the label text above it. */
import type { ReactNode } from 'react';
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

/** A text-like input in a {@link Field}: `onChange` gets the new value. */
export function TextField({
  label,
  value,
  onChange,
  type = 'text',
  placeholder,
}: {
  label: ReactNode;
  value: string;
  onChange: (value: string) => void;
  type?: 'text' | 'email' | 'password' | 'date';
  placeholder?: string;
}) {
  return (
    <Field label={label}>
      <input type={type} value={value} placeholder={placeholder} onChange={(e) => onChange(e.target.value)} />
    </Field>
  );
}
