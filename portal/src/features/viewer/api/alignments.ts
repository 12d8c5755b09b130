/**
 * The alignment of a compared pair of captures for the viewer: a live
 * read of `alignments/{referenceModelId}__{modelId}` (so a saved or removed alignment shows at
 * once), and the writes over the shared workflows (`shared/workflows/alignments.ts`: save
 * 'same-frame' or '3-point', accept the change map's registration as an 'icp' alignment, reset
 * one to what it replaced, remove, carry a finding over). Admins write alignments; anyone who
 * may create findings may carry one over (docs/ARCHITECTURE.md "Findings").
 */
import { useMemo } from 'react';
import type { AlignmentPair } from '@shared/alignment.js';
import { isAlignmentMatrix } from '@shared/alignment.js';
import type { AuthUser } from '@shared/ports/identity.js';
import type { Alignment, Annotation } from '@shared/types.js';
import { acceptRegistration, carryOverAnnotation, deleteAlignment, resetAlignment, saveAlignment } from '@shared/workflows/alignments.js';
import { useBackend } from '../../../lib/backend-context.js';
import { useSubscription, type Resource } from '../../../lib/resource.js';

/**
 * The stored alignment of a model with its reference model, live; null when there is none (or its
 * matrix is not a valid alignment matrix).
 * @param referenceModelId the reference model's id, or null while unknown (stays loading)
 * @param modelId the other model's id, or null while unknown
 */
export function useAlignment(referenceModelId: string | null, modelId: string | null): Resource<Alignment | null> {
  const { catalog } = useBackend();
  const key = referenceModelId !== null && modelId !== null ? `alignment:${referenceModelId}__${modelId}` : null;
  return useSubscription<Alignment | null>(key, (onNext, onError) =>
    catalog.subscribe(
      'alignments',
      {
        where: [
          ['referenceModelId', '==', referenceModelId as string],
          ['modelId', '==', modelId as string],
        ],
      },
      (docs) => onNext(docs.find((doc) => isAlignmentMatrix(doc.matrix)) ?? null),
      onError,
    ),
  );
}

/** The alignment writes of a compared pair, bound to the backend and the signed-in account. */
export interface AlignmentWrites {
  /** Declares both captures in one frame (the identity). */
  saveSameFrame: () => Promise<Alignment>;
  /** Saves the similarity solved from 3 picked pairs (model → reference). */
  saveThreePoint: (pairs: readonly AlignmentPair[]) => Promise<Alignment>;
  /** Makes the pair's change map's registration its alignment ('icp'), keeping what it replaces for a reset. */
  acceptRegistration: () => Promise<Alignment>;
  /** Puts an 'icp' alignment back to what it replaced (resolves null when that was none: the alignment is removed). */
  resetAlignment: () => Promise<Alignment | null>;
  /** Removes the alignment (carried findings stay). */
  remove: () => Promise<void>;
  /** Carries a finding of either model over to the other one as a follow-up. */
  carryOver: (original: Annotation, toModelId: string, alignment: Alignment) => Promise<Annotation>;
}

/**
 * The alignment writes of a model and its reference model.
 * @param referenceModelId the reference model's id
 * @param modelId the other model's id
 * @param user the signed-in account (the alignment's `created_by`, the follow-up's author)
 */
export function useAlignmentWrites(referenceModelId: string, modelId: string, user: AuthUser): AlignmentWrites {
  const { catalog } = useBackend();
  const { uid, email } = user;
  return useMemo(
    () => ({
      saveSameFrame: () => saveAlignment(catalog, { referenceModelId, modelId, method: 'same-frame', createdBy: uid }),
      saveThreePoint: (pairs) => saveAlignment(catalog, { referenceModelId, modelId, method: '3-point', pairs, createdBy: uid }),
      acceptRegistration: () => acceptRegistration(catalog, { referenceModelId, modelId, createdBy: uid }),
      resetAlignment: () => resetAlignment(catalog, referenceModelId, modelId, uid),
      remove: () => deleteAlignment(catalog, referenceModelId, modelId),
      carryOver: (original, toModelId, alignment) => carryOverAnnotation(catalog, original, toModelId, alignment, { uid, email }),
    }),
    [catalog, referenceModelId, modelId, uid, email],
  );
}
