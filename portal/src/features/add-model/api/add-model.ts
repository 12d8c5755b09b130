/**
 * Add a model to a project (with the add-model upload stages and "reference model on add")
 * through the shared `addModel` workflow, owned by the signed-in admin, with the
 * browser's content platform (photo decoding, thumbnails).
 */
import { useCallback } from 'react';
import { addModel, type AddModelHooks, type AddModelInput } from '@shared/workflows/index.js';
import { useBackend } from '../../../lib/backend-context.js';
import { browserContentPlatform } from '../../../lib/content-platform.js';

export function useAddModel(): (input: AddModelInput, hooks: AddModelHooks) => Promise<unknown> {
  const backend = useBackend();
  return useCallback(
    (input, hooks) =>
      addModel(backend, input, { ...hooks, ownerUid: backend.identity.currentUser()?.uid ?? null, content: browserContentPlatform() }),
    [backend],
  );
}
