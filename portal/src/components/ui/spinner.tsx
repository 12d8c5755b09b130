/** A small spinning indicator with an optional label. */
export function Spinner({ label, size = 'md' }: { label?: string; size?: 'sm' | 'md' }) {
  return (
    <span className={`spinner-wrap spinner-${size}`} role="status">
      <span className="spinner" aria-hidden="true" />
      {label ? <span className="spinner-label">{label}</span> : null}
    </span>
  );
}

/** A full-area loading state: spinner plus text. */
export function LoadingState({ label }: { label: string }) {
  return (
    <div className="state state-loading">
      <Spinner label={label} />
    </div>
  );
}
