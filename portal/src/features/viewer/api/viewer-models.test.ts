import { describe, expect, it } from 'vitest';
import type { CatalogPort } from '@shared/ports/catalog.js';
import type { Model, Project } from '@shared/types.js';
import { createTestBackend } from '../../../components/testing/memory-app.js';
import { makeModel, makeProject } from '../../../components/testing/fixtures.js';
import { findViewerModel, hasSplat, viewerFiles } from './viewer-models.js';

const project = makeProject({ reference_model_id: 'm1' });
const hybrid = makeModel('m1', {
  publicId: 'TWR-1',
  name: 'Tower 2024',
  projectId: 'p1',
  files: { splatPath: 'models/m1/model.ply', splatSize: 10, glbPath: 'models/m1/model.glb', glbSize: 20 },
});
const splat = makeModel('m2', { publicId: 'TWR-2', name: 'Tower 2025', projectId: 'p1', files: { splatPath: 'models/m2/model.splat' } });
const empty = makeModel('m3', { publicId: 'TWR-3', name: 'No files', projectId: 'p1', files: { splatPath: '', glbPath: null } });

/** The catalog of an in-memory backend holding `models` and `projects`, signed in as a user; `failProjects` makes project reads fail. */
function catalogOf(models: Model[], projects: Project[] = [project], { failProjects = false } = {}): CatalogPort {
  const test = createTestBackend('user', { models, projects });
  if (failProjects) test.fail('projects', new Error('permission-denied'));
  return test.backend.catalog;
}

describe('viewer data', () => {
  it('finds a model by publicId with its project', async () => {
    expect(await findViewerModel(catalogOf([hybrid, splat]), 'TWR-2')).toEqual({ model: splat, project });
    expect(await findViewerModel(catalogOf([hybrid]), 'NOPE')).toBeNull();
  });

  it('still shows a model whose project cannot be read', async () => {
    expect(await findViewerModel(catalogOf([hybrid], [project], { failProjects: true }), 'TWR-1')).toEqual({
      model: hybrid,
      project: null,
    });
  });

  it('lists the 3D files, splat first, with names (for the format) and sizes', () => {
    expect(viewerFiles(hybrid)).toEqual([
      { kind: 'splat', path: 'models/m1/model.ply', name: 'model.ply', size: 10 },
      { kind: 'glb', path: 'models/m1/model.glb', name: 'model.glb', size: 20 },
    ]);
    expect(viewerFiles(splat)).toEqual([{ kind: 'splat', path: 'models/m2/model.splat', name: 'model.splat', size: null }]);
    expect(viewerFiles(empty)).toEqual([]);
    expect([hasSplat(hybrid), hasSplat(splat), hasSplat(empty)]).toEqual([true, true, false]);
  });

  it('loads the web-sized copy (SPZ, named model.spz for Spark) when the model has one', () => {
    const withCopy: Model = { ...hybrid, files: { ...hybrid.files, webSplatPath: 'models/m1/model.spz', webSplatSize: 4 } };
    expect(viewerFiles(withCopy)).toEqual([
      { kind: 'splat', path: 'models/m1/model.spz', name: 'model.spz', size: 4 },
      { kind: 'glb', path: 'models/m1/model.glb', name: 'model.glb', size: 20 },
    ]);
    expect(viewerFiles({ ...hybrid, files: { ...hybrid.files, webSplatPath: null } })[0]?.path).toBe('models/m1/model.ply');
    expect(hasSplat(withCopy)).toBe(true);
  });

  it("gives the web-sized splat's preview (model.preview.spz) when the model has one, to be shown first", () => {
    const files = { ...hybrid.files, webSplatPath: 'models/m1/model.spz', webSplatSize: 40 };
    const withPreview: Model = {
      ...hybrid,
      files: { ...files, webSplatPreviewPath: 'models/m1/model.preview.spz', webSplatPreviewSize: 4 },
    };
    expect(viewerFiles(withPreview)[0]).toEqual({
      kind: 'splat',
      path: 'models/m1/model.spz',
      name: 'model.spz',
      size: 40,
      preview: { path: 'models/m1/model.preview.spz', name: 'model.preview.spz', size: 4 },
    });
    expect(viewerFiles({ ...hybrid, files: { ...files, webSplatPreviewPath: null } })[0]).not.toHaveProperty('preview');
    // a preview without a web-sized copy is never used (the original is loaded)
    const original = viewerFiles({ ...hybrid, files: { ...hybrid.files, webSplatPreviewPath: 'models/m1/model.preview.spz' } })[0];
    expect(original).toEqual({ kind: 'splat', path: 'models/m1/model.ply', name: 'model.ply', size: 10 });
  });

  it('loads the web-sized GLB (model.web.glb) when the model has one; a null one means the original', () => {
    const withCopy: Model = { ...hybrid, files: { ...hybrid.files, webGlbPath: 'models/m1/model.web.glb', webGlbSize: 8 } };
    expect(viewerFiles(withCopy)).toEqual([
      { kind: 'splat', path: 'models/m1/model.ply', name: 'model.ply', size: 10 },
      { kind: 'glb', path: 'models/m1/model.web.glb', name: 'model.web.glb', size: 8 },
    ]);
    expect(viewerFiles({ ...hybrid, files: { ...hybrid.files, webGlbPath: null, webGlbSize: null } })[1]?.path).toBe('models/m1/model.glb');
  });
});
