/**
 * The findings of one model for the viewer: a live list (the catalog port's
 * subscription on `annotations` where `modelId ==`, so a finding added in another window
 * appears), the writes over the shared workflows (`shared/workflows/annotations.ts`: create with
 * the model's count and number in one batch, edit, delete), and who may do what in the UI by the
 * documented rule (docs/ARCHITECTURE.md "Findings"; both backends enforce it, the UI only hides
 * what would be refused).
 */
import { useMemo } from 'react';
import { readableFinding, type AnnotationInput, type AnnotationValues } from '@shared/annotations.js';
import type { AuthUser } from '@shared/ports/identity.js';
import { findingRights, type FindingRights } from '@shared/roles.js';
import type { Annotation, FindingChangeRegion, Role } from '@shared/types.js';
import { createAnnotation, deleteAnnotation, updateAnnotation } from '@shared/workflows/annotations.js';
import { useBackend } from '../../../lib/backend-context.js';
import { useSubscription, type Resource } from '../../../lib/resource.js';

/**
 * The findings of a model, live, by number (F-1, F-2…), each read through `readableFinding` (a
 * malformed stored finding is listed with what it has and never breaks the panel or the markers).
 * @param modelId the model's id (its uuid), or null while the model is not known (stays loading)
 */
export function useModelAnnotations(modelId: string | null): Resource<Annotation[]> {
  const { catalog } = useBackend();
  return useSubscription<Annotation[]>(modelId === null ? null : `annotations:${modelId}`, (onNext, onError) =>
    catalog.subscribe(
      'annotations',
      { where: [['modelId', '==', modelId as string]] },
      (docs) => onNext(docs.map(readableFinding).sort((a, b) => a.seq - b.seq)),
      onError,
    ),
  );
}

/**
 * What the signed-in account may do with findings: `findingRights` of shared/roles.ts (the
 * documented rule, decided by the role table), for the account's role (the service key acts as
 * admin).
 * @param user the signed-in account (null: signed out, nothing allowed)
 * @param role its role
 */
export function accountFindingRights(user: AuthUser | null, role: Role | null): FindingRights {
  return findingRights(user?.service === true ? 'admin' : role, user?.uid ?? null);
}

/** The writes of the findings panel, bound to the backend and the author. */
export interface FindingWrites {
  /** Creates a finding; `options.changeRegion`: the change region it was made from. */
  create: (input: AnnotationInput, options?: { changeRegion?: FindingChangeRegion | null }) => Promise<Annotation>;
  update: (id: string, input: AnnotationInput) => Promise<AnnotationValues>;
  remove: (id: string) => Promise<Annotation>;
}

/**
 * The findings writes of one model through the shared workflows.
 * @param modelId the model's id
 * @param author the signed-in account, written as the finding's author (users must write their own uid)
 */
export function useFindingWrites(modelId: string, author: AuthUser): FindingWrites {
  const { catalog } = useBackend();
  const { uid, email } = author;
  return useMemo(
    () => ({
      create: (input, options) =>
        createAnnotation(catalog, modelId, input, { uid, email }, { changeRegion: options?.changeRegion ?? null }),
      update: (id, input) => updateAnnotation(catalog, id, input),
      remove: (id) => deleteAnnotation(catalog, id),
    }),
    [catalog, modelId, uid, email],
  );
}
