/** Model counts per project (SPEC.md §4 project badge, §9 featured rule, map stats). */
import type { Model } from '../../../../shared/types.js';

/** Model counts per project id, from the models the caller can see. */
export function countModelsByProject(models: readonly Pick<Model, 'projectId'>[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const model of models) {
    if (model.projectId) counts.set(model.projectId, (counts.get(model.projectId) ?? 0) + 1);
  }
  return counts;
}
