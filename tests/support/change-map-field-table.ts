/**
 * The change-map field table, a test fixture: an admin's writes of a change map
 * (`changeMaps/{referenceModelId}__{modelId}`), one valid document changed one field at a time,
 * and whether it is stored. Run on `firestore.rules` (tests/rules/change-map-fields.test.ts) and
 * on the backends we run ourselves (tests/support/change-maps-contract.ts: the memory backend and
 * `catalog serve`), so they hold change maps to the same rules. A case that only the stored-document
 * schema can enforce (rules cannot loop over lists, and their budget of 1,000 expressions per
 * request leaves a matrix's invertibility unchecked) is marked `only: 'server'`.
 *
 * Pure TypeScript (no Firebase, no Node built-ins), so every test project can load it.
 */
import { SERVER_TIMESTAMP } from '@shared/ports/catalog.js';
import type { ChangeMapData, ChangeRegionData } from '@shared/types.js';

/** The identity matrix, column-major. */
const IDENTITY = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];

/** A change region (`ChangeRegionData`) numbered `id` on `side`. */
function region(id: number, side: 'capture' | 'reference'): ChangeRegionData {
  return { id, side, centroid: [1, 2, 3], min: [0, 1, 2], max: [2, 3, 4], count: 40, meanDistance: 0.21, maxDistance: 0.3 };
}

/**
 * A valid change map of capture `modelId` against reference `referenceModelId` (project `projectId`),
 * with an alignment and two regions (the most the rules check).
 * @returns the document's data, as `saveChangeMap` writes it but with a fixed time
 */
export function changeMapFieldData(referenceModelId: string, modelId: string, projectId: string): ChangeMapData {
  return {
    referenceModelId,
    modelId,
    projectId,
    valuesPath: `models/${modelId}/changes/${referenceModelId}.bin`,
    inputs: {
      modelFile: `models/${modelId}/model.ply (4000 bytes, uploaded 2026-01-05T08:00:00.000Z)`,
      referenceFile: `models/${referenceModelId}/model.ply (4200 bytes, uploaded 2025-06-02T08:00:00.000Z)`,
      alignment: { method: '3-point', matrix: [...IDENTITY] },
    },
    registration: { matrix: [...IDENTITY], rmsError: 0.012, iterations: 14, pairs: 4800 },
    levelOfDetection: 0.03,
    pointCount: 5000,
    referencePointCount: 5200,
    histogram: { min: -0.4, max: 0.35, counts: [1, 5, 4000, 20] },
    regions: [region(1, 'capture'), region(2, 'reference')],
    computed_by: 'cli',
    computed_at: '2026-01-05T08:00:00.000Z',
  };
}

/** One case: the valid document changed by `change`, written by an admin at `id` (default its key). */
export interface ChangeMapFieldCase {
  name: string;
  /** The data to write, from the valid document ({@link changeMapFieldData}). */
  change: (data: ChangeMapData) => object;
  /** The document id to write at, from the pair (default `{referenceModelId}__{modelId}`). */
  id?: (referenceModelId: string, modelId: string) => string;
  expect: 'allow' | 'deny';
  /** 'server': only the stored-document schema enforces it (the rules leave it unchecked). */
  only?: 'server';
  /** Why a server-only case is not in the rules. */
  why?: string;
}

const notLooped = 'rules cannot loop: they check the first and the last histogram count and the first region in full';
const budget =
  "the rules' budget of 1,000 expressions per request leaves the matrices' invertibility and the alignment matrix's numbers unchecked";
const regions = (n: number): ChangeRegionData[] => Array.from({ length: n }, (_, i) => region(i + 1, 'capture'));

/** The cases. */
export const CHANGE_MAP_FIELD_CASES: readonly ChangeMapFieldCase[] = [
  { name: 'a change map with an alignment and two regions', change: (d) => d, expect: 'allow' },
  {
    name: 'no alignment, no regions, the server time',
    change: (d) => ({ ...d, inputs: { ...d.inputs, alignment: null }, regions: [], computed_at: SERVER_TIMESTAMP }),
    expect: 'allow',
  },
  { name: '100 regions', change: (d) => ({ ...d, regions: regions(100) }), expect: 'allow' },
  { name: '101 regions', change: (d) => ({ ...d, regions: regions(101) }), expect: 'deny' },
  { name: '64 histogram bins', change: (d) => ({ ...d, histogram: { ...d.histogram, counts: Array(64).fill(3) } }), expect: 'allow' },
  { name: '65 histogram bins', change: (d) => ({ ...d, histogram: { ...d.histogram, counts: Array(65).fill(3) } }), expect: 'deny' },
  { name: 'no histogram bins', change: (d) => ({ ...d, histogram: { ...d.histogram, counts: [] } }), expect: 'deny' },
  { name: 'a histogram with min above max', change: (d) => ({ ...d, histogram: { ...d.histogram, min: 1, max: 0 } }), expect: 'deny' },
  { name: 'a negative first bin', change: (d) => ({ ...d, histogram: { ...d.histogram, counts: [-1, 2, 3] } }), expect: 'deny' },
  { name: 'a fractional last bin', change: (d) => ({ ...d, histogram: { ...d.histogram, counts: [1, 2, 3.5] } }), expect: 'deny' },
  {
    name: 'a negative bin between the first and the last',
    change: (d) => ({ ...d, histogram: { ...d.histogram, counts: [1, -2, 3] } }),
    expect: 'deny',
    only: 'server',
    why: notLooped,
  },
  { name: 'a histogram with another key', change: (d) => ({ ...d, histogram: { ...d.histogram, bins: 4 } }), expect: 'deny' },
  {
    name: 'a registration matrix of 15 numbers',
    change: (d) => ({ ...d, registration: { ...d.registration, matrix: IDENTITY.slice(0, 15) } }),
    expect: 'deny',
  },
  {
    name: 'a registration matrix whose last row is not 0 0 0 1',
    change: (d) => ({ ...d, registration: { ...d.registration, matrix: [...IDENTITY.slice(0, 15), 2] } }),
    expect: 'deny',
  },
  {
    name: 'a registration matrix with a text in it',
    change: (d) => ({ ...d, registration: { ...d.registration, matrix: ['1', ...IDENTITY.slice(1)] } }),
    expect: 'deny',
  },
  {
    name: 'a registration matrix that is not invertible',
    change: (d) => ({ ...d, registration: { ...d.registration, matrix: [...Array(15).fill(0), 1] } }),
    expect: 'deny',
    only: 'server',
    why: budget,
  },
  {
    name: 'an alignment matrix that is not invertible',
    change: (d) => ({ ...d, inputs: { ...d.inputs, alignment: { method: '3-point', matrix: [...Array(15).fill(0), 1] } } }),
    expect: 'deny',
    only: 'server',
    why: budget,
  },
  {
    name: 'an alignment matrix of 3 numbers',
    change: (d) => ({ ...d, inputs: { ...d.inputs, alignment: { method: '3-point', matrix: [1, 0, 0] } } }),
    expect: 'deny',
  },
  {
    name: 'an alignment without its method',
    change: (d) => ({ ...d, inputs: { ...d.inputs, alignment: { matrix: [...IDENTITY] } } }),
    expect: 'deny',
  },
  { name: 'inputs without the reference file', change: (d) => ({ ...d, inputs: { modelFile: 'a', alignment: null } }), expect: 'deny' },
  { name: 'an empty capture file stamp', change: (d) => ({ ...d, inputs: { ...d.inputs, modelFile: '' } }), expect: 'deny' },
  { name: 'a negative RMS error', change: (d) => ({ ...d, registration: { ...d.registration, rmsError: -0.1 } }), expect: 'deny' },
  { name: 'fractional iterations', change: (d) => ({ ...d, registration: { ...d.registration, iterations: 1.5 } }), expect: 'deny' },
  { name: 'a negative level of detection', change: (d) => ({ ...d, levelOfDetection: -0.01 }), expect: 'deny' },
  { name: 'a fractional point count', change: (d) => ({ ...d, pointCount: 10.5 }), expect: 'deny' },
  { name: 'a level of detection as text', change: (d) => ({ ...d, levelOfDetection: '0.03' }), expect: 'deny' },
  {
    name: "the values file of another reference's map",
    change: (d) => ({ ...d, valuesPath: `models/${String(d.modelId)}/changes/other.bin` }),
    expect: 'deny',
  },
  {
    name: "a model's splat as the values file",
    change: (d) => ({ ...d, valuesPath: `models/${String(d.modelId)}/model.ply` }),
    expect: 'deny',
  },
  {
    name: 'written at another key',
    change: (d) => d,
    id: (referenceModelId, modelId) => `${modelId}__${referenceModelId}`,
    expect: 'deny',
  },
  {
    name: 'a capture compared with itself',
    change: (d) => ({ ...d, referenceModelId: d.modelId, valuesPath: `models/${String(d.modelId)}/changes/${String(d.modelId)}.bin` }),
    id: (_referenceModelId, modelId) => `${modelId}__${modelId}`,
    expect: 'deny',
  },
  { name: 'an unknown field', change: (d) => ({ ...d, verdict: 'changed' }), expect: 'deny' },
  { name: 'a missing field', change: ({ pointCount: _gone, ...d }) => d, expect: 'deny' },
  {
    name: "the first region's side 'both'",
    change: (d) => ({ ...d, regions: [{ ...region(1, 'capture'), side: 'both' }, region(2, 'capture')] }),
    expect: 'deny',
  },
  {
    name: "the first region's centroid of 2 numbers",
    change: (d) => ({ ...d, regions: [{ ...region(1, 'capture'), centroid: [1, 2] }, region(2, 'capture')] }),
    expect: 'deny',
  },
  {
    name: 'the first region with no points',
    change: (d) => ({ ...d, regions: [{ ...region(1, 'capture'), count: 0 }] }),
    expect: 'deny',
  },
  {
    name: 'the last region with another key',
    change: (d) => ({ ...d, regions: [region(1, 'capture'), { ...region(2, 'capture'), note: 'x' }] }),
    expect: 'deny',
  },
  {
    name: "the last region's distance as text",
    change: (d) => ({ ...d, regions: [region(1, 'capture'), { ...region(2, 'capture'), maxDistance: 'far' }] }),
    expect: 'deny',
    only: 'server',
    why: notLooped,
  },
  {
    name: 'a middle region with id 0',
    change: (d) => ({ ...d, regions: [region(1, 'capture'), { ...region(2, 'capture'), id: 0 }, region(3, 'capture')] }),
    expect: 'deny',
    only: 'server',
    why: notLooped,
  },
];

/**
 * A case's name for test reports.
 * @param c the case
 */
export function changeMapFieldCaseName(c: ChangeMapFieldCase): string {
  return `admin writes ${c.name} → ${c.expect}`;
}
