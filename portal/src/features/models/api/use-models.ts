/** Live list of all models ordered by publicId ascending. */
import { sortModelsByPublicId } from '@shared/order.js';
import type { Model } from '@shared/types.js';
import { useBackend } from '../../../lib/backend-context.js';
import { useSubscription, type Resource } from '../../../lib/resource.js';

export function useModels(): Resource<Model[]> {
  const { catalog } = useBackend();
  return useSubscription<Model[]>('models', (onNext, onError) =>
    catalog.subscribe('models', { orderBy: [['publicId', 'asc']] }, (docs) => onNext(sortModelsByPublicId(docs)), onError),
  );
}
