/**
 * The findings panel in jsdom on the in-memory backend, with the real hooks
 * (api/annotations.ts: live list, writes through the shared workflows, the documented rule):
 * add a finding at a picked point with the form's validation tied to its field, the list and the
 * model's count after it, edit, delete with a confirmation (admins only), what a user sees, a
 * measurement with and without a scale, a click that selects, and a change region's 'Create
 * finding' (the form opened prefilled, the region named and stored).
 */
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AnnotationMessages } from '@shared/annotations.js';
import type { Annotation, Model, ModelPoint, Role } from '@shared/types.js';
import { createTestBackend, MemoryApp, type TestBackend } from '../../../components/testing/memory-app.js';
import { makeModel } from '../../../components/testing/fixtures.js';
import { useSession } from '../../../lib/session.js';
import { accountFindingRights, useFindingWrites, useModelAnnotations } from '../api/annotations.js';
import { changeMapFieldData } from '../../../../../tests/support/change-map-field-table.js';
import type { FindingDraft } from './finding-form.js';
import { FindingsPanel } from './findings-panel.js';

const model = makeModel('m1', {
  publicId: 'TWR-1',
  name: 'Tower',
  projectId: 'p1',
  metadata: { captureDate: '2024-05-14', annotationsCount: 0, annotationsSeq: 0 },
  files: { splatPath: 'models/m1/model.ply' },
});

const POINT: ModelPoint = { x: 1.5, y: -0.25, z: 2 };

function Harness({
  draft,
  formRequest = null,
  onSelect,
  photos = [],
}: {
  draft: FindingDraft | null;
  formRequest?: { draft: FindingDraft; key: number } | null;
  onSelect?: (a: Annotation) => void;
  photos?: string[];
}) {
  const session = useSession();
  const annotations = useModelAnnotations(model.id);
  const user = session.status === 'success' ? (session.data?.user ?? null) : null;
  const role = session.status === 'success' ? (session.data?.role ?? null) : null;
  const writes = useFindingWrites(model.id, user ?? { uid: '', email: null });
  if (!user) return <p>signing in</p>;
  return (
    <FindingsPanel
      model={model}
      annotations={annotations}
      rights={accountFindingRights(user, role)}
      writes={writes}
      draft={draft}
      formRequest={formRequest}
      photosAt={() => photos}
      selectedId={null}
      onSelect={onSelect ?? (() => undefined)}
    />
  );
}

function show(backend: TestBackend, props: Parameters<typeof Harness>[0]) {
  return render(
    <MemoryApp backend={backend.backend} path="/viewer" pattern="/viewer">
      <Harness {...props} />
    </MemoryApp>,
  );
}

function backendAs(role: Role, m: Model = model): TestBackend {
  return createTestBackend(role, { projects: [{ id: 'p1', name: 'P', structure_id: 'S', description: '', slug: 'p' }], models: [m] });
}

/** A finding as stored, written straight into the store (as another client would). */
function stored(seq: number, author: string, extra: Partial<Annotation> = {}): Omit<Annotation, 'id'> {
  return {
    modelId: 'm1',
    projectId: 'p1',
    seq,
    kind: 'point',
    points: [POINT],
    measure: null,
    up: null,
    title: `Finding ${seq}`,
    note: '',
    category: 'crack',
    severity: 2,
    status: 'open',
    photos: [],
    author_uid: author,
    author_email: `${author}@demo.lab`,
    followUpOf: null,
    ...extra,
  };
}

afterEach(cleanup);

describe('FindingsPanel', () => {
  it('adds a finding at the picked point: the title is required (tied to its field), then it is listed and counted', async () => {
    const backend = backendAs('admin');
    show(backend, { draft: { points: [POINT], measure: null }, photos: ['frame_1.jpg', 'frame_2.jpg'] });
    expect(await screen.findByText(/No findings on this model yet\./)).toBeTruthy();
    expect(screen.getByText(`At the picked point (1.5, -0.25, 2).`)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Add finding' }));
    const form = screen.getByTestId('finding-form');
    expect(within(form).getByText('(1.5, -0.25, 2)')).toBeTruthy();
    fireEvent.click(within(form).getByRole('button', { name: 'Save' }));
    const title = within(form).getByLabelText('Title');
    await waitFor(() => expect(within(form).getByRole('alert').textContent).toBe(AnnotationMessages.titleRequired));
    expect(title.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(title.getAttribute('aria-describedby')!)?.textContent).toBe(AnnotationMessages.titleRequired);
    await waitFor(() => expect(document.activeElement).toBe(title));
    // nothing was written
    expect(await backend.backend.catalog.query('annotations')).toEqual([]);

    fireEvent.change(title, { target: { value: '  Corroded gusset  ' } });
    fireEvent.change(within(form).getByLabelText('Category'), { target: { value: 'corrosion' } });
    fireEvent.change(within(form).getByLabelText('Severity'), { target: { value: '4' } });
    fireEvent.click(within(form).getByRole('checkbox', { name: 'frame_2.jpg' }));
    fireEvent.click(within(form).getByRole('button', { name: 'Save' }));

    const item = await screen.findByTestId('finding-item');
    expect(item.textContent).toContain('F-1');
    expect(item.textContent).toContain('Corroded gusset');
    expect(item.textContent).toContain('Corrosion · Severity 4 · High · Open');
    expect(screen.queryByTestId('finding-form')).toBeNull();
    expect(screen.getByText('Finding F-1 added.')).toBeTruthy();
    expect(screen.getByTestId('findings-summary').textContent).toContain('1 finding.');
    const [saved] = await backend.backend.catalog.query('annotations');
    expect(saved).toMatchObject({
      id: 'm1_1',
      seq: 1,
      title: 'Corroded gusset',
      category: 'corrosion',
      severity: 4,
      status: 'open',
      points: [POINT],
      photos: ['frame_2.jpg'],
      author_uid: 'admin-uid',
      author_email: 'admin@demo.lab',
    });
    expect((await backend.backend.catalog.get('models', 'm1'))?.metadata).toMatchObject({ annotationsCount: 1, annotationsSeq: 1 });
  });

  it('an admin edits and deletes (after a confirmation) any finding; the count follows', async () => {
    const backend = backendAs('admin', { ...model, metadata: { annotationsCount: 1, annotationsSeq: 1 } });
    backend.store.writeDocument('annotations', 'm1_1', stored(1, 'someone-else'));
    show(backend, { draft: null });
    const item = await screen.findByTestId('finding-item');
    expect(screen.getByRole('button', { name: 'Add finding' }).hasAttribute('disabled')).toBe(true);
    fireEvent.click(within(item).getByRole('button', { name: 'Edit finding F-1' }));
    const form = screen.getByTestId('finding-form');
    expect(within(form).getByRole('heading').textContent).toBe('Edit finding F-1');
    expect((within(form).getByLabelText('Title') as HTMLInputElement).value).toBe('Finding 1');
    fireEvent.change(within(form).getByLabelText('Status'), { target: { value: 'repaired' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.getByTestId('finding-item').textContent).toContain('Repaired'));
    expect((await backend.backend.catalog.get('annotations', 'm1_1'))?.status).toBe('repaired');

    fireEvent.click(within(screen.getByTestId('finding-item')).getByRole('button', { name: 'Delete finding F-1' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Delete finding F-1?' });
    expect(dialog.textContent).toContain('“Finding 1” will be deleted. This cannot be undone.');
    // Cancel keeps it
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(await backend.backend.catalog.get('annotations', 'm1_1')).not.toBeNull();
    fireEvent.click(within(screen.getByTestId('finding-item')).getByRole('button', { name: 'Delete finding F-1' }));
    fireEvent.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.queryByTestId('finding-item')).toBeNull());
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(screen.getByText('Finding F-1 deleted.')).toBeTruthy();
    expect(await backend.backend.catalog.get('annotations', 'm1_1')).toBeNull();
    expect((await backend.backend.catalog.get('models', 'm1'))?.metadata?.annotationsCount).toBe(0);
  });

  it('a user adds a finding as its author, edits only their own and never sees Delete', async () => {
    const backend = backendAs('user', { ...model, metadata: { annotationsCount: 1, annotationsSeq: 1 } });
    backend.store.writeDocument('annotations', 'm1_1', stored(1, 'admin-uid'));
    show(backend, { draft: { points: [POINT], measure: null } });
    await screen.findByTestId('finding-item');
    fireEvent.click(screen.getByRole('button', { name: 'Add finding' }));
    fireEvent.change(screen.getByLabelText('Title'), { target: { value: 'Spalled edge' } });
    fireEvent.change(screen.getByLabelText('Category'), { target: { value: 'spalling' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.getAllByTestId('finding-item')).toHaveLength(2));
    const [theirs, mine] = screen.getAllByTestId('finding-item');
    expect(within(theirs!).queryByRole('button', { name: /Edit/ })).toBeNull();
    expect(within(mine!).getByRole('button', { name: 'Edit finding F-2' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Delete/ })).toBeNull();
    expect(await backend.backend.catalog.get('annotations', 'm1_2')).toMatchObject({ author_uid: 'user-uid', title: 'Spalled edge' });
    expect((await backend.backend.catalog.get('models', 'm1'))?.metadata).toMatchObject({ annotationsCount: 2, annotationsSeq: 2 });
  });

  it('shows a measurement in model units, and in metres when the model has a scale; a click selects', async () => {
    const scaled = { ...model, metadata: { annotationsCount: 1, annotationsSeq: 1, unitsPerMetre: 2 } };
    const backend = backendAs('admin', scaled);
    backend.store.writeDocument(
      'annotations',
      'm1_1',
      stored(1, 'admin-uid', {
        kind: 'polyline',
        points: [
          { x: 0, y: 0, z: 0 },
          { x: 3, y: 4, z: 0 },
        ],
        measure: 'distance',
      }),
    );
    const onSelect = vi.fn();
    render(
      <MemoryApp backend={backend.backend} path="/viewer" pattern="/viewer">
        <ScaledHarness model={scaled} onSelect={onSelect} />
      </MemoryApp>,
    );
    const item = await screen.findByTestId('finding-item');
    expect(item.textContent).toContain('Distance: 5 units (2.5 m)');
    expect(screen.getByTestId('findings-summary').textContent).toContain('Scale: 2 units per metre.');
    fireEvent.click(within(item).getByRole('button', { name: /^F-1 / }));
    expect(onSelect).toHaveBeenCalledWith(expect.objectContaining({ id: 'm1_1' }));
    // a finding written elsewhere appears (live list)
    act(() => backend.store.writeDocument('annotations', 'm1_2', stored(2, 'admin-uid', { title: 'From elsewhere' })));
    await waitFor(() => expect(screen.getAllByTestId('finding-item')).toHaveLength(2));
    expect(screen.getAllByTestId('finding-item')[1]!.textContent).toContain('From elsewhere');
  });

  it("a change region's 'Create finding' opens the form prefilled (the focus in its title), and the finding keeps the region", async () => {
    const backend = backendAs('user');
    // (a user names only a change map of the model they can read)
    backend.store.writeDocument('changeMaps', 'ref__m1', { ...changeMapFieldData('ref', 'm1', 'p1') });
    backend.store.writeDocument('models', 'ref', { ...makeModel('ref', { publicId: 'TWR-0', name: 'Tower 2025', projectId: 'p1' }) });
    const region = { referenceModelId: 'ref', regionId: 2, maxDistance: 0.31 };
    const draft: FindingDraft = {
      points: [POINT],
      measure: null,
      changeRegion: { region, text: 'Change region 2 against Tower 2025: max +0.31 m' },
      prefill: { title: 'Change region 2: added or moved', category: 'other' },
    };
    show(backend, { draft, formRequest: { draft, key: 1 } });
    const form = await screen.findByTestId('finding-form');
    const title = within(form).getByLabelText('Title') as HTMLInputElement;
    expect(title.value).toBe('Change region 2: added or moved');
    expect((within(form).getByLabelText('Category') as HTMLSelectElement).value).toBe('other');
    expect(within(form).getByTestId('finding-change-region').textContent).toBe('Change region 2 against Tower 2025: max +0.31 m');
    expect(within(form).getByText('(1.5, -0.25, 2)')).toBeTruthy();
    await waitFor(() => expect(document.activeElement).toBe(title));
    fireEvent.click(within(form).getByRole('button', { name: 'Save' }));

    const item = await screen.findByTestId('finding-item');
    expect(item.textContent).toContain('Change region 2: added or moved');
    // the model has no scale: model units
    expect(within(item).getByTestId('finding-change-region').textContent).toBe('Change region 2: max +0.31 model units');
    expect(await backend.backend.catalog.get('annotations', 'm1_1')).toMatchObject({
      points: [POINT],
      kind: 'point',
      category: 'other',
      author_uid: 'user-uid',
      changeRegion: region,
    });
    // the draft stays until the next pick: 'Add finding' names the region
    expect(screen.getByText('From change region 2 against Tower 2025: max +0.31 m.')).toBeTruthy();
  });

  it('a saved measurement becomes the new finding’s geometry', async () => {
    const backend = backendAs('admin');
    const points = [
      { x: 0, y: 0, z: 0 },
      { x: 0, y: 2, z: 0 },
    ];
    show(backend, { draft: { points, measure: 'height', up: { x: 0, y: 1, z: 0 } } });
    fireEvent.click(await screen.findByRole('button', { name: 'Add finding' }));
    expect(screen.getByTestId('finding-form').textContent).toContain('Height difference: 2 units');
    fireEvent.change(screen.getByLabelText('Title'), { target: { value: 'Sag' } });
    fireEvent.change(screen.getByLabelText('Category'), { target: { value: 'deformation' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect((await screen.findByTestId('finding-item')).textContent).toContain('Height difference: 2 units');
    expect(await backend.backend.catalog.get('annotations', 'm1_1')).toMatchObject({ kind: 'polyline', measure: 'height', points });
  });
});

function ScaledHarness({ model: m, onSelect }: { model: Model; onSelect: (a: Annotation) => void }) {
  const session = useSession();
  const annotations = useModelAnnotations(m.id);
  const user = session.status === 'success' ? (session.data?.user ?? null) : null;
  const writes = useFindingWrites(m.id, user ?? { uid: '', email: null });
  if (!user) return null;
  return (
    <FindingsPanel
      model={m}
      annotations={annotations}
      rights={accountFindingRights(user, 'admin')}
      writes={writes}
      draft={null}
      photosAt={() => []}
      selectedId={null}
      onSelect={onSelect}
    />
  );
}
