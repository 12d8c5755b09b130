/**
 * The current files of a model (SPEC.md §2 Model management screen, §9 loading progress): the
 * shared `listModelFiles` with its (loaded, total) progress. A new model shows the loading
 * progress; `reload()` (after an upload or a delete) keeps the table until the new list is in.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { FileEntry } from '@shared/types.js';
import { listModelFiles } from '@shared/workflows/index.js';
import { useBackend } from '../../../lib/backend-context.js';

export interface ModelFiles {
  status: 'loading' | 'ready' | 'error';
  entries: FileEntry[];
  loaded: number;
  total: number;
}

const LOADING: ModelFiles = { status: 'loading', entries: [], loaded: 0, total: 0 };

export function useModelFiles(modelId: string | null): { files: ModelFiles; reload: () => void } {
  const backend = useBackend();
  const [files, setFiles] = useState<ModelFiles>(LOADING);
  const [revision, setRevision] = useState(0);
  const loadedFor = useRef<string | null>(null);

  useEffect(() => {
    if (modelId === null) return;
    let active = true;
    // A new selection shows the loading progress; a reload of the same model keeps the table.
    if (loadedFor.current !== modelId) setFiles(LOADING);
    loadedFor.current = modelId;
    listModelFiles(backend, modelId, (loaded, total) => {
      if (active) setFiles((f) => ({ ...f, loaded, total }));
    }).then(
      (entries) => active && setFiles({ status: 'ready', entries, loaded: entries.length, total: entries.length }),
      (error: unknown) => {
        console.error(error);
        if (active) setFiles({ status: 'error', entries: [], loaded: 0, total: 0 });
      },
    );
    return () => {
      active = false;
    };
  }, [backend, modelId, revision]);

  const reload = useCallback(() => setRevision((r) => r + 1), []);
  return { files, reload };
}
