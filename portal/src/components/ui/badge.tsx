import type { ReactNode } from 'react';

export type BadgeTone = 'green' | 'blue' | 'gray' | 'orange' | 'purple' | 'amber';

/** A small rounded label. */
export function Badge({ tone = 'gray', children, className }: { tone?: BadgeTone; children: ReactNode; className?: string }) {
  return <span className={`badge badge-${tone}${className ? ` ${className}` : ''}`}>{children}</span>;
}
