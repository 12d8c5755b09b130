// shared/annotations.ts (findings and measurements): the finding form's validation and its messages, the model
// scale, the measurements (model units and metres), and the findings table and its CSV.
import { describe, expect, it } from 'vitest';
import type { AnnotationInput, FindingModelFacts } from '@shared/annotations.js';
import {
  AnnotationMessages,
  FINDINGS_CSV_COLUMNS,
  annotationId,
  alignmentId,
  annotationMeasurement,
  findingRows,
  findingsCsv,
  formatMeasurement,
  formatPoint,
  measure,
  validateAnnotation,
  validateUnitsPerMetre,
} from '@shared/annotations.js';
import type { Annotation, ModelPoint } from '@shared/types.js';

const p = (x: number, y: number, z: number): ModelPoint => ({ x, y, z });

const base: AnnotationInput = { title: 'Crack at weld', category: 'crack', severity: 3, points: [p(1, 2, 3)] };

/** The message of a failing validation (fails the test when it passes). */
function messageOf(input: Partial<AnnotationInput> & Record<string, unknown>): string {
  const result = validateAnnotation({ ...base, ...input } as AnnotationInput);
  if (result.ok) throw new Error(`expected a failure for ${JSON.stringify(input)}`);
  return result.message;
}

describe('keys', () => {
  it('a finding is {modelId}_{seq}, an alignment {reference}__{model}', () => {
    expect(annotationId('m-1', 7)).toBe('m-1_7');
    expect(alignmentId('ref', 'other')).toBe('ref__other');
  });
});

describe('validateAnnotation', () => {
  it('normalises a point finding: trimmed text, status open, kind point, no measure, no up, photos de-duplicated', () => {
    const result = validateAnnotation({
      ...base,
      title: '  Crack at weld  ',
      note: '  along the seam \n',
      severity: ' 4 ',
      photos: ['IMG_1.jpg', 'IMG_2.jpg', 'IMG_1.jpg'],
      points: [{ x: 1, y: 2, z: 3, extra: 9 } as ModelPoint],
    });
    expect(result).toEqual({
      ok: true,
      value: {
        title: 'Crack at weld',
        note: 'along the seam',
        category: 'crack',
        severity: 4,
        status: 'open',
        points: [p(1, 2, 3)],
        kind: 'point',
        measure: null,
        up: null,
        photos: ['IMG_1.jpg', 'IMG_2.jpg'],
      },
    });
  });

  it('gives a measure from the number of points: distance for two, polyline for more; height keeps a unit up axis', () => {
    const two = validateAnnotation({ ...base, points: [p(0, 0, 0), p(1, 0, 0)] });
    expect(two.ok && [two.value.kind, two.value.measure]).toEqual(['polyline', 'distance']);
    const three = validateAnnotation({ ...base, points: [p(0, 0, 0), p(1, 0, 0), p(1, 1, 0)] });
    expect(three.ok && three.value.measure).toBe('polyline');
    const height = validateAnnotation({ ...base, points: [p(0, 0, 0), p(0, 0, 2)], measure: 'height', up: p(0, 0, 5) });
    expect(height.ok && height.value.up).toEqual(p(0, 0, 1));
    const defaultUp = validateAnnotation({ ...base, points: [p(0, 0, 0), p(0, 3, 0)], measure: 'height' });
    expect(defaultUp.ok && defaultUp.value.up).toEqual(p(0, 1, 0));
    // every status is accepted
    for (const status of ['open', 'monitoring', 'repaired', 'dismissed']) expect(validateAnnotation({ ...base, status }).ok).toBe(true);
  });

  it('title: required (blank, missing), at most 120 characters after trimming', () => {
    expect(messageOf({ title: '   ' })).toBe(AnnotationMessages.titleRequired);
    expect(messageOf({ title: undefined })).toBe(AnnotationMessages.titleRequired);
    expect(messageOf({ title: 'x'.repeat(121) })).toBe(AnnotationMessages.titleTooLong);
    expect(AnnotationMessages.titleTooLong).toBe('Finding title must be at most 120 characters');
    expect(validateAnnotation({ ...base, title: ` ${'x'.repeat(120)} ` }).ok).toBe(true);
  });

  it('note: at most 4,000 characters', () => {
    expect(messageOf({ note: 'n'.repeat(4001) })).toBe(AnnotationMessages.noteTooLong);
    expect(AnnotationMessages.noteTooLong).toBe('Note must be at most 4000 characters');
    expect(validateAnnotation({ ...base, note: 'n'.repeat(4000) }).ok).toBe(true);
  });

  it('category: one of the six', () => {
    expect(messageOf({ category: 'rust' })).toBe(AnnotationMessages.categoryInvalid);
    expect(messageOf({ category: '' })).toBe(AnnotationMessages.categoryInvalid);
    expect(AnnotationMessages.categoryInvalid).toBe('Category must be one of: crack, corrosion, spalling, deformation, vegetation, other');
  });

  it('severity: a whole number 1–5 (numeric strings accepted)', () => {
    for (const severity of [0, 6, 2.5, Number.NaN, '', 'high', '3.5', null]) {
      expect(messageOf({ severity: severity as number })).toBe(AnnotationMessages.severityInvalid);
    }
    expect(validateAnnotation({ ...base, severity: '5' }).ok).toBe(true);
    expect(validateAnnotation({ ...base, severity: 1 }).ok).toBe(true);
  });

  it('status: one of the four', () => {
    expect(messageOf({ status: 'closed' })).toBe(AnnotationMessages.statusInvalid);
    expect(messageOf({ status: '' })).toBe(AnnotationMessages.statusInvalid);
  });

  it('points: one or more (at most 500), finite coordinates', () => {
    expect(messageOf({ points: [] })).toBe(AnnotationMessages.pointsInvalid);
    expect(messageOf({ points: [p(0, Number.NaN, 0)] })).toBe(AnnotationMessages.pointsInvalid);
    expect(messageOf({ points: [p(0, Number.POSITIVE_INFINITY, 0)] })).toBe(AnnotationMessages.pointsInvalid);
    expect(messageOf({ points: [{ x: 1, y: 2 } as ModelPoint] })).toBe(AnnotationMessages.pointsInvalid);
    expect(messageOf({ points: Array.from({ length: 501 }, (_, i) => p(i, 0, 0)) })).toBe(AnnotationMessages.pointsInvalid);
    expect(validateAnnotation({ ...base, points: Array.from({ length: 500 }, (_, i) => p(i, 0, 0)) }).ok).toBe(true);
  });

  it('measure: none for one point, distance exactly two points, a known kind, a non-zero up for height', () => {
    expect(messageOf({ measure: 'distance' })).toBe(AnnotationMessages.measureInvalid);
    expect(messageOf({ points: [p(0, 0, 0), p(1, 0, 0), p(2, 0, 0)], measure: 'distance' })).toBe(AnnotationMessages.measureInvalid);
    expect(messageOf({ points: [p(0, 0, 0), p(1, 0, 0)], measure: 'area' as never })).toBe(AnnotationMessages.measureInvalid);
    // names an object inherits are no measure either
    expect(messageOf({ points: [p(0, 0, 0), p(1, 0, 0)], measure: 'toString' as never })).toBe(AnnotationMessages.measureInvalid);
    expect(messageOf({ points: [p(0, 0, 0), p(1, 0, 0)], measure: 'height', up: p(0, 0, 0) })).toBe(AnnotationMessages.measureInvalid);
    expect(messageOf({ points: [p(0, 0, 0), p(1, 0, 0)], measure: 'height', up: p(0, Number.NaN, 1) })).toBe(
      AnnotationMessages.measureInvalid,
    );
  });

  it('photos: at most 20 non-empty names', () => {
    expect(messageOf({ photos: Array.from({ length: 21 }, (_, i) => `IMG_${i}.jpg`) })).toBe(AnnotationMessages.photosInvalid);
    expect(messageOf({ photos: [''] })).toBe(AnnotationMessages.photosInvalid);
    expect(validateAnnotation({ ...base, photos: Array.from({ length: 20 }, (_, i) => `IMG_${i}.jpg`) }).ok).toBe(true);
  });

  it('reports the first rule broken', () => {
    expect(messageOf({ title: '', category: 'nope', severity: 9 })).toBe(AnnotationMessages.titleRequired);
    expect(messageOf({ category: 'nope', severity: 9 })).toBe(AnnotationMessages.categoryInvalid);
  });
});

describe('validateUnitsPerMetre', () => {
  it('accepts positive numbers and numeric strings; empty means unknown (null)', () => {
    expect(validateUnitsPerMetre(2.5)).toEqual({ ok: true, value: 2.5 });
    expect(validateUnitsPerMetre(' 1000 ')).toEqual({ ok: true, value: 1000 });
    expect(validateUnitsPerMetre('1e-3')).toEqual({ ok: true, value: 0.001 });
    for (const empty of ['', '   ', null, undefined]) expect(validateUnitsPerMetre(empty)).toEqual({ ok: true, value: null });
  });

  it('refuses zero, negatives, non-numbers and infinities with the one message', () => {
    for (const bad of [0, -1, '0', '-2', 'abc', '1m', Number.NaN, Number.POSITIVE_INFINITY, 'Infinity', true, {}]) {
      expect(validateUnitsPerMetre(bad)).toEqual({ ok: false, message: 'Units per metre must be a positive number' });
    }
    expect(AnnotationMessages.unitsPerMetreInvalid).toBe('Units per metre must be a positive number');
  });
});

describe('measure', () => {
  it('distance: the straight line from the first to the last point, in model units and metres', () => {
    expect(measure('distance', [p(1, 2, 3), p(4, 6, 3)])).toEqual({ kind: 'distance', modelUnits: 5, metres: null });
    expect(measure('distance', [p(1, 2, 3), p(4, 6, 3)], 2)).toEqual({ kind: 'distance', modelUnits: 5, metres: 2.5 });
    // no scale, or a scale that is not positive: no metres
    expect(measure('distance', [p(0, 0, 0), p(0, 0, 1)], 0).metres).toBeNull();
    expect(measure('distance', [p(0, 0, 0), p(0, 0, 1)], null).metres).toBeNull();
  });

  it('polyline: the length along every point', () => {
    const value = measure('polyline', [p(0, 0, 0), p(3, 4, 0), p(3, 4, 12), p(3, 4, 0)], 4);
    expect(value.modelUnits).toBeCloseTo(5 + 12 + 12, 12);
    expect(value.metres).toBeCloseTo(29 / 4, 12);
  });

  it('height: the signed difference along the up axis, a tilted axis normalised', () => {
    expect(measure('height', [p(0, 1, 0), p(5, 4, 9)]).modelUnits).toBe(3); // default +Y
    expect(measure('height', [p(0, 4, 0), p(0, 1, 0)]).modelUnits).toBe(-3); // lower end: negative
    // up tilted 45° between +Y and +Z, not unit length: (0, 2, 2) → (0, 1/√2, 1/√2)
    const tilted = measure('height', [p(0, 0, 0), p(7, 1, 3), p(1, 3, 1)], 10, p(0, 2, 2));
    expect(tilted.modelUnits).toBeCloseTo(4 / Math.SQRT2, 12); // only the first and last points count
    expect(tilted.metres).toBeCloseTo(4 / Math.SQRT2 / 10, 12);
    // a z-up model
    expect(measure('height', [p(0, 0, 1), p(3, 3, 2.5)], null, p(0, 0, 1)).modelUnits).toBeCloseTo(1.5, 12);
  });

  it('annotationMeasurement: null for a point finding, else its measure with the model scale', () => {
    expect(annotationMeasurement({ measure: null, points: [p(0, 0, 0)] }, 2)).toBeNull();
    expect(annotationMeasurement({ measure: 'distance', points: [p(0, 0, 0), p(0, 0, 3)] }, 2)).toEqual({
      kind: 'distance',
      modelUnits: 3,
      metres: 1.5,
    });
    expect(annotationMeasurement({ measure: 'height', points: [p(0, 0, 0), p(0, 0, 3)], up: p(0, 0, 1) }, null)?.modelUnits).toBe(3);
  });
});

describe('formatMeasurement and formatPoint', () => {
  it('three decimals without trailing zeros, metres in brackets when the model has a scale, sign kept', () => {
    expect(formatMeasurement({ kind: 'distance', modelUnits: 2.4312, metres: null })).toBe('2.431 units');
    expect(formatMeasurement({ kind: 'distance', modelUnits: 12.5, metres: 3.81 })).toBe('12.5 units (3.81 m)');
    expect(formatMeasurement({ kind: 'distance', modelUnits: 10, metres: 10 })).toBe('10 units (10 m)');
    expect(formatMeasurement({ kind: 'polyline', modelUnits: 0.031234, metres: 0.00031234 })).toBe('0.0312 units (0.000312 m)');
    expect(formatMeasurement({ kind: 'height', modelUnits: -1.5, metres: -0.75 })).toBe('-1.5 units (-0.75 m)');
    expect(formatMeasurement({ kind: 'distance', modelUnits: 0, metres: 0 })).toBe('0 units (0 m)');
  });

  it('a point as (x, y, z)', () => {
    expect(formatPoint(p(1.23456, -0.5, 2))).toBe('(1.235, -0.5, 2)');
    expect(formatPoint(p(0, 100, -0.25))).toBe('(0, 100, -0.25)');
  });
});

// ---------------------------------------------------------------------------------------------
// Findings table and CSV
// ---------------------------------------------------------------------------------------------

function finding(modelId: string, seq: number, over: Partial<Annotation> = {}): Annotation {
  return {
    id: annotationId(modelId, seq),
    modelId,
    projectId: 'proj',
    seq,
    kind: 'point',
    points: [p(1, 2, 3)],
    measure: null,
    up: null,
    title: `Finding ${seq}`,
    note: '',
    category: 'corrosion',
    severity: 3,
    status: 'open',
    photos: [],
    author_uid: 'uid-1',
    author_email: 'inspector@example.com',
    created_at: '2025-07-01T10:00:00.000Z',
    last_updated: null,
    followUpOf: null,
    ...over,
  };
}

const models = new Map<string, FindingModelFacts>([
  ['m2025', { name: '2025 survey', publicId: 'TWR-001-2025', captureDate: '2025-06-01', unitsPerMetre: 2 }],
  ['m2024', { name: '2024 survey', publicId: 'TWR-001-2024', captureDate: '2024-05-01', unitsPerMetre: null }],
  ['mB', { name: 'Another 2025', publicId: 'TWR-001-2025B', captureDate: '2025-06-01' }],
]);

describe('findingRows', () => {
  it('orders by capture date (oldest first), model name, severity (highest first), then number', () => {
    const rows = findingRows(
      [
        finding('m2025', 1, { severity: 2 }),
        finding('m2025', 2, { severity: 5 }),
        finding('m2025', 3, { severity: 2 }),
        finding('mB', 1, { severity: 1 }),
        finding('m2024', 4, { severity: 1 }),
        finding('m2024', 2, { severity: 1 }),
      ],
      models,
    );
    expect(rows.map((r) => r.id)).toEqual(['m2024_2', 'm2024_4', 'm2025_2', 'm2025_1', 'm2025_3', 'mB_1']);
  });

  it('fills each column: labels, the measurement with metres when the model has a scale, the first point, the follow-up link', () => {
    const [row] = findingRows(
      [
        finding('m2025', 7, {
          kind: 'polyline',
          points: [p(0, 0, 0), p(3, 4, 0)],
          measure: 'distance',
          category: 'spalling',
          status: 'monitoring',
          severity: 4,
          photos: ['IMG_1.jpg', 'IMG_9.jpg'],
          note: 'deck edge',
          followUpOf: { annotationId: 'm2024_2', modelId: 'm2024' },
        }),
      ],
      models,
    );
    expect(row).toEqual({
      id: 'm2025_7',
      number: 'F-7',
      seq: 7,
      modelId: 'm2025',
      modelName: '2025 survey',
      publicId: 'TWR-001-2025',
      captureDate: '2025-06-01',
      title: 'Finding 7',
      category: 'Spalling',
      severity: 4,
      status: 'Monitoring',
      measurement: 'Distance: 5 units (2.5 m)',
      point: '(0, 0, 0)',
      author: 'inspector@example.com',
      created: '2025-07-01T10:00:00.000Z',
      photos: 'IMG_1.jpg IMG_9.jpg',
      followUpOf: 'm2024_2',
      note: 'deck edge',
      changeRegion: '',
    });
  });

  it("names the change region a finding was made from, with its reference's name and the finding's model's scale", () => {
    const region = { referenceModelId: 'm2024', regionId: 2, maxDistance: 0.62 };
    const [scaled] = findingRows([finding('m2025', 1, { changeRegion: region })], models);
    // m2025 has 2 units a metre
    expect(scaled!.changeRegion).toBe('Change region 2 against 2024 survey: max +0.31 m');
    const [unscaled] = findingRows(
      [finding('m2024', 1, { changeRegion: { ...region, referenceModelId: 'm2025', maxDistance: -0.45 } })],
      models,
    );
    expect(unscaled!.changeRegion).toBe('Change region 2 against 2025 survey: max −0.45 model units');
    // a reference the reader does not know: its id
    const [unknown] = findingRows([finding('m2025', 1, { changeRegion: { ...region, referenceModelId: 'gone' } })], models);
    expect(unknown!.changeRegion).toBe('Change region 2 against gone: max +0.31 m');
    expect(findingsCsv([scaled!]).split('\r\n')[1]!.endsWith(',m2025_1,Change region 2 against 2024 survey: max +0.31 m')).toBe(true);
  });

  it('a model it does not know shows its id; no email shows the uid; a point finding has no measurement', () => {
    const [row] = findingRows([finding('gone', 1, { author_email: null, created_at: null })], models);
    expect(row).toMatchObject({ modelName: 'gone', publicId: '', captureDate: null, author: 'uid-1', created: '', measurement: '' });
  });
});

describe('findingsCsv', () => {
  const header = FINDINGS_CSV_COLUMNS.map(([, title]) => title).join(',');

  it('a header row of the columns, CRLF line ends, ending with CRLF', () => {
    expect(header).toBe(
      'Finding,Model,Public ID,Capture Date,Title,Category,Severity,Status,Measurement,Point,Author,Created,Photos,Follow-up Of,Note,ID,Change Region',
    );
    expect(findingsCsv([])).toBe(`${header}\r\n`);
    const csv = findingsCsv(findingRows([finding('m2024', 1), finding('m2024', 2)], models));
    const lines = csv.split('\r\n');
    expect(lines).toHaveLength(4);
    expect(lines[0]).toBe(header);
    expect(lines[3]).toBe('');
    expect(csv.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
    expect(lines[1]).toBe(
      'F-1,2024 survey,TWR-001-2024,2024-05-01,Finding 1,Corrosion,3,Open,,"(1, 2, 3)",inspector@example.com,2025-07-01T10:00:00.000Z,,,,m2024_1,',
    );
  });

  it('quotes fields with commas, quotes and newlines (quotes doubled)', () => {
    const csv = findingsCsv(findingRows([finding('m2024', 1, { title: 'Rust, heavy', note: 'He said "bad"\nsecond line' })], models));
    const row = csv.split('\r\n').slice(1).join('\r\n');
    expect(row).toContain(',"Rust, heavy",');
    expect(row).toContain(',"He said ""bad""\nsecond line",');
    // the newline inside the quoted note stays a bare LF: one record, ending with CRLF
    expect(csv.endsWith(',m2024_1,\r\n')).toBe(true);
  });

  it('escapes formulas: a field starting with = + - @ is prefixed with an apostrophe', () => {
    const csv = findingsCsv(
      findingRows(
        [finding('m2024', 1, { title: '=HYPERLINK("http://x")', note: '+1' }), finding('m2024', 2, { title: '-cmd', note: '@SUM(A1)' })],
        models,
      ),
    );
    const [, first, second] = csv.split('\r\n');
    expect(first).toContain(`,"'=HYPERLINK(""http://x"")",`);
    expect(first).toContain(",'+1,");
    expect(second).toContain(",'-cmd,");
    expect(second).toContain(",'@SUM(A1),");
    // a value merely containing a sign is untouched
    expect(findingsCsv(findingRows([finding('m2024', 3, { title: 'a=b' })], models))).toContain(',a=b,');
  });
});
