import type { ReactNode } from 'react';

/**
 * A centred message with a title, text and optional action (empty lists, not found, login
 * required). `level` 1 when the message is the whole screen (it is then the page's one h1).
 */
export function EmptyState({ title, text, level = 2, children }: { title: string; text?: string; level?: 1 | 2; children?: ReactNode }) {
  const Heading = level === 1 ? 'h1' : 'h2';
  return (
    <div className="state state-empty">
      <Heading className="state-title">{title}</Heading>
      {text ? <p className="state-text">{text}</p> : null}
      {children}
    </div>
  );
}
