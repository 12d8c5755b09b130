/**
 * The findings of a project's models the user can open (for the findings report), through the shared
 * workflow `listProjectAnnotations` (one query per model: the rules let a user read the findings
 * of the models they can open only). Read again whenever the models or their finding counts change
 * (the models are live, and a finding's create or delete changes its model's count in the same write).
 */
import type { Annotation, Model } from '@shared/types.js';
import { listProjectAnnotations } from '@shared/workflows/index.js';
import { useBackend } from '../../../lib/backend-context.js';
import { usePromise, type Resource } from '../../../lib/resource.js';

/**
 * @param models the project's models as the user sees them (null while they load)
 * @returns the findings, by model then number
 */
export function useProjectFindings(models: readonly Model[] | null): Resource<Annotation[]> {
  const { catalog } = useBackend();
  const key =
    models === null
      ? null
      : `findings:${models.map((m) => `${m.id}#${m.metadata?.annotationsCount ?? 0}#${m.metadata?.annotationsSeq ?? 0}`).join(',')}`;
  return usePromise(key, () =>
    listProjectAnnotations(
      catalog,
      (models ?? []).map((m) => m.id),
    ),
  );
}
