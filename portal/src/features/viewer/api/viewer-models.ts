/**
 * What the viewer reads from the backend, through the ports only: a model by its publicId (the
 * server never returns a hidden model to a non-admin, so a hidden model is simply not found), its
 * project and the 3D files it has. Download links come from the file-store port
 * (`files.getDownloadUrl`) in the viewport.
 */
import { fileNameOf, WEB_GLB_FILE_NAME, WEB_SPLAT_FILE_NAME, WEB_SPLAT_PREVIEW_FILE_NAME } from '@shared/paths.js';
import type { CatalogPort } from '@shared/ports/catalog.js';
import type { Model, Project } from '@shared/types.js';

/** A model as the viewer shows it: the model and its project (null when it has none or it cannot be read). */
export interface ViewerModel {
  model: Model;
  project: Project | null;
}

/**
 * Finds a model by publicId (the viewer link's `?id=`), and its project by `model.projectId`.
 * @param catalog the catalog port of the signed-in caller
 * @param publicId the model's publicId, exactly as stored
 * @returns the model and its project, or null when the caller may not see a model with that
 * publicId (none, or hidden and the caller is not an admin)
 * @throws AppError from the catalog (`permission-denied`, `network`…)
 */
export async function findViewerModel(catalog: CatalogPort, publicId: string): Promise<ViewerModel | null> {
  const [model] = await catalog.query('models', { where: [['publicId', '==', publicId]], limit: 1 });
  if (!model) return null;
  // The project only names the model's structure in the info panel: a failed read shows '—'.
  const project = model.projectId ? await catalog.get('projects', model.projectId).catch(() => null) : null;
  return { model, project };
}

/** One file of a model the viewer loads. */
export interface ViewerFile {
  kind: 'splat' | 'glb';
  /** Storage path, e.g. `models/{uuid}/model.ply`. */
  path: string;
  /** File name (its extension tells Spark the format). */
  name: string;
  /** Size in bytes from the record, when known. */
  size: number | null;
  /**
   * A splat's preview, loaded and shown first (a large capture's `files.webSplatPreviewPath`:
   * its most important Gaussians); this file then replaces it. Absent when there is none.
   */
  preview?: { path: string; name: string; size: number | null };
}

/**
 * The 3D files of a model, splat first: its splat and/or its GLB (files.splatPath,
 * files.glbPath, with splatSize/glbSize in bytes). Empty paths count as absent. A splat with a
 * web-sized copy (`files.webSplatPath`, SPZ) is loaded from the copy, named
 * 'model.spz' so Spark reads it as SPZ; a GLB with a web-sized copy (`files.webGlbPath`: meshopt
 * geometry, which the engine's GLTFLoader decodes with three's MeshoptDecoder, and WebP textures)
 * is loaded from that copy, named 'model.web.glb'. The originals stay where they are for download.
 * A web-sized splat with a preview (`files.webSplatPreviewPath`, made for a capture of more than
 * 400,000 Gaussians) carries it as `preview`, named 'model.preview.spz': the viewer shows it first.
 * @param model the model record
 * @returns the files to load, splat first (empty when it has no 3D file)
 */
export function viewerFiles(model: Model): ViewerFile[] {
  const files: ViewerFile[] = [];
  const { splatPath, glbPath, splatSize, glbSize, webSplatPath, webSplatSize, webGlbPath, webGlbSize } = model.files ?? {};
  const { webSplatPreviewPath, webSplatPreviewSize } = model.files ?? {};
  if (typeof splatPath === 'string' && splatPath !== '') {
    if (typeof webSplatPath === 'string' && webSplatPath !== '')
      files.push({
        kind: 'splat',
        path: webSplatPath,
        name: WEB_SPLAT_FILE_NAME,
        size: typeof webSplatSize === 'number' ? webSplatSize : null,
        ...(typeof webSplatPreviewPath === 'string' && webSplatPreviewPath !== ''
          ? {
              preview: {
                path: webSplatPreviewPath,
                name: WEB_SPLAT_PREVIEW_FILE_NAME,
                size: typeof webSplatPreviewSize === 'number' ? webSplatPreviewSize : null,
              },
            }
          : {}),
      });
    else
      files.push({ kind: 'splat', path: splatPath, name: fileNameOf(splatPath), size: typeof splatSize === 'number' ? splatSize : null });
  }
  if (typeof glbPath === 'string' && glbPath !== '') {
    if (typeof webGlbPath === 'string' && webGlbPath !== '')
      files.push({ kind: 'glb', path: webGlbPath, name: WEB_GLB_FILE_NAME, size: typeof webGlbSize === 'number' ? webGlbSize : null });
    else files.push({ kind: 'glb', path: glbPath, name: fileNameOf(glbPath), size: typeof glbSize === 'number' ? glbSize : null });
  }
  return files;
}

/** Whether a model has a splat (its default up axis is then y-down). */
export function hasSplat(model: Model): boolean {
  return viewerFiles(model).some((file) => file.kind === 'splat');
}
