/**
 * The current files table of the model management screen: 25 rows per page,
 * at most 5 page buttons, a search box when there are more than 10 files, per-file delete (main
 * files refused with the catalogue's message) and delete all (images, thumbnails, assets and camera
 * metadata only, after 'Are you sure you want to delete all N files?').
 */
import { useMemo, useRef, useState } from 'react';
import { FILES_TABLE_MAX_PAGE_BUTTONS, FILES_TABLE_PAGE_SIZE, showsFileSearch } from '@shared/constants.js';
import { formatBytes } from '@shared/format.js';
import { ModelMessages, ValidationMessages, confirmDeleteAllFiles, filesDeleted } from '@shared/messages.js';
import { fileNameOf, isMainModelFile } from '@shared/paths.js';
import { searchFileEntries } from '@shared/search.js';
import type { FileEntry } from '@shared/types.js';
import { deletableFiles } from '@shared/workflows/model-files-delete.js';
import { LiveBanner } from '../../../components/ui/banner.js';
import { useFocusRecovery } from '../../../components/ui/field.js';
import { useAction } from '../../../hooks/use-action.js';
import '../../../components/ui/stacked-table.css';

/** The page numbers (1-based) of the buttons: at most `max`, centred on `current` where possible. */
export function pageButtons(current: number, totalPages: number, max: number = FILES_TABLE_MAX_PAGE_BUTTONS): number[] {
  const count = Math.min(max, totalPages);
  let start = Math.max(1, current - Math.floor(count / 2));
  start = Math.min(start, totalPages - count + 1);
  return Array.from({ length: count }, (_, i) => start + i);
}

const TYPE_LABELS: Record<FileEntry['type'], string> = {
  splat: 'Splat',
  glb: 'GLB',
  image: 'Image',
  thumbnail: 'Thumbnail',
  cameraMetadata: 'Camera Metadata',
  asset: 'Asset',
};

export interface FilesTableProps {
  entries: readonly FileEntry[];
  onDelete: (path: string) => Promise<void>;
  onDeleteAll: () => Promise<number>;
  /** Asks a yes/no question (window.confirm in the app). */
  confirm: (question: string) => boolean;
}

export function FilesTable({ entries, onDelete, onDeleteAll, confirm }: FilesTableProps) {
  const [term, setTerm] = useState('');
  const [page, setPage] = useState(1);
  const filtered = useMemo(() => searchFileEntries(entries, term), [entries, term]);
  const totalPages = Math.max(1, Math.ceil(filtered.length / FILES_TABLE_PAGE_SIZE));
  const currentPage = Math.min(page, totalPages);
  const rows = filtered.slice((currentPage - 1) * FILES_TABLE_PAGE_SIZE, currentPage * FILES_TABLE_PAGE_SIZE);

  // One action for both deletes: they share the banner and the busy state. Resolves to the number deleted.
  const deletion = useAction(
    async (path: string | null) => {
      if (path === null) return onDeleteAll();
      await onDelete(path);
      return 1;
    },
    {
      success: (deleted, path) => (path === null ? filesDeleted(deleted) : ModelMessages.fileDeleted),
      failure: (error, path) => {
        console.error(error);
        return path === null ? ModelMessages.deleteAllFailed : ModelMessages.deleteFileFailed;
      },
    },
  );
  const busy = deletion.busy;
  // A deleted file's row (and its Delete button) goes away: the table's heading takes the focus.
  const heading = useRef<HTMLHeadingElement>(null);
  useFocusRecovery(entries, () => heading.current);

  function remove(entry: FileEntry) {
    if (busy) return;
    if (isMainModelFile(entry.type)) deletion.fail(ValidationMessages.cannotDeleteMainFiles);
    else if (confirm(`Are you sure you want to delete ${fileNameOf(entry.path)}?`)) void deletion.run(entry.path);
  }

  function removeAll() {
    if (busy) return;
    const count = deletableFiles(entries).length;
    if (count === 0) deletion.fail(ModelMessages.noFilesToDelete);
    else if (confirm(confirmDeleteAllFiles(count))) void deletion.run(null);
  }

  return (
    <section className="panel" aria-label="Current Files">
      <div className="panel-head">
        <h3 className="panel-title" ref={heading} tabIndex={-1}>
          Current Files ({entries.length})
        </h3>
        <button type="button" className="button button-danger button-small" aria-disabled={busy || undefined} onClick={removeAll}>
          Delete All Files
        </button>
      </div>
      <LiveBanner banner={deletion.message} />
      {showsFileSearch(entries.length) ? (
        <input
          type="search"
          aria-label="Search files"
          placeholder="Search files..."
          value={term}
          onChange={(e) => {
            setTerm(e.target.value);
            setPage(1);
          }}
        />
      ) : null}
      <div className="stack-table-box">
        <table className="table stack-table stack-table-inline">
          <caption className="visually-hidden">Current files{totalPages > 1 ? `, page ${currentPage} of ${totalPages}` : ''}</caption>
          <thead>
            <tr>
              <th scope="col">File</th>
              <th scope="col">Type</th>
              <th scope="col">Size</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((entry) => (
              <tr key={entry.path}>
                <td className="mono" title={entry.path} data-label="File">
                  {fileNameOf(entry.path)}
                </td>
                <td data-label="Type">{TYPE_LABELS[entry.type]}</td>
                <td data-label="Size">{entry.size === undefined ? '—' : formatBytes(entry.size)}</td>
                <td data-label="">
                  <button
                    type="button"
                    className="button button-ghost button-small"
                    aria-disabled={busy || undefined}
                    aria-label={`Delete ${fileNameOf(entry.path)}`}
                    onClick={() => remove(entry)}
                  >
                    Delete
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {totalPages > 1 ? (
        <nav className="pagination" aria-label="Files pages">
          <button
            type="button"
            className="button button-ghost button-small"
            disabled={currentPage === 1}
            onClick={() => setPage(currentPage - 1)}
          >
            Previous
          </button>
          {pageButtons(currentPage, totalPages).map((n) => (
            <button
              key={n}
              type="button"
              className={`button button-small ${n === currentPage ? 'button-primary' : 'button-ghost'}`}
              aria-current={n === currentPage ? 'page' : undefined}
              onClick={() => setPage(n)}
            >
              {n}
            </button>
          ))}
          <button
            type="button"
            className="button button-ghost button-small"
            disabled={currentPage === totalPages}
            onClick={() => setPage(currentPage + 1)}
          >
            Next
          </button>
        </nav>
      ) : null}
    </section>
  );
}
