/**
 * Upload a model's additional files (images, thumbnails, assets) or its camera metadata (with the
 * upload stages and the camera metadata checks) through the shared workflows; photos are checked
 * and a thumbnail made with the browser's content platform.
 */
import { useCallback, useMemo } from 'react';
import {
  uploadAdditionalFiles,
  uploadCameraMetadata,
  type AdditionalFileKind,
  type AdditionalUploadHooks,
} from '@shared/workflows/index.js';
import { useBackend } from '../../../lib/backend-context.js';
import { browserContentPlatform } from '../../../lib/content-platform.js';

type FileKind = Exclude<AdditionalFileKind, 'cameraMetadata'>;

export interface UploadAdditionalFiles {
  files: (modelId: string, kind: FileKind, chosen: File[], hooks: AdditionalUploadHooks) => Promise<{ count: number; folder: string }>;
  cameraMetadata: (
    modelId: string,
    chosen: Array<{ name: string; text: string }>,
    hooks: AdditionalUploadHooks,
  ) => Promise<{ cameras: number }>;
}

export function useUploadAdditionalFiles(): UploadAdditionalFiles {
  const backend = useBackend();
  const files = useCallback<UploadAdditionalFiles['files']>(
    (modelId, kind, chosen, hooks) =>
      uploadAdditionalFiles(
        backend,
        modelId,
        kind,
        chosen.map((file) => ({ source: file, name: file.name })),
        { ...hooks, content: browserContentPlatform() },
      ),
    [backend],
  );
  const cameraMetadata = useCallback<UploadAdditionalFiles['cameraMetadata']>(
    (modelId, chosen, hooks) => uploadCameraMetadata(backend, modelId, chosen, hooks),
    [backend],
  );
  return useMemo(() => ({ files, cameraMetadata }), [files, cameraMetadata]);
}
