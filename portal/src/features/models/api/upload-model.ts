/**
 * The model-list upload (admin): validated with
 * the shared `validateListUpload`, then created through the shared `addModel` workflow in the
 * chosen project; the model type follows the files (both: hybrid, splat only: splat, GLB only:
 * mesh). Not marked as reference. The workflow checks every file's content with the
 * browser's content platform.
 */
import { useCallback } from 'react';
import { AppError, ErrorCode } from '@shared/errors.js';
import { ValidationMessages } from '@shared/messages.js';
import { inferModelTypeFromFiles } from '@shared/model-type.js';
import { validateListUpload } from '@shared/validation/models.js';
import { addModel } from '@shared/workflows/add-model.js';
import type { Model, ModelType } from '@shared/types.js';
import { useBackend } from '../../../lib/backend-context.js';
import { browserContentPlatform } from '../../../lib/content-platform.js';
import { useSession } from '../../../lib/session.js';

export interface ListUploadForm {
  projectId: string;
  publicId: string;
  name: string;
  splat: File | null;
  glb: File | null;
  /** Aborting cancels the upload (AppError `storage/canceled`; nothing is kept). */
  signal?: AbortSignal;
}

/**
 * The model type the chosen files make (shared `inferModelTypeFromFiles`).
 * @throws AppError `invalid-argument` with the message when there is no file
 */
export function modelTypeForFiles(hasSplat: boolean, hasGlb: boolean): ModelType {
  const type = inferModelTypeFromFiles(hasSplat, hasGlb);
  if (type === null) throw new AppError(ErrorCode.InvalidArgument, ValidationMessages.uploadFileRequired);
  return type;
}

/** Returns an upload function; it throws AppError `invalid-argument` with the message on bad input. */
export function useUploadModel(): (form: ListUploadForm) => Promise<Model> {
  const backend = useBackend();
  const session = useSession();
  const ownerUid = session.status === 'success' ? (session.data?.user.uid ?? null) : null;
  return useCallback(
    async (form) => {
      const checked = validateListUpload({
        publicId: form.publicId,
        name: form.name,
        hasSplat: form.splat !== null,
        hasGlb: form.glb !== null,
      });
      if (!checked.ok) throw new AppError(ErrorCode.InvalidArgument, checked.message);
      const { model } = await addModel(
        backend,
        {
          projectId: form.projectId,
          publicId: checked.value.publicId,
          name: checked.value.name,
          modelType: modelTypeForFiles(form.splat !== null, form.glb !== null),
          setAsReference: false,
          files: {
            ...(form.splat ? { splat: { source: form.splat, name: form.splat.name } } : {}),
            ...(form.glb ? { glb: { source: form.glb, name: form.glb.name } } : {}),
          },
        },
        { ownerUid, content: browserContentPlatform(), ...(form.signal ? { signal: form.signal } : {}) },
      );
      return model;
    },
    [backend, ownerUid],
  );
}
