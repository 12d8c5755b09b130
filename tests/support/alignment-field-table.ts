/**
 * The alignment field table, a test fixture: an admin's writes of an alignment
 * (`alignments/{referenceModelId}__{modelId}`), one valid document (an 'icp' alignment accepted
 * from a change map over a 3-point one) changed one field at a time, and whether it is stored.
 * Run on `firestore.rules` (tests/rules/change-map-fields.test.ts) and on the backends we run
 * ourselves (tests/support/change-maps-contract.ts: the memory backend and `catalog serve`), so
 * they hold alignments, all three methods, to the same rules. A case that only the stored-document
 * schema enforces (the rules' budget of 1,000 expressions per request leaves the replaced
 * alignment's points and its matrix's invertibility unchecked) is marked `only: 'server'`.
 *
 * Pure TypeScript (no Firebase, no Node built-ins), so every test project can load it.
 */
import type { AlignmentData, AlignmentPrevious } from '@shared/types.js';

/** The identity matrix, column-major. */
const IDENTITY = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];
/** A quarter turn about z and a shift, column-major: a registration's matrix. */
const TURNED = [0, 1, 0, 0, -1, 0, 0, 0, 0, 0, 1, 0, 2, 0.5, 0, 1];

/** Three picked pairs of a '3-point' alignment. */
const PAIRS = [
  { model: { x: 0, y: 0, z: 0 }, reference: { x: 1, y: 0, z: 0 } },
  { model: { x: 1, y: 0, z: 0 }, reference: { x: 2, y: 0, z: 0 } },
  { model: { x: 0, y: 1, z: 0 }, reference: { x: 1, y: 1, z: 0 } },
];

/** The 3-point alignment the valid document replaced. */
const THREE_POINT: AlignmentPrevious = { method: '3-point', matrix: [...IDENTITY.slice(0, 12), 1, 0, 0, 1], pairs: PAIRS, rmsError: 0.004 };

/**
 * A valid 'icp' alignment of `modelId` into `referenceModelId` (project `projectId`) that replaced a 3-point one.
 * @returns the document's data, as `acceptRegistration` writes it but with a fixed time
 */
export function alignmentFieldData(referenceModelId: string, modelId: string, projectId: string): AlignmentData {
  return {
    referenceModelId,
    modelId,
    projectId,
    matrix: [...TURNED],
    method: 'icp',
    pairs: [],
    rmsError: 0.0041,
    previous: { ...THREE_POINT, matrix: [...THREE_POINT.matrix], pairs: PAIRS.map((p) => ({ ...p })) },
    created_by: 'cli',
    created_at: '2026-01-05T08:00:00.000Z',
  };
}

/** One case: the valid document changed by `change`, written by an admin at the pair's key. */
export interface AlignmentFieldCase {
  name: string;
  /** The data to write, from the valid document ({@link alignmentFieldData}). */
  change: (data: AlignmentData) => object;
  expect: 'allow' | 'deny';
  /** 'server': only the stored-document schema enforces it (the rules leave it unchecked, for their budget). */
  only?: 'server';
}

/** The valid document's `previous` changed by `change`. */
const previousChanged = (change: (previous: AlignmentPrevious) => object) => (d: AlignmentData) => ({
  ...d,
  previous: change(d.previous!),
});
/** A manual alignment of `method` (no `previous`). */
const manual = (d: AlignmentData, method: 'same-frame' | '3-point'): object => {
  const { previous: _previous, ...rest } = d;
  return method === 'same-frame'
    ? { ...rest, method, matrix: [...IDENTITY], pairs: [], rmsError: 0 }
    : { ...rest, method, matrix: [...THREE_POINT.matrix], pairs: PAIRS, rmsError: 0.004 };
};

/** The cases. */
export const ALIGNMENT_FIELD_CASES: readonly AlignmentFieldCase[] = [
  { name: "an 'icp' alignment that replaced a 3-point one", change: (d) => d, expect: 'allow' },
  { name: "an 'icp' alignment that replaced none (previous null)", change: (d) => ({ ...d, previous: null }), expect: 'allow' },
  { name: "an 'icp' alignment without previous", change: ({ previous: _gone, ...d }) => d, expect: 'allow' },
  {
    name: "an 'icp' alignment that replaced a same-frame one",
    change: previousChanged((p) => ({ ...p, method: 'same-frame', matrix: [...IDENTITY], pairs: [], rmsError: 0 })),
    expect: 'allow',
  },
  { name: "a 'same-frame' alignment", change: (d) => manual(d, 'same-frame'), expect: 'allow' },
  { name: "a '3-point' alignment", change: (d) => manual(d, '3-point'), expect: 'allow' },
  { name: "a '3-point' alignment with previous null", change: (d) => ({ ...manual(d, '3-point'), previous: null }), expect: 'allow' },
  { name: "an 'icp' alignment with point pairs", change: (d) => ({ ...d, pairs: PAIRS }), expect: 'deny' },
  {
    name: "a 'same-frame' alignment with a previous",
    change: (d) => ({ ...manual(d, 'same-frame'), previous: THREE_POINT }),
    expect: 'deny',
  },
  { name: "a '3-point' alignment with a previous", change: (d) => ({ ...manual(d, '3-point'), previous: THREE_POINT }), expect: 'deny' },
  { name: 'an unknown method', change: (d) => ({ ...d, method: 'guess' }), expect: 'deny' },
  { name: 'a negative RMS error', change: (d) => ({ ...d, rmsError: -0.1 }), expect: 'deny' },
  { name: 'a matrix that is not invertible', change: (d) => ({ ...d, matrix: [...Array(15).fill(0), 1] }), expect: 'deny' },
  { name: "a previous of method 'icp'", change: previousChanged((p) => ({ ...p, method: 'icp', pairs: [] })), expect: 'deny' },
  { name: 'a 3-point previous of 2 pairs', change: previousChanged((p) => ({ ...p, pairs: PAIRS.slice(0, 2) })), expect: 'deny' },
  {
    name: 'a same-frame previous with a pair',
    change: previousChanged((p) => ({ ...p, method: 'same-frame', pairs: PAIRS.slice(0, 1) })),
    expect: 'deny',
  },
  { name: 'a previous with another key', change: previousChanged((p) => ({ ...p, created_by: 'x' })), expect: 'deny' },
  { name: 'a previous without its RMS error', change: previousChanged(({ rmsError: _gone, ...p }) => p), expect: 'deny' },
  { name: 'a previous with a negative RMS error', change: previousChanged((p) => ({ ...p, rmsError: -1 })), expect: 'deny' },
  { name: 'a previous matrix of 15 numbers', change: previousChanged((p) => ({ ...p, matrix: IDENTITY.slice(0, 15) })), expect: 'deny' },
  {
    name: 'a previous matrix whose last row is not 0 0 0 1',
    change: previousChanged((p) => ({ ...p, matrix: [...IDENTITY.slice(0, 15), 2] })),
    expect: 'deny',
  },
  { name: 'a previous that is a text', change: (d) => ({ ...d, previous: '3-point' }), expect: 'deny' },
  { name: 'a previous with its pairs as a text', change: previousChanged((p) => ({ ...p, pairs: 'abc' })), expect: 'deny' },
  {
    name: 'a previous matrix that is not invertible',
    change: previousChanged((p) => ({ ...p, matrix: [...Array(15).fill(0), 1] })),
    expect: 'deny',
    only: 'server',
  },
  {
    name: 'a previous pair with a point of 2 coordinates',
    change: previousChanged((p) => ({ ...p, pairs: [{ model: { x: 0, y: 0 }, reference: { x: 1, y: 0, z: 0 } }, ...p.pairs.slice(1)] })),
    expect: 'deny',
    only: 'server',
  },
];

/**
 * A case's name for test reports.
 * @param c the case
 */
export function alignmentFieldCaseName(c: AlignmentFieldCase): string {
  return `admin writes ${c.name} → ${c.expect}`;
}
