/**
 * The change map's registration in the 'Changes' panel (ChangeRegistration over the real
 * useCaptureChangeMap) in jsdom on the in-memory backend: a user reads the registration line and
 * gets no buttons; an admin accepts it as the pair's alignment (stored as an 'icp' alignment with
 * the registration's matrix and RMS error, replacing a 3-point one that Reset then names and puts
 * back after the confirmation; a declined confirmation changes nothing), resets an 'icp'
 * alignment that replaced none (the alignment is removed), and cannot accept the registration of
 * files changed since the map was computed.
 */
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { changeMapInputFile } from '@shared/change-map-document.js';
import type { AlignmentData, ChangeMapData, Role } from '@shared/types.js';
import { createTestBackend, MemoryApp, type TestBackend } from '../../../components/testing/memory-app.js';
import { makeModel, makeProject } from '../../../components/testing/fixtures.js';
import { useCaptureChangeMap } from '../api/change-maps.js';
import { ChangeRegistration } from './change-registration.js';

afterEach(cleanup);

const reference = makeModel('ref', {
  publicId: 'TWR-2025',
  name: 'Tower 2025',
  projectId: 'p1',
  files: { splatPath: 'models/ref/model.ply', splatSize: 9000 },
  uploaded_at: '2025-06-02T08:00:00.000Z',
});
const capture = makeModel('cap', {
  publicId: 'TWR-2026',
  name: 'Tower 2026',
  projectId: 'p1',
  metadata: { unitsPerMetre: 1 },
  files: { splatPath: 'models/cap/model.ply', splatSize: 4000 },
  uploaded_at: '2026-01-05T08:00:00.000Z',
});

/** The 3-point alignment stored before the registration (model + (1, 0, 0) = reference). */
const threePoint: AlignmentData = {
  referenceModelId: 'ref',
  modelId: 'cap',
  projectId: 'p1',
  matrix: [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 1, 0, 0, 1],
  method: '3-point',
  pairs: [
    { model: { x: 0, y: 0, z: 0 }, reference: { x: 1, y: 0, z: 0 } },
    { model: { x: 1, y: 0, z: 0 }, reference: { x: 2, y: 0, z: 0 } },
    { model: { x: 0, y: 1, z: 0 }, reference: { x: 1, y: 1, z: 0 } },
  ],
  rmsError: 0.004,
  created_by: 'admin-uid',
  created_at: '2026-01-04T08:00:00.000Z',
};
const registration = { matrix: [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 1.02, -0.01, 0, 1], rmsError: 0.0041, iterations: 12, pairs: 4800 };

/** The change map of the capture against the reference, computed from `alignment` (or none). */
function changeMap(alignment: AlignmentData | null, modelFile = changeMapInputFile(capture)): ChangeMapData {
  return {
    referenceModelId: 'ref',
    modelId: 'cap',
    projectId: 'p1',
    valuesPath: 'models/cap/changes/ref.bin',
    inputs: {
      modelFile,
      referenceFile: changeMapInputFile(reference),
      alignment: alignment ? { method: alignment.method, matrix: [...alignment.matrix] } : null,
    },
    registration,
    levelOfDetection: 0.03,
    pointCount: 5000,
    referencePointCount: 5200,
    histogram: { min: -0.4, max: 0.35, counts: [1, 5, 4000, 20] },
    regions: [],
    computed_by: 'cli',
    computed_at: '2026-01-05T09:00:00.000Z',
  };
}

function Harness({ confirm }: { confirm: (question: string) => boolean }) {
  const found = useCaptureChangeMap(capture);
  return found.status === 'success' && found.data ? (
    <ChangeRegistration changeMap={found.data} unitsPerMetre={capture.metadata?.unitsPerMetre ?? null} confirm={confirm} />
  ) : null;
}

/** Renders the registration for `role` with the map and the pair's alignment as given. */
function show(role: Role, map: ChangeMapData, alignment: AlignmentData | null, confirm = vi.fn(() => true)): TestBackend {
  const backend = createTestBackend(role, { projects: [makeProject({ reference_model_id: 'ref' })], models: [reference, capture] });
  backend.store.writeDocument('changeMaps', 'ref__cap', { ...map });
  if (alignment) backend.store.writeDocument('alignments', 'ref__cap', { ...alignment });
  render(
    <MemoryApp backend={backend.backend} path="/viewer" pattern="/viewer">
      <Harness confirm={confirm} />
    </MemoryApp>,
  );
  return backend;
}

const line = () => screen.getByTestId('change-registration-text').textContent;
const stored = async (backend: TestBackend) => (await backend.backend.catalog.query('alignments')) as AlignmentData[];

describe('ChangeRegistration', () => {
  it('a user reads the registration (RMS in metres with the scale, iterations, where ICP started) and gets no buttons', async () => {
    show('user', changeMap(threePoint), threePoint);
    await waitFor(() => expect(line()).toBe('Registration: RMS 0.0041 m after 12 iterations (from 3-point).'));
    expect(screen.queryAllByRole('button')).toEqual([]);
    expect(screen.queryByTestId('change-registration-actions')).toBeNull();
  });

  it("an admin accepts it over the 3-point alignment (stored as 'icp'), then resets to the 3-point one after confirming", async () => {
    const confirm = vi.fn(() => false);
    const backend = show('admin', changeMap(threePoint), threePoint, confirm);
    await screen.findByText("Accepting replaces the pair's 3-point alignment; a reset restores it.");
    expect(screen.queryByRole('button', { name: 'Reset alignment' })).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'Accept as alignment' }));
    await screen.findByText("Registration accepted as the pair's alignment (RMS 0.0041 m).");
    const [accepted] = await stored(backend);
    expect(accepted).toMatchObject({
      method: 'icp',
      matrix: registration.matrix,
      rmsError: registration.rmsError,
      pairs: [],
      created_by: 'admin-uid',
      previous: { method: '3-point', matrix: threePoint.matrix, pairs: threePoint.pairs, rmsError: threePoint.rmsError },
    });
    // the live alignment is the registration now: accepted, nothing more to accept, Reset names what it restores
    await waitFor(() =>
      expect(line()).toBe("Registration: RMS 0.0041 m after 12 iterations (from 3-point). Accepted as the pair's alignment."),
    );
    expect(screen.queryByRole('button', { name: 'Accept as alignment' })).toBeNull();
    expect(screen.getByTestId('change-registration-reset-note').textContent).toBe(
      'Reset alignment restores the 3-point alignment it replaced (RMS 0.004 m).',
    );

    // declined: nothing changes
    fireEvent.click(screen.getByRole('button', { name: 'Reset alignment' }));
    expect(confirm).toHaveBeenCalledWith('Reset the alignment to the 3-point alignment it replaced (RMS 0.004 m)?');
    expect((await stored(backend))[0]?.method).toBe('icp');

    confirm.mockReturnValue(true);
    fireEvent.click(screen.getByRole('button', { name: 'Reset alignment' }));
    await screen.findByText('Alignment reset to the 3-point alignment.');
    const [restored] = await stored(backend);
    expect(restored).toMatchObject({
      method: '3-point',
      matrix: threePoint.matrix,
      pairs: threePoint.pairs,
      rmsError: threePoint.rmsError,
    });
    expect(restored?.previous ?? null).toBeNull();
    await screen.findByRole('button', { name: 'Accept as alignment' });
    expect(screen.queryByRole('button', { name: 'Reset alignment' })).toBeNull();
  });

  it("an admin resets an 'icp' alignment that replaced none: it is removed and the pair is unaligned", async () => {
    const accepted: AlignmentData = {
      ...threePoint,
      method: 'icp',
      matrix: [...registration.matrix],
      pairs: [],
      rmsError: 0.0041,
      previous: null,
    };
    const confirm = vi.fn(() => true);
    const backend = show('admin', changeMap(null), accepted, confirm);
    await waitFor(() =>
      expect(line()).toBe("Registration: RMS 0.0041 m after 12 iterations (from no stored alignment). Accepted as the pair's alignment."),
    );
    expect(screen.getByTestId('change-registration-reset-note').textContent).toBe(
      'Reset alignment removes it: the captures will not be aligned, as before it was accepted.',
    );
    fireEvent.click(screen.getByRole('button', { name: 'Reset alignment' }));
    expect(confirm).toHaveBeenCalledWith('Reset the alignment? It is removed: the captures will no longer be aligned.');
    await screen.findByText('Alignment removed: the captures are no longer aligned.');
    expect(await stored(backend)).toEqual([]);
    await screen.findByText("Accepting makes it the pair's alignment (there is none now); a reset removes it again.");
    expect(screen.getByRole('button', { name: 'Accept as alignment' })).toBeTruthy();
  });

  it('an admin cannot accept the registration of a capture file that changed since the map was computed', async () => {
    show('admin', changeMap(null, 'models/cap/model.ply (3999 bytes, uploaded 2025-12-01T08:00:00.000Z)'), null);
    await screen.findByText(
      "The registration cannot be accepted: The capture's file changed since this change map was computed. Compute the change map again first.",
    );
    expect(screen.queryAllByRole('button')).toEqual([]);
  });
});
