/**
 * Findings across captures (useCompareFindings and CompareFindingsPanel) in jsdom on the in-memory backend,
 * with the real hooks: the 3-point alignment (picks handed to the viewports' onPick, a collinear
 * triple refused with its message and Save unavailable, the RMS error, the saved matrix), 'Same
 * frame', the carried markers mapped into the model and gone once carried over, the follow-up
 * link selecting the original, 'Remove alignment', and a user who sees no align buttons.
 */
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AlignmentMessages, applyAlignment } from '@shared/alignment.js';
import type { Alignment, Annotation, ModelPoint, Role } from '@shared/types.js';
import { createTestBackend, MemoryApp, type TestBackend } from '../../../components/testing/memory-app.js';
import { makeModel } from '../../../components/testing/fixtures.js';
import { useCompareFindings, type CompareInspection } from '../hooks/use-compare-findings.js';
import { CompareFindingsPanel } from './compare-findings-panel.js';

const reference = makeModel('ref', {
  publicId: 'BR-2024',
  name: 'Bridge 2024',
  projectId: 'p1',
  metadata: { captureDate: '2024-06-01', annotationsCount: 1, annotationsSeq: 1 },
  files: { glbPath: 'models/ref/model.glb' },
});
const later = makeModel('new', {
  publicId: 'BR-2025',
  name: 'Bridge 2025',
  projectId: 'p1',
  metadata: { captureDate: '2025-06-01', annotationsCount: 0, annotationsSeq: 0 },
  files: { glbPath: 'models/new/model.glb' },
});

const ORIGINAL: Omit<Annotation, 'id'> = {
  modelId: 'ref',
  projectId: 'p1',
  seq: 1,
  kind: 'point',
  points: [{ x: 5, y: 2, z: -4 }],
  measure: null,
  up: null,
  title: 'Spalling at pier 2',
  note: '',
  category: 'spalling',
  severity: 4,
  status: 'open',
  photos: [],
  author_uid: 'admin-uid',
  author_email: 'admin@demo.lab',
  followUpOf: null,
};

/** The latest inspection the hook returned (its viewport props), for the test to call onPick and read markers. */
let latest: CompareInspection | null = null;

function Harness({ onAlignStart }: { onAlignStart?: () => void }) {
  const inspection = useCompareFindings({ open: true, model: later, reference, onAlignStart });
  latest = inspection;
  return inspection.panel ? <CompareFindingsPanel {...inspection.panel} /> : null;
}

function show(role: Role, onAlignStart?: () => void): TestBackend {
  const backend = createTestBackend(role, {
    projects: [{ id: 'p1', name: 'Bridge', structure_id: 'BR', description: '', slug: 'bridge' }],
    models: [reference, later],
  });
  backend.store.writeDocument('annotations', 'ref_1', { ...ORIGINAL });
  render(
    <MemoryApp backend={backend.backend} path="/viewer" pattern="/viewer">
      <Harness onAlignStart={onAlignStart} />
    </MemoryApp>,
  );
  return backend;
}

const pick = (side: 'model' | 'reference', point: ModelPoint) =>
  act(() => latest![side].onPick({ point, part: 'mesh' } as Parameters<CompareInspection['model']['onPick']>[0]));

/** model → reference: scale 2, then +1 on x. */
const toReference = (p: ModelPoint): ModelPoint => ({ x: 2 * p.x + 1, y: 2 * p.y, z: 2 * p.z });

afterEach(() => {
  cleanup();
  latest = null;
});

describe('compare findings', () => {
  it('an admin aligns with 3 points: a collinear triple is refused, the RMS error shown, the matrix saved; then removes it', async () => {
    const onAlignStart = vi.fn();
    const backend = show('admin', onAlignStart);
    await screen.findByText('These captures are not aligned.');
    expect(latest!.model.pickMode).toBe(false);
    fireEvent.click(screen.getByRole('button', { name: 'Align with 3 points' }));
    expect(onAlignStart).toHaveBeenCalledTimes(1);
    expect(latest!.model.pickMode).toBe(true);
    expect(latest!.reference.pickMode).toBe(true);

    const onLine = [
      { x: 0, y: 0, z: 0 },
      { x: 1, y: 1, z: 1 },
      { x: 2, y: 2, z: 2 },
    ];
    for (const p of onLine) pick('model', p);
    expect(latest!.model.pickMode).toBe(false);
    // A fourth pick is not taken.
    pick('model', { x: 9, y: 9, z: 9 });
    expect(screen.getByTestId('align-count-model').textContent).toBe('Model: 3 of 3 points');
    const good = [
      { x: 0, y: 0, z: 0 },
      { x: 1, y: 0, z: 0 },
      { x: 0, y: 1, z: 0.5 },
    ];
    for (const p of good) pick('reference', toReference(p));
    expect(screen.getByText(AlignmentMessages.collinearModel).closest('[role=alert]')).not.toBeNull();
    expect(screen.getByRole('button', { name: 'Save alignment' }).getAttribute('aria-disabled')).toBe('true');
    fireEvent.click(screen.getByRole('button', { name: 'Save alignment' }));
    expect(await backend.backend.catalog.query('alignments')).toEqual([]);
    // The three numbered markers of each side.
    expect(latest!.model.markers.filter((m) => m.tone === 'measure').map((m) => m.label)).toEqual(['1', '2', '3']);

    // Undo the model's last two points and pick them again, off the line.
    fireEvent.click(screen.getByRole('button', { name: 'Undo last model point' }));
    fireEvent.click(screen.getByRole('button', { name: 'Undo last model point' }));
    pick('model', good[1]!);
    pick('model', good[2]!);
    // The first model point (0,0,0) pairs with reference (1,0,0): consistent.
    await waitFor(() => expect(screen.getByTestId('align-result').textContent).toMatch(/^RMS error: [0-9.e+-]+ reference units$/));
    expect(screen.getByRole('button', { name: 'Save alignment' }).getAttribute('aria-disabled')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Save alignment' }));
    await screen.findByText(/Aligned with 3 points \(RMS error/);
    const [saved] = (await backend.backend.catalog.query('alignments')) as Alignment[];
    expect(saved).toMatchObject({ id: 'ref__new', method: '3-point', referenceModelId: 'ref', modelId: 'new', created_by: 'admin-uid' });
    const mapped = applyAlignment(saved!.matrix, { x: 3, y: -1, z: 2 });
    expect(mapped.x).toBeCloseTo(7, 9);
    expect(mapped.y).toBeCloseTo(-2, 9);
    expect(mapped.z).toBeCloseTo(4, 9);
    expect(saved!.rmsError).toBeLessThan(1e-9);
    // The reference finding now shows on the model, mapped by the inverse: (5,2,−4) → (2,1,−2).
    await waitFor(() => expect(latest!.model.markers.some((m) => m.tone === 'carried')).toBe(true));
    const carried = latest!.model.markers.find((m) => m.tone === 'carried')!;
    expect(carried.points[0]!.x).toBeCloseTo(2, 9);
    expect(carried.points[0]!.y).toBeCloseTo(1, 9);
    expect(carried.points[0]!.z).toBeCloseTo(-2, 9);

    fireEvent.click(screen.getByRole('button', { name: 'Remove alignment' }));
    await screen.findByText('These captures are not aligned.');
    expect(await backend.backend.catalog.query('alignments')).toEqual([]);
    expect(latest!.model.markers.some((m) => m.tone === 'carried')).toBe(false);
  });

  it("'Same frame', carry over, the follow-up link selects the original", async () => {
    const backend = show('admin');
    fireEvent.click(await screen.findByRole('button', { name: 'Same frame' }));
    const carry = await screen.findByRole('button', { name: 'Carry over finding F-1 to Bridge 2025' });
    expect(latest!.model.markers.find((m) => m.tone === 'carried')?.points).toEqual([{ x: 5, y: 2, z: -4 }]);
    fireEvent.click(carry);
    await screen.findByText('Finding F-1 carried over to Bridge 2025 as F-1.');
    await waitFor(() => expect(screen.getByTestId('carried-over').textContent).toBe('Carried over as F-1'));
    expect(screen.queryByRole('button', { name: 'Carry over finding F-1 to Bridge 2025' })).toBeNull();
    expect(latest!.model.markers.map((m) => m.tone)).toEqual(['finding']);
    const [followUp] = await backend.backend.catalog.query('annotations', { where: [['modelId', '==', 'new']] });
    expect(followUp).toMatchObject({
      id: 'new_1',
      followUpOf: { annotationId: 'ref_1', modelId: 'ref' },
      note: 'Follow-up of F-1 (Jun 1, 2024)',
    });
    expect((await backend.backend.catalog.get('models', 'new'))?.metadata?.annotationsCount).toBe(1);

    const own = screen.getByTestId('compare-model-finding');
    fireEvent.click(within(own).getByRole('button', { name: 'Follow-up of F-1 on Bridge 2024: select the original' }));
    const original = within(screen.getByTestId('compare-reference-finding')).getAllByRole('button')[0]!;
    expect(original.getAttribute('aria-pressed')).toBe('true');
    expect(latest!.reference.markers.find((m) => m.id === 'ref_1')?.tone).toBe('selected');
    expect(latest!.reference.flyTo?.point).toEqual({ x: 5, y: 2, z: -4 });
  });

  it('a user sees that the captures are not aligned, and no button to align them', async () => {
    show('user');
    await screen.findByText('These captures are not aligned.');
    expect(screen.getByText('An admin can align them to show the reference findings on this model.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Same frame' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Align with 3 points' })).toBeNull();
    expect(screen.getByTestId('compare-reference-finding').textContent).toContain('Spalling at pier 2');
  });
});
