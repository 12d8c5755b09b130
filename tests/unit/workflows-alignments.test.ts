/**
 * The alignment workflows that carry findings across captures (shared/workflows/alignments.ts) on the
 * in-memory backend as an admin: save ('same-frame' and '3-point'; 'icp' refused, it is accepted
 * from a change map: tests/support/change-maps-contract.ts), read, delete, and carry a
 * finding over (points mapped by the inverse alignment, the follow-up link, the count kept, a
 * second carry-over refused).
 */
import { describe, expect, it } from 'vitest';
import { createMemoryBackendAs } from '@shared/adapters/memory/index.js';
import { AlignmentMessages, applyAlignment } from '@shared/alignment.js';
import { ErrorCode, isAppError, type AppError } from '@shared/errors.js';
import type { ModelPoint } from '@shared/types.js';
import { carryOverAnnotation, createAnnotation, deleteAlignment, getAlignment, saveAlignment } from '@shared/workflows/index.js';

async function failure(promise: Promise<unknown>): Promise<AppError> {
  try {
    await promise;
  } catch (error) {
    if (isAppError(error)) return error;
    throw error;
  }
  throw new Error('expected a rejection');
}

/** Two captures of project P1: REF (captured Jun 1, 2024) and NEW. */
async function seeded() {
  const { catalog } = createMemoryBackendAs('admin');
  await catalog.batch([
    { op: 'create', collection: 'projects', id: 'P1', data: { name: 'Bridge', reference_model_id: 'ref' } },
    {
      op: 'create',
      collection: 'models',
      id: 'ref',
      data: { uuid: 'ref', name: 'Bridge 2024', publicId: 'BR-2024', projectId: 'P1', metadata: { captureDate: '2024-06-01' }, files: {} },
    },
    {
      op: 'create',
      collection: 'models',
      id: 'new',
      data: { uuid: 'new', name: 'Bridge 2025', publicId: 'BR-2025', projectId: 'P1', metadata: {}, files: {} },
    },
  ]);
  return catalog;
}

const admin = { uid: 'admin-uid', email: 'admin@demo.lab' };

describe('alignments between captures and carrying findings over', () => {
  it("saves 'same-frame' as the identity and '3-point' as the solved matrix; reads and deletes it", async () => {
    const catalog = await seeded();
    const same = await saveAlignment(catalog, {
      referenceModelId: 'ref',
      modelId: 'new',
      method: 'same-frame',
      pairs: [],
      createdBy: 'admin-uid',
    });
    expect(same.id).toBe('ref__new');
    expect((await getAlignment(catalog, 'ref', 'new'))?.matrix).toEqual([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]);
    expect(await getAlignment(catalog, 'new', 'ref')).toBeNull();
    // Model frame = reference frame scaled by 2 and moved by (1, 0, 0).
    const toReference = (p: ModelPoint) => ({ x: 2 * p.x + 1, y: 2 * p.y, z: 2 * p.z });
    const modelPoints = [
      { x: 0, y: 0, z: 0 },
      { x: 1, y: 0, z: 0 },
      { x: 0, y: 1, z: 0.5 },
    ];
    const pairs = modelPoints.map((model) => ({ model, reference: toReference(model) }));
    const solved = await saveAlignment(catalog, {
      referenceModelId: 'ref',
      modelId: 'new',
      method: '3-point',
      pairs,
      createdBy: 'admin-uid',
    });
    const stored = await getAlignment(catalog, 'ref', 'new');
    expect(stored?.method).toBe('3-point');
    expect(stored?.pairs).toEqual(pairs);
    expect(stored?.projectId).toBe('P1');
    expect(stored?.rmsError).toBeLessThan(1e-12);
    expect(stored?.matrix).toEqual(solved.matrix);
    const mapped = applyAlignment(stored!.matrix, { x: 3, y: -1, z: 2 });
    expect(mapped.x).toBeCloseTo(7, 12);
    expect(mapped.y).toBeCloseTo(-2, 12);
    expect(mapped.z).toBeCloseTo(4, 12);
    await deleteAlignment(catalog, 'ref', 'new');
    expect(await getAlignment(catalog, 'ref', 'new')).toBeNull();
  });

  it('refuses bad input and writes nothing', async () => {
    const catalog = await seeded();
    const a = { x: 0, y: 0, z: 0 };
    const b = { x: 1, y: 1, z: 1 };
    const c = { x: 2, y: 2, z: 2 };
    const collinear = [a, b, c].map((p) => ({ model: p, reference: p }));
    expect(
      (await failure(saveAlignment(catalog, { referenceModelId: 'ref', modelId: 'ref', method: 'same-frame', createdBy: 'x' }))).message,
    ).toBe(AlignmentMessages.sameModel);
    expect(
      (
        await failure(
          saveAlignment(catalog, { referenceModelId: 'ref', modelId: 'new', method: '3-point', pairs: collinear, createdBy: 'x' }),
        )
      ).message,
    ).toBe(AlignmentMessages.collinearModel);
    expect(
      (
        await failure(
          saveAlignment(catalog, {
            referenceModelId: 'ref',
            modelId: 'new',
            method: '3-point',
            pairs: collinear.slice(0, 2),
            createdBy: 'x',
          }),
        )
      ).message,
    ).toBe(AlignmentMessages.pairCount);
    const missing = await failure(
      saveAlignment(catalog, { referenceModelId: 'ref', modelId: 'gone', method: 'same-frame', createdBy: 'x' }),
    );
    expect(missing.code).toBe(ErrorCode.NotFound);
    // an 'icp' alignment comes from a change map's registration (acceptRegistration), never by hand
    expect(
      (await failure(saveAlignment(catalog, { referenceModelId: 'ref', modelId: 'new', method: 'icp', createdBy: 'x' }))).message,
    ).toBe(AlignmentMessages.icpByHand);
    expect(await catalog.query('alignments')).toEqual([]);
  });

  it('carries a reference finding over to the model: mapped by the inverse, linked, counted; a second time refused', async () => {
    const catalog = await seeded();
    const original = await createAnnotation(
      catalog,
      'ref',
      {
        title: 'Spalling at pier 2',
        note: 'Edge of the deck',
        category: 'spalling',
        severity: 4,
        status: 'monitoring',
        points: [{ x: 5, y: 2, z: -4 }],
        photos: ['IMG_1.jpg'],
      },
      admin,
    );
    // model → reference: x2 and +1 on x, so reference (5, 2, −4) is model (2, 1, −2).
    const pairs = [
      { x: 0, y: 0, z: 0 },
      { x: 1, y: 0, z: 0 },
      { x: 0, y: 0, z: 1 },
    ].map((model) => ({ model, reference: { x: 2 * model.x + 1, y: 2 * model.y, z: 2 * model.z } }));
    const alignment = await saveAlignment(catalog, {
      referenceModelId: 'ref',
      modelId: 'new',
      method: '3-point',
      pairs,
      createdBy: 'admin-uid',
    });
    const followUp = await carryOverAnnotation(catalog, original, 'new', alignment, admin);
    expect(followUp.id).toBe('new_1');
    expect(followUp.modelId).toBe('new');
    expect(followUp.followUpOf).toEqual({ annotationId: original.id, modelId: 'ref' });
    expect(followUp.title).toBe('Spalling at pier 2');
    expect(followUp.status).toBe('open');
    expect(followUp.severity).toBe(4);
    expect(followUp.photos).toEqual([]);
    expect(followUp.note).toBe('Follow-up of F-1 (Jun 1, 2024)');
    expect(followUp.points[0]!.x).toBeCloseTo(2, 12);
    expect(followUp.points[0]!.y).toBeCloseTo(1, 12);
    expect(followUp.points[0]!.z).toBeCloseTo(-2, 12);
    const stored = await catalog.get('annotations', 'new_1');
    expect(stored?.followUpOf).toEqual({ annotationId: 'ref_1', modelId: 'ref' });
    expect((await catalog.get('models', 'new'))?.metadata?.annotationsCount).toBe(1);
    expect((await catalog.get('models', 'ref'))?.metadata?.annotationsCount).toBe(1);
    const again = await failure(carryOverAnnotation(catalog, original, 'new', alignment, admin));
    expect(again.code).toBe(ErrorCode.AlreadyExists);
    expect(again.message).toBe(AlignmentMessages.alreadyCarried);
    expect(await catalog.count('annotations', { where: [['modelId', '==', 'new']] })).toBe(1);
    // Not a model of the pair.
    expect((await failure(carryOverAnnotation(catalog, original, 'ref', alignment, admin))).message).toBe(AlignmentMessages.notInPair);
    // The other way (model → reference) maps by the matrix itself; no capture date: the Public ID.
    const back = await carryOverAnnotation(catalog, followUp, 'ref', alignment, admin);
    expect(back.points[0]!.x).toBeCloseTo(5, 12);
    expect(back.points[0]!.z).toBeCloseTo(-4, 12);
    expect(back.note).toBe('Follow-up of F-1 (BR-2025)');
  });
});
