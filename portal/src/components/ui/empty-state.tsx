import type { ReactNode } from 'react';

/** A centred message with a title, text and optional action (empty lists, not found, login required). */
export function EmptyState({ title, text, children }: { title: string; text?: string; children?: ReactNode }) {
  return (
    <div className="state state-empty">
      <h2 className="state-title">{title}</h2>
      {text ? <p className="state-text">{text}</p> : null}
      {children}
    </div>
  );
}
