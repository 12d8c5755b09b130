/**
 * The current files of a model, with loading progress: the
 * model's record read again, then the shared `listFilesOfModel` with its (loaded, total)
 * progress. A new model shows the loading progress; `reload()` (after an upload or a delete)
 * keeps the table until the new list is in. A failure says which read failed: the model's
 * record ('Failed to fetch model information.') or its files ('Failed to load model files.
 * Please try again.').
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { AppError, ErrorCode } from '@shared/errors.js';
import type { FileEntry, Model } from '@shared/types.js';
import { listFilesOfModel } from '@shared/workflows/index.js';
import { useBackend } from '../../../lib/backend-context.js';

export interface ModelFiles {
  status: 'loading' | 'ready' | 'error';
  entries: FileEntry[];
  loaded: number;
  total: number;
  /** With status 'error': which read failed, the model's record or the listing of its files. */
  failed?: 'model' | 'files';
}

const LOADING: ModelFiles = { status: 'loading', entries: [], loaded: 0, total: 0 };

/** The files of the model `modelId` (null: none selected), and a reload after a change. */
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
    const fail = (failed: 'model' | 'files', error: unknown) => {
      console.error(error);
      if (active) setFiles({ status: 'error', entries: [], loaded: 0, total: 0, failed });
    };
    void (async () => {
      let model: Model | null;
      try {
        model = await backend.catalog.get('models', modelId);
        if (model === null) throw new AppError(ErrorCode.NotFound, `Model ${modelId} not found`, { context: { modelId } });
      } catch (error) {
        return fail('model', error);
      }
      try {
        const entries = await listFilesOfModel(backend, model, (loaded, total) => {
          if (active) setFiles((f) => ({ ...f, loaded, total }));
        });
        if (active) setFiles({ status: 'ready', entries, loaded: entries.length, total: entries.length });
      } catch (error) {
        fail('files', error);
      }
    })();
    return () => {
      active = false;
    };
  }, [backend, modelId, revision]);

  const reload = useCallback(() => setRevision((r) => r + 1), []);
  return { files, reload };
}
