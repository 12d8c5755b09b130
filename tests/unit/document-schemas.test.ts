// The stored-document schemas (shared/validation/document-schemas.ts, checked by documents.ts) and the rule that stores their
// output (shared/rules/stored-documents.ts): every collection's document parses exactly (unknown
// keys refused, the form's messages, the key rules), what the finding form normalises always
// parses as stored, and a document stored before the rules stays editable in its other fields.
import { describe, expect, it } from 'vitest';
import { AlignmentMessages, IDENTITY_MATRIX } from '@shared/alignment.js';
import { AnnotationMessages, validateAnnotation } from '@shared/annotations.js';
import { ChangeMapMessages } from '@shared/change-map-document.js';
import type { AnnotationInput } from '@shared/annotations.js';
import { AppError } from '@shared/errors.js';
import { FormMessages, ValidationMessages } from '@shared/messages.js';
import type { PendingChange, Principal } from '@shared/rules/document-rules.js';
import { storedDocument } from '@shared/rules/stored-documents.js';
import type { ChangeMapData, CollectionName } from '@shared/types.js';
import { DocumentMessages } from '@shared/validation/document-messages.js';
import { parseStoredDocument } from '@shared/validation/documents.js';

const finding = {
  modelId: 'm1',
  projectId: 'p1',
  seq: 1,
  kind: 'point',
  points: [{ x: 1, y: 2, z: 3 }],
  measure: null,
  up: null,
  title: 'Rust on the bolt',
  note: '',
  category: 'corrosion',
  severity: 2,
  status: 'open',
  photos: [],
  author_uid: 'u1',
  author_email: 'field@example.test',
  created_at: '2026-01-05T08:00:00.000Z',
  last_updated: '2026-01-05T08:00:00.000Z',
  followUpOf: null,
};

const report = {
  version: 1,
  checkedAt: '2026-01-05T08:00:00.000Z',
  checker: 'catalog content checks 1, gltf-validator 2.0.0-dev.3.10',
  splat: {
    fileName: 'point_cloud.ply',
    size: 1000,
    verdict: 'ok',
    problem: null,
    warnings: [],
    format: 'ply',
    encoding: 'binary_little_endian',
    gaussians: 10,
    shDegree: 3,
    boundingBox: { min: [0, 0, 0], max: [1, 2, 3] },
  },
  glb: null,
  cameraMetadata: { fileName: 'cameras.json', size: 20, verdict: 'ok', problem: null, warnings: [], cameras: 2, withPhoto: 2 },
  photos: { count: 2, bytes: 300, verdict: 'ok', dimensions: [{ width: 4, height: 3, count: 2 }], refused: [] },
  notes: [],
};

const VALID: Record<CollectionName, [string, Record<string, unknown>]> = {
  annotations: ['m1_1', finding],
  alignments: [
    'm1__m2',
    {
      referenceModelId: 'm1',
      modelId: 'm2',
      projectId: 'p1',
      matrix: [...IDENTITY_MATRIX],
      method: '3-point',
      pairs: [0, 1, 2].map((i) => ({ model: { x: i, y: 0, z: 0 }, reference: { x: i, y: 1, z: 0 } })),
      rmsError: 0.01,
      created_by: 'admin-uid',
      created_at: null,
    },
  ],
  changeMaps: [
    'm1__m2',
    {
      referenceModelId: 'm1',
      modelId: 'm2',
      projectId: 'p1',
      valuesPath: 'models/m2/changes/m1.bin',
      inputs: {
        modelFile: 'models/m2/model.ply (1000 bytes, uploaded 2026-01-05T08:00:00.000Z)',
        referenceFile: 'models/m1/model.ply (1200 bytes, uploaded 2025-06-02T08:00:00.000Z)',
        alignment: { method: '3-point', matrix: [...IDENTITY_MATRIX] },
      },
      registration: { matrix: [...IDENTITY_MATRIX], rmsError: 0.012, iterations: 14, pairs: 4800 },
      levelOfDetection: 0.03,
      pointCount: 5000,
      referencePointCount: 5200,
      histogram: { min: -0.4, max: 0.35, counts: [1, 5, 4000, 20] },
      regions: [
        { id: 1, side: 'capture', centroid: [1, 2, 3], min: [0, 1, 2], max: [2, 3, 4], count: 120, meanDistance: 0.21, maxDistance: 0.3 },
        {
          id: 2,
          side: 'reference',
          centroid: [5, 2, 9],
          min: [4, 1, 8],
          max: [6, 3, 10],
          count: 40,
          meanDistance: -0.4,
          maxDistance: -0.5,
        },
      ],
      computed_by: 'cli',
      computed_at: '2026-01-05T08:00:00.000Z',
    },
  ],
  models: [
    'm1',
    {
      uuid: 'm1',
      publicId: 'TWR-001_2025',
      name: 'Tower 2025',
      projectId: 'p1',
      isReference: false,
      modelType: 'hybrid',
      owner_uid: null,
      visible: true,
      files: {
        splatPath: 'models/m1/model.ply',
        splatSize: 1000,
        glbPath: null,
        glbSize: null,
        cameraMetadata: 'models/m1/camera-metadata.json',
        images: ['models/m1/images/a.jpg'],
        thumbnails: [],
        assets: [],
        webSplatPath: 'models/m1/model.spz',
        webSplatSize: 400,
        webSplatPreviewPath: 'models/m1/model.preview.spz',
        webSplatPreviewSize: 100,
      },
      metadata: { captureDate: '2025-06-02', displayOrder: 0, annotationsCount: 1, annotationsSeq: 1, unitsPerMetre: 3.2808 },
      validation: report,
      created_at: '2026-01-05T08:00:00.000Z',
      last_updated: '2026-01-05T08:00:00.000Z',
      uploaded_at: '2026-01-05T08:00:00.000Z',
    },
  ],
  projects: [
    'p1',
    {
      name: 'Tower',
      structure_id: 'TWR-001',
      description: '',
      slug: 'tower',
      reference_model_id: 'm1',
      location: { lat: 35.6, lng: 139.7, address: null, mapUrl: 'https://maps.example/t' },
      created_at: null,
      last_updated: null,
    },
  ],
  users: ['u1', { uid: 'u1', email: 'field@example.test', role: 'user', created_at: null, registered_at: null, created_by: 'cli' }],
  admins: ['boss@example.test', { email: 'boss@example.test', added_at: '2026-01-05T08:00:00.000Z' }],
};

const messageOf = (collection: CollectionName, id: string, data: unknown): string | null => {
  const result = parseStoredDocument(collection, id, data);
  return result.ok ? null : result.message;
};

describe('parseStoredDocument', () => {
  it('parses a document of every collection as written, into a new object', () => {
    for (const [collection, [id, data]] of Object.entries(VALID) as Array<[CollectionName, [string, Record<string, unknown>]]>) {
      const result = parseStoredDocument(collection, id, data);
      expect(result, collection).toEqual({ ok: true, value: data });
      expect(result.ok && result.value).not.toBe(data);
    }
  });

  it('refuses unknown fields in every collection, naming them, also nested ones', () => {
    for (const [collection, [id, data]] of Object.entries(VALID) as Array<[CollectionName, [string, Record<string, unknown>]]>) {
      expect(messageOf(collection, id, { ...data, isAdmin: true }), collection).toMatch(/^Unknown field in .*: "isAdmin"$/);
    }
    const [modelId, model] = VALID.models;
    expect(messageOf('models', modelId, { ...model, metadata: { junk: 1 } })).toBe(DocumentMessages.unknownFields('a model', ['junk']));
    expect(messageOf('models', modelId, { ...model, validation: { ...report, extra: [] } })).toBe(
      DocumentMessages.unknownFields('a model', ['extra']),
    );
  });

  it('reports the first problem with the form message, and its path', () => {
    expect(parseStoredDocument('annotations', 'm1_1', { ...finding, status: null, title: '' })).toMatchObject({
      ok: false,
      message: AnnotationMessages.titleRequired,
      path: 'title',
    });
    expect(messageOf('annotations', 'm1_1', { ...finding, created_at: 'yesterday' })).toBe(DocumentMessages.timestampInvalid('created_at'));
    expect(messageOf('annotations', 'm1_2', finding)).toBe(AnnotationMessages.keyInvalid);
    expect(messageOf('annotations', 'm1_1', { ...finding, kind: 'polyline' })).toBe(AnnotationMessages.kindInvalid);
    expect(messageOf('annotations', 'm1_1', { ...finding, followUpOf: { annotationId: 'm2_1', modelId: 'm2' } })).toBeNull();
    expect(messageOf('annotations', 'm1_1', { ...finding, followUpOf: { annotationId: 'm2_01', modelId: 'm2' } })).toBe(
      AnnotationMessages.followUpInvalid,
    );
  });

  it('a finding from a change region: another model as the reference, a whole region number of 1 or more, a finite distance', () => {
    const region = { referenceModelId: 'm2', regionId: 2, maxDistance: -0.31 };
    expect(messageOf('annotations', 'm1_1', { ...finding, changeRegion: region })).toBeNull();
    expect(messageOf('annotations', 'm1_1', { ...finding, changeRegion: null })).toBeNull();
    const { changeRegion: _absent, ...stored } = { ...finding, changeRegion: null };
    expect(messageOf('annotations', 'm1_1', stored)).toBeNull();
    for (const bad of [
      'region 2',
      { ...region, referenceModelId: 'm1' },
      { ...region, referenceModelId: '' },
      { ...region, regionId: 0 },
      { ...region, regionId: 1.5 },
      { ...region, maxDistance: '0.3' },
      { referenceModelId: 'm2', regionId: 2 },
    ]) {
      expect(messageOf('annotations', 'm1_1', { ...finding, changeRegion: bad }), JSON.stringify(bad)).toBe(
        AnnotationMessages.changeRegionInvalid,
      );
    }
    expect(messageOf('annotations', 'm1_1', { ...finding, changeRegion: { ...region, side: 'capture' } })).toBe(
      DocumentMessages.unknownFields('a finding', ['side']),
    );
    // one point, the region's centre
    const distance = { kind: 'polyline', measure: 'distance', points: [finding.points[0], { x: 0, y: 0, z: 0 }] };
    expect(messageOf('annotations', 'm1_1', { ...finding, ...distance })).toBeNull();
    expect(messageOf('annotations', 'm1_1', { ...finding, ...distance, changeRegion: region })).toBe(AnnotationMessages.changeRegionPoint);
  });

  it('alignments: key, two models, an invertible affine matrix, the pairs of the method, a finite error', () => {
    const [id, alignment] = VALID.alignments;
    expect(messageOf('alignments', 'm2__m1', alignment)).toBe(DocumentMessages.alignmentKey);
    expect(messageOf('alignments', 'm1__m1', { ...alignment, modelId: 'm1' })).toBe(AlignmentMessages.sameModel);
    expect(messageOf('alignments', id, { ...alignment, matrix: [] })).toBe(AlignmentMessages.matrixInvalid);
    expect(messageOf('alignments', id, { ...alignment, matrix: Array(16).fill(0) })).toBe(AlignmentMessages.matrixInvalid);
    expect(messageOf('alignments', id, { ...alignment, method: 'same-frame' })).toBe(DocumentMessages.alignmentPairs);
    expect(messageOf('alignments', id, { ...alignment, method: 'guess' })).toBe(AlignmentMessages.methodInvalid);
    expect(messageOf('alignments', id, { ...alignment, rmsError: -1 })).toBe(DocumentMessages.alignmentError);
    // 'icp': no pairs, and the manual alignment it replaced (or null) in `previous`, which no other method has
    const { pairs, rmsError, method: _method, ...rest } = alignment;
    const previous = { method: '3-point', matrix: [...IDENTITY_MATRIX], pairs, rmsError };
    expect(messageOf('alignments', id, { ...rest, method: 'icp', pairs: [], rmsError: 0.004, previous })).toBeNull();
    expect(messageOf('alignments', id, { ...rest, method: 'icp', pairs: [], rmsError: 0.004, previous: null })).toBeNull();
    expect(messageOf('alignments', id, { ...rest, method: 'icp', pairs, rmsError: 0.004 })).toBe(DocumentMessages.alignmentPairs);
    expect(messageOf('alignments', id, { ...alignment, previous })).toBe(DocumentMessages.alignmentPrevious);
    expect(messageOf('alignments', id, { ...rest, method: 'icp', pairs: [], rmsError: 0, previous: { ...previous, pairs: [] } })).toBe(
      DocumentMessages.alignmentPrevious,
    );
    expect(messageOf('alignments', id, { ...rest, method: 'icp', pairs: [], rmsError: 0, previous: { ...previous, method: 'icp' } })).toBe(
      DocumentMessages.alignmentPrevious,
    );
  });

  it('changeMaps: key, two models, the values path, finite numbers, the matrices, the histogram and region caps', () => {
    const [id, map] = VALID.changeMaps as unknown as [string, ChangeMapData];
    const region = map.regions[0]!;
    expect(messageOf('changeMaps', 'm2__m1', map)).toBe(ChangeMapMessages.key);
    expect(messageOf('changeMaps', 'm1__m1', { ...map, modelId: 'm1' })).toBe(ChangeMapMessages.sameModel);
    expect(messageOf('changeMaps', id, { ...map, valuesPath: 'models/m2/changes/m3.bin' })).toBe(ChangeMapMessages.valuesPath);
    expect(messageOf('changeMaps', id, { ...map, valuesPath: 'models/m2/model.ply' })).toBe(ChangeMapMessages.valuesPath);
    expect(messageOf('changeMaps', id, { ...map, inputs: { ...map.inputs, modelFile: '' } })).toBe(ChangeMapMessages.inputs);
    expect(messageOf('changeMaps', id, { ...map, inputs: { ...map.inputs, alignment: null } })).toBeNull();
    expect(messageOf('changeMaps', id, { ...map, inputs: { ...map.inputs, alignment: { method: 'x', matrix: [1] } } })).toBe(
      AlignmentMessages.matrixInvalid,
    );
    const registration = (change: Record<string, unknown>) => ({ ...map, registration: { ...map.registration, ...change } });
    expect(messageOf('changeMaps', id, registration({ matrix: Array(15).fill(0) }))).toBe(ChangeMapMessages.registrationMatrix);
    expect(messageOf('changeMaps', id, registration({ matrix: [...IDENTITY_MATRIX.slice(0, 15), 2] }))).toBe(
      ChangeMapMessages.registrationMatrix,
    );
    expect(messageOf('changeMaps', id, registration({ rmsError: Number.NaN }))).toBe(ChangeMapMessages.registration);
    expect(messageOf('changeMaps', id, registration({ iterations: 1.5 }))).toBe(ChangeMapMessages.registration);
    expect(messageOf('changeMaps', id, { ...map, levelOfDetection: Number.POSITIVE_INFINITY })).toBe(ChangeMapMessages.levelOfDetection);
    expect(messageOf('changeMaps', id, { ...map, levelOfDetection: -0.01 })).toBe(ChangeMapMessages.levelOfDetection);
    expect(messageOf('changeMaps', id, { ...map, pointCount: -1 })).toBe(ChangeMapMessages.pointCounts);
    expect(messageOf('changeMaps', id, { ...map, histogram: { ...map.histogram, counts: Array(65).fill(1) } })).toBe(
      ChangeMapMessages.histogram,
    );
    expect(messageOf('changeMaps', id, { ...map, histogram: { ...map.histogram, counts: [] } })).toBe(ChangeMapMessages.histogram);
    expect(messageOf('changeMaps', id, { ...map, histogram: { ...map.histogram, min: 1, max: 0 } })).toBe(ChangeMapMessages.histogram);
    expect(messageOf('changeMaps', id, { ...map, histogram: { ...map.histogram, counts: Array(64).fill(0) } })).toBeNull();
    expect(messageOf('changeMaps', id, { ...map, regions: Array(101).fill(region) })).toBe(ChangeMapMessages.regionsMax);
    expect(messageOf('changeMaps', id, { ...map, regions: Array(100).fill(region) })).toBeNull();
    expect(messageOf('changeMaps', id, { ...map, regions: [{ ...region, side: 'both' }] })).toBe(ChangeMapMessages.region);
    expect(messageOf('changeMaps', id, { ...map, regions: [{ ...region, centroid: [1, 2] }] })).toBe(ChangeMapMessages.region);
    expect(messageOf('changeMaps', id, { ...map, regions: [{ ...region, maxDistance: Number.NaN }] })).toBe(ChangeMapMessages.region);
    expect(messageOf('changeMaps', id, { ...map, regions: [{ ...region, count: 0 }] })).toBe(ChangeMapMessages.region);
    expect(messageOf('changeMaps', id, { ...map, computed_at: 'today' })).toBe(DocumentMessages.timestampInvalid('computed_at'));
  });

  it("models and projects: the forms' rules and messages", () => {
    const [modelId, model] = VALID.models;
    expect(messageOf('models', modelId, { ...model, publicId: 'has space' })).toBe(ValidationMessages.publicIdPattern);
    expect(messageOf('models', modelId, { ...model, name: '  ' })).toBe(ValidationMessages.modelNameRequired);
    expect(messageOf('models', modelId, { ...model, modelType: 'cad' })).toBe(FormMessages.modelTypeInvalid);
    expect(messageOf('models', modelId, { ...model, metadata: { captureDate: '2025-02-30' } })).toBe(DocumentMessages.captureDateInvalid);
    expect(messageOf('models', modelId, { ...model, metadata: { annotationsCount: -1 } })).toBe(DocumentMessages.counterInvalid);
    expect(messageOf('models', modelId, { ...model, metadata: { unitsPerMetre: 0 } })).toBe(AnnotationMessages.unitsPerMetreInvalid);
    expect(messageOf('models', modelId, { ...model, files: { images: ['a\u0000.jpg'] } })).toBe(
      DocumentMessages.fieldInvalid('a model', 'files.images.0'),
    );
    expect(messageOf('models', modelId, { uuid: 'm1', publicId: 'M-1', name: 'Record only' })).toBeNull();
    const [projectId, project] = VALID.projects;
    expect(messageOf('projects', projectId, { ...project, name: '' })).toBe(ValidationMessages.projectNameEmpty);
    expect(messageOf('projects', projectId, { ...project, location: { lat: 95 } })).toBe(FormMessages.projectLatitudeRange);
    expect(messageOf('projects', projectId, { ...project, location: { lng: 'east' } })).toBe(FormMessages.projectLongitudeInvalid);
    expect(messageOf('projects', projectId, { ...project, location: { mapUrl: 'javascript:alert(1)' } })).toBe(
      FormMessages.projectMapUrlInvalid,
    );
    expect(messageOf('projects', projectId, { ...project, location: { mapUrl: '' } })).toBeNull();
  });

  it('users and admins: stored at their uid and email', () => {
    const [uid, user] = VALID.users;
    expect(messageOf('users', 'someone-else', user)).toBe(DocumentMessages.userKey);
    expect(messageOf('users', uid, { ...user, role: 'owner' })).toBe(DocumentMessages.fieldInvalid('a user record', 'role'));
    expect(messageOf('admins', 'other@example.test', VALID.admins[1])).toBe(DocumentMessages.adminKey);
  });

  it('what the finding form normalises always parses as a stored finding', () => {
    const inputs: AnnotationInput[] = [
      { title: '  Crack  ', category: 'crack', severity: '4', points: [{ x: 0, y: 0, z: 0 }] },
      {
        title: 'Tilt',
        note: ' leaning\n',
        category: 'deformation',
        severity: 3,
        points: [
          { x: 0, y: 0, z: 0 },
          { x: 0, y: 2, z: 0 },
        ],
        measure: 'height',
        up: { x: 0, y: 0, z: 5 },
        photos: ['a.jpg', 'a.jpg', 'b.jpg'],
      },
      { title: 'Length', category: 'other', severity: 1, points: [0, 1, 2].map((x) => ({ x, y: 0, z: 0, normal: 1 }) as never) },
    ];
    for (const input of inputs) {
      const form = validateAnnotation(input);
      expect(form.ok).toBe(true);
      if (!form.ok) continue;
      expect(parseStoredDocument('annotations', 'm1_1', { ...finding, ...form.value })).toMatchObject({ ok: true });
    }
    expect(validateAnnotation({ ...finding, title: 'Rust\n=2+3' } as AnnotationInput)).toEqual({
      ok: false,
      message: AnnotationMessages.titleInvalid,
    });
  });
});

describe('storedDocument: stored = validated', () => {
  const admin: Principal = { kind: 'service' };
  const user: Principal = { kind: 'user', uid: 'u1', email: 'field@example.test', role: 'user' };
  const change = (collection: CollectionName, id: string, before: Record<string, unknown> | null, after: Record<string, unknown>) =>
    ({ op: before ? 'update' : 'create', collection, id, before, after, now: '2026-02-01T00:00:00.000Z' }) as PendingChange;
  const refusal = (run: () => unknown): string => {
    try {
      run();
    } catch (error) {
      if (error instanceof AppError) return `${error.code}: ${error.message}`;
    }
    return 'stored';
  };

  it('stores the schema output, a new object', () => {
    const [id, model] = VALID.models;
    const stored = storedDocument(admin, change('models', id, null, model), () => null);
    expect(stored).toEqual(model);
    expect(stored).not.toBe(model);
  });

  it('a document stored before the rules stays editable in its other fields, never in its bad ones', () => {
    const [id, model] = VALID.models;
    const legacy = { ...model, publicId: 'old id', metadata: { captureDate: '2025-06-02', legacyNote: 'x' } };
    const edited = { ...legacy, metadata: { ...legacy.metadata, captureDate: '2025-07-01' }, name: 'Renamed' };
    expect(storedDocument(admin, change('models', id, legacy, edited), () => null)).toEqual(edited);
    expect(refusal(() => storedDocument(admin, change('models', id, null, legacy), () => null))).toBe(
      `invalid-argument: ${ValidationMessages.publicIdPattern}`,
    );
    expect(refusal(() => storedDocument(admin, change('models', id, legacy, { ...legacy, publicId: 'still bad' }), () => null))).toBe(
      `invalid-argument: ${ValidationMessages.publicIdPattern}`,
    );
    const moreJunk = { ...legacy, metadata: { ...legacy.metadata, legacyNote: 'y' } };
    expect(refusal(() => storedDocument(admin, change('models', id, legacy, moreJunk), () => null))).toBe(
      `invalid-argument: ${DocumentMessages.unknownFields('a model', ['legacyNote'])}`,
    );
  });

  it("a user's finding: the server's times, a follow-up they may read", () => {
    const now = '2026-02-01T00:00:00.000Z';
    const mine = { ...finding, author_uid: 'u1', created_at: now, last_updated: now };
    const lookup = (collection: CollectionName, id: string): Record<string, unknown> | null =>
      collection === 'annotations' && id === 'm2_1'
        ? { ...finding, modelId: 'm2', seq: 1 }
        : collection === 'models'
          ? { uuid: id, publicId: 'X', name: 'X', visible: id !== 'm3' }
          : collection === 'annotations' && id === 'm3_1'
            ? { ...finding, modelId: 'm3', seq: 1 }
            : null;
    expect(storedDocument(user, change('annotations', 'm1_1', null, mine), lookup)).toEqual(mine);
    expect(
      refusal(() => storedDocument(user, change('annotations', 'm1_1', null, { ...mine, created_at: finding.created_at }), lookup)),
    ).toBe(`invalid-argument: ${AnnotationMessages.serverTimeRequired}`);
    expect(refusal(() => storedDocument(user, change('annotations', 'm1_1', mine, { ...mine, title: 'Later' }), lookup))).toBe('stored');
    const follow = (annotationId: string, modelId: string) => ({ ...mine, followUpOf: { annotationId, modelId } });
    expect(refusal(() => storedDocument(user, change('annotations', 'm1_1', null, follow('m2_1', 'm2')), lookup))).toBe('stored');
    for (const [annotationId, modelId] of [
      ['m3_1', 'm3'],
      ['m2_9', 'm2'],
    ]) {
      expect(refusal(() => storedDocument(user, change('annotations', 'm1_1', null, follow(annotationId!, modelId!)), lookup))).toBe(
        `invalid-argument: ${AnnotationMessages.followUpNotFound}`,
      );
    }
    // a change region: of a change map of the finding's model whose reference they may read
    const mapLookup = (collection: CollectionName, id: string): Record<string, unknown> | null =>
      collection === 'changeMaps'
        ? ['m2__m1', 'm3__m1'].includes(id)
          ? { referenceModelId: id.split('__')[0] }
          : null
        : lookup(collection, id);
    const region = (referenceModelId: string) => ({ ...mine, changeRegion: { referenceModelId, regionId: 1, maxDistance: 0.3 } });
    expect(refusal(() => storedDocument(user, change('annotations', 'm1_1', null, region('m2')), mapLookup))).toBe('stored');
    for (const referenceModelId of ['m3', 'm4']) {
      expect(refusal(() => storedDocument(user, change('annotations', 'm1_1', null, region(referenceModelId)), mapLookup))).toBe(
        `invalid-argument: ${AnnotationMessages.changeRegionNotFound}`,
      );
    }
    // one stored before the reference was hidden stays editable
    expect(
      refusal(() => storedDocument(user, change('annotations', 'm1_1', region('m3'), { ...region('m3'), title: 'Later' }), mapLookup)),
    ).toBe('stored');
    expect(
      storedDocument(admin, change('annotations', 'm1_1', null, { ...finding, changeRegion: region('m4').changeRegion }), () => null),
    ).toMatchObject({
      changeRegion: { referenceModelId: 'm4' },
    });
    // admins keep given times and link any well-formed follow-up (an import)
    expect(
      storedDocument(
        admin,
        change('annotations', 'm1_1', null, { ...finding, followUpOf: { annotationId: 'm3_1', modelId: 'm3' } }),
        lookup,
      ),
    ).toMatchObject({
      created_at: finding.created_at,
    });
  });
});
