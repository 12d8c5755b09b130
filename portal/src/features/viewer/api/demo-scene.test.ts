// The landing page's demo scene: its read-only backend finds the two captures and their project,
// links their files to the portal's own static files (which ship under public/demo with the
// sizes the records give), and refuses every write.
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ErrorCode, isAppError } from '@shared/errors.js';
import { createTestBackend } from '../../../components/testing/memory-app.js';
import { DEMO_SCENE, createDemoBackend } from './demo-scene.js';
import { findViewerModel, viewerFiles } from './viewer-models.js';

/** The portal's static files (Vitest runs from the repository root). */
const publicDir = join(process.cwd(), 'portal/public/');

describe('the demo scene', () => {
  const demo = createDemoBackend(createTestBackend(null).backend, '/');

  it('finds the capture and its reference, in their project, with files served by the portal', async () => {
    const capture = await findViewerModel(demo.catalog, DEMO_SCENE.capture);
    const reference = await findViewerModel(demo.catalog, DEMO_SCENE.reference);
    expect(capture?.project?.name).toBe('Demo Lattice Tower');
    expect(capture?.project?.reference_model_id).toBe(reference?.model.id);
    expect(reference?.model.isReference).toBe(true);
    for (const found of [capture, reference]) {
      const [file, ...others] = viewerFiles(found!.model);
      expect(others).toEqual([]);
      expect(file?.kind).toBe('splat');
      const url = await demo.files.getDownloadUrl(file!.path);
      expect(url).toMatch(/^\/demo\/tower-202[45]\.spz$/);
      // the shipped file is there, with the size the record gives
      expect(statSync(`${publicDir}${url.slice(1)}`).size).toBe(file!.size);
    }
    expect(await findViewerModel(demo.catalog, 'TWR-001-2024-05')).toBeNull();
  });

  it('is read-only and links nothing outside the demo folder', async () => {
    const refused = await demo.catalog.add('annotations', {} as never).catch((error: unknown) => error);
    expect(isAppError(refused, ErrorCode.PermissionDenied)).toBe(true);
    const outside = await demo.files.getDownloadUrl('models/x/model.ply').catch((error: unknown) => error);
    expect(isAppError(outside, ErrorCode.ObjectNotFound)).toBe(true);
    expect(await demo.catalog.query('annotations', { where: [['modelId', '==', 'demo-tower-2025']] })).toEqual([]);
  });
});
