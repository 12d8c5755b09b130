/**
 * The searchable, sortable pick list (sort buttons ID / Name / Latest) of the left column of the
 * project and model management screens. For screen readers: the sort buttons say which is on
 * (aria-pressed), the list is named, and the selected item's button is marked aria-current.
 */
import { useMemo, useState, type ReactNode } from 'react';
import type { ListSort } from '@shared/order.js';
import './forms.css';

/** Labels of the list sort buttons, in their order. */
export const SORT_LABELS: Record<ListSort, string> = { id: 'ID', name: 'Name', latest: 'Latest' };

/** The search and sort state of a pick list and the items it shows, to spread into `<PickList>`. */
export interface PickListState<T> {
  term: string;
  onTerm: (term: string) => void;
  sort: ListSort;
  onSort: (sort: ListSort) => void;
  items: readonly T[];
}

/**
 * Search and sort state over `all` (sorted by ID first): `search(all, term)` filters, `sortBy(found, sort)`
 * orders. Pass module-level functions (they key the memo).
 */
export function usePickList<T>(
  all: readonly T[],
  search: (items: readonly T[], term: string) => T[],
  sortBy: (items: readonly T[], sort: ListSort) => T[],
): PickListState<T> {
  const [term, setTerm] = useState('');
  const [sort, setSort] = useState<ListSort>('id');
  const items = useMemo(() => sortBy(search(all, term), sort), [all, search, sortBy, term, sort]);
  return { term, onTerm: setTerm, sort, onSort: setSort, items };
}

interface PickListProps<T extends { id: string }> {
  /** What the list holds, lower case plural ('projects', 'models'): names the search box and groups. */
  noun: string;
  term: string;
  onTerm: (term: string) => void;
  sort: ListSort;
  onSort: (sort: ListSort) => void;
  items: readonly T[];
  selectedId: string | null;
  onSelect: (id: string) => void;
  title: (item: T) => ReactNode;
  subtitle: (item: T) => ReactNode;
  /** Extra per-row buttons. */
  actions?: (item: T) => ReactNode;
}

/** The left column: search box, sort buttons and the list of items to pick from. */
export function PickList<T extends { id: string }>({
  noun,
  term,
  onTerm,
  sort,
  onSort,
  items,
  selectedId,
  onSelect,
  title,
  subtitle,
  actions,
}: PickListProps<T>) {
  const label = noun.charAt(0).toUpperCase() + noun.slice(1);
  return (
    <aside className="panel span-1" aria-label={label}>
      <input
        type="search"
        placeholder={`Search ${noun}...`}
        aria-label={`Search ${noun}`}
        value={term}
        onChange={(e) => onTerm(e.target.value)}
      />
      <div className="sort-buttons" role="group" aria-label={`Sort ${noun}`}>
        {(Object.keys(SORT_LABELS) as ListSort[]).map((key) => (
          <button
            key={key}
            type="button"
            className={`button button-small ${sort === key ? 'button-primary' : 'button-ghost'}`}
            aria-pressed={sort === key}
            onClick={() => onSort(key)}
          >
            {SORT_LABELS[key]}
          </button>
        ))}
      </div>
      <ul className="pick-list" aria-label={label}>
        {items.map((item) => (
          <li key={item.id} className={item.id === selectedId ? 'selected' : undefined}>
            <button
              type="button"
              className="pick"
              aria-current={item.id === selectedId ? 'true' : undefined}
              onClick={() => onSelect(item.id)}
            >
              <span className="pick-title">{title(item)}</span>
              <span className="muted small">{subtitle(item)}</span>
            </button>
            {actions ? <span className="pick-actions">{actions(item)}</span> : null}
          </li>
        ))}
      </ul>
    </aside>
  );
}
