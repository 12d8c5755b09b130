// The findings field table ("stored = validated"): one table of finding writes — a
// user's new finding with its count batch, a user's edit of their own finding, the admin's — each
// with what both backends decide. tests/contract/trust-findings-fields.test.ts sends every case to
// `catalog serve` as raw HTTP (a refusal: its status, message, and nothing changed;
// an allowance: 2xx and what is stored is the schema's output with the server's times), and
// tests/rules/findings-fields.test.ts runs the same cases against firestore.rules on the
// Firestore emulator through the web SDK. A case that only one backend can enforce says which and
// why (`only`), and runs there alone.
import { AnnotationMessages } from '@shared/annotations.js';
import { SERVER_TIMESTAMP } from '@shared/ports/catalog.js';
import type { CollectionName } from '@shared/types.js';
import { DocumentMessages } from '@shared/validation/document-messages.js';
import { changeMapFieldData } from './change-map-field-table.js';

/** The documents and accounts a table runs against (the same shapes on both backends; ids chosen by each runner). */
export interface FieldTableIds {
  user: { uid: string; email: string };
  admin: { uid: string; email: string };
  /** The project of every model but `foreign`. */
  project: string;
  /** A second project (with model `foreign`). */
  foreignProject: string;
  /** A visible model: finding 1 is the user's (valid), finding 2 the user's stored before the rules (photos [{}]); the next is 3. */
  model: string;
  /**
   * Another visible model of the project, with the admin's finding 1 (an original to follow up),
   * and the reference of the change map `{other}__{model}` (a change region to make a finding from).
   */
  other: string;
  /** A hidden model of the project, with the admin's finding 1, and the reference of the change map `{hidden}__{model}`. */
  hidden: string;
  /** A visible model of the other project, with the admin's finding 1. */
  foreign: string;
}

/** One stored document of the table's world. */
export interface FieldTableDoc {
  collection: CollectionName;
  id: string;
  data: Record<string, unknown>;
  /** For a model the runner already stored with its files: merge this data into it. */
  merge?: boolean;
}

/** A valid finding (what the form and createAnnotation write), numbered `seq` on `modelId`, by `author`. */
export function validFinding(
  ids: FieldTableIds,
  modelId: string,
  seq: number,
  author: { uid: string; email: string },
  projectId: string = ids.project,
): Record<string, unknown> {
  return {
    modelId,
    projectId,
    seq,
    kind: 'point',
    points: [{ x: 1, y: 2, z: 3 }],
    measure: null,
    up: null,
    title: 'Rust on the bolt',
    note: '',
    category: 'corrosion',
    severity: 2,
    status: 'open',
    photos: ['IMG_0001.jpg'],
    author_uid: author.uid,
    author_email: author.email,
    created_at: '2026-01-05T08:00:00.000Z',
    last_updated: '2026-01-05T08:00:00.000Z',
    followUpOf: null,
    changeRegion: null,
  };
}

/** The table's documents (see {@link FieldTableIds}); models keep the files a runner gave them. */
export function fieldTableFixture(ids: FieldTableIds): FieldTableDoc[] {
  const model = (id: string, publicId: string, projectId: string, visible: boolean, count: number): FieldTableDoc => ({
    collection: 'models',
    id,
    data: { uuid: id, publicId, name: publicId, projectId, visible, metadata: { annotationsCount: count, annotationsSeq: count } },
    merge: true,
  });
  return [
    { collection: 'projects', id: ids.project, data: { name: 'Field tower', structure_id: 'FT-1' }, merge: true },
    { collection: 'projects', id: ids.foreignProject, data: { name: 'Other bridge', structure_id: 'OB-1' } },
    model(ids.model, 'FT-M', ids.project, true, 2),
    model(ids.other, 'FT-O', ids.project, true, 1),
    model(ids.hidden, 'FT-H', ids.project, false, 1),
    model(ids.foreign, 'OB-F', ids.foreignProject, true, 1),
    { collection: 'annotations', id: `${ids.model}_1`, data: validFinding(ids, ids.model, 1, ids.user) },
    {
      collection: 'annotations',
      id: `${ids.model}_2`,
      data: { ...validFinding(ids, ids.model, 2, ids.user), title: 'Stored before the rules', photos: [{ name: 'IMG_7.jpg' }] },
    },
    { collection: 'annotations', id: `${ids.other}_1`, data: validFinding(ids, ids.other, 1, ids.admin) },
    { collection: 'annotations', id: `${ids.hidden}_1`, data: validFinding(ids, ids.hidden, 1, ids.admin) },
    { collection: 'annotations', id: `${ids.foreign}_1`, data: validFinding(ids, ids.foreign, 1, ids.admin, ids.foreignProject) },
    { collection: 'changeMaps', id: `${ids.other}__${ids.model}`, data: { ...changeMapFieldData(ids.other, ids.model, ids.project) } },
    { collection: 'changeMaps', id: `${ids.hidden}__${ids.model}`, data: { ...changeMapFieldData(ids.hidden, ids.model, ids.project) } },
  ];
}

/**
 * One case of the table:
 * - 'create': a new finding `{model}_3` (seq 3) in one batch with the model's count and number
 *   raised to 3 (what createAnnotation writes), `data` laid over {@link validFinding} by the
 *   caller with the server-time sentinel as both times (a key whose value is undefined is removed);
 * - 'update': an update of the user's finding `{model}_1` with `data` (a user's carries the
 *   sentinel as `last_updated` unless `data` names it);
 * - 'update-legacy': the same on `{model}_2`, stored before the rules with a malformed `photos`.
 */
export interface FindingFieldCase {
  name: string;
  as: 'user' | 'admin';
  op: 'create' | 'update' | 'update-legacy';
  data: (ids: FieldTableIds) => Record<string, unknown>;
  expect: 'allow' | 'deny';
  /** `catalog serve`'s answer to a refusal: its status (400 unless given) and message. */
  status?: number;
  message?: string;
  /** Only this backend can enforce the case; it runs there alone. */
  only?: 'server' | 'rules';
  /** Why only one backend can (with `only`). */
  why?: string;
}

/** The case's row name in reports. */
export function fieldCaseName(c: FindingFieldCase): string {
  return `${c.as} ${c.op}: ${c.name} → ${c.expect}${c.only ? ` (${c.only} only)` : ''}`;
}

/** The data a case writes, as the runners send it (the caller's valid finding under a create's fields; undefined keys removed). */
export function fieldCaseData(c: FindingFieldCase, ids: FieldTableIds): Record<string, unknown> {
  const given = c.data(ids);
  const author = c.as === 'user' ? ids.user : ids.admin;
  const base =
    c.op === 'create'
      ? { ...validFinding(ids, ids.model, 3, author), created_at: SERVER_TIMESTAMP, last_updated: SERVER_TIMESTAMP }
      : c.as === 'user'
        ? { last_updated: SERVER_TIMESTAMP }
        : {};
  const data: Record<string, unknown> = { ...base, ...given };
  for (const key of Object.keys(data)) if (data[key] === undefined) delete data[key];
  return data;
}

const point = (x: number, y = 0, z = 0): Record<string, number> => ({ x, y, z });
const points = (n: number): Array<Record<string, number>> => Array.from({ length: n }, (_, i) => point(i + 0.5, 1.25, -2));

const deny = (
  as: 'user' | 'admin',
  op: FindingFieldCase['op'],
  name: string,
  message: string,
  data: FindingFieldCase['data'],
  extra: Partial<FindingFieldCase> = {},
): FindingFieldCase => ({ name, as, op, data, expect: 'deny', message, ...extra });
const allow = (
  as: 'user' | 'admin',
  op: FindingFieldCase['op'],
  name: string,
  data: FindingFieldCase['data'],
  extra: Partial<FindingFieldCase> = {},
): FindingFieldCase => ({ name, as, op, data, expect: 'allow', ...extra });
/** The same refusal for the user and the admin. */
const denyBoth = (op: FindingFieldCase['op'], name: string, message: string, data: FindingFieldCase['data']): FindingFieldCase[] => [
  deny('user', op, name, message, data),
  deny('admin', op, name, message, data),
];

/** The cases (see {@link FindingFieldCase}). */
export const FINDING_FIELD_CASES: readonly FindingFieldCase[] = [
  // ---- what the form and the workflows write: allowed ----------------------------------------
  allow('user', 'create', 'a point finding with the server time (createAnnotation)', () => ({})),
  // (the most a user's create asks of the rules' budget of 1,000 expressions)
  allow('user', 'create', 'a height over 500 points, its up axis, 20 photos, a note with line breaks and a tab, a follow-up', (ids) => ({
    followUpOf: { annotationId: `${ids.other}_1`, modelId: ids.other },
    kind: 'polyline',
    points: points(500),
    measure: 'height',
    up: point(0, 1, 0),
    photos: Array.from({ length: 20 }, (_, i) => `IMG_${String(i).padStart(4, '0')}.jpg`),
    note: 'Crack widens\nto the east\tsee photos',
  })),
  // (the most a user's finding from a change region asks of that budget: one point, the region's centre)
  allow('user', 'create', 'a change region with 20 photos, a note with line breaks and a tab, a follow-up', (ids) => ({
    followUpOf: { annotationId: `${ids.other}_1`, modelId: ids.other },
    changeRegion: { referenceModelId: ids.other, regionId: 1, maxDistance: 0.3 },
    photos: Array.from({ length: 20 }, (_, i) => `IMG_${String(i).padStart(4, '0')}.jpg`),
    note: 'Crack widens\nto the east\tsee photos',
  })),
  allow('user', 'create', 'a follow-up of a finding on another model of the project (carry-over)', (ids) => ({
    followUpOf: { annotationId: `${ids.other}_1`, modelId: ids.other },
  })),
  allow('user', 'update', 'own finding: title, status and the server time', () => ({ title: 'Rust spreading', status: 'monitoring' })),
  allow('user', 'update-legacy', 'own finding stored before the rules (malformed photos left alone): its title', () => ({
    title: 'Reworded',
  })),
  allow('admin', 'create', 'an import keeps its given ISO times', () => ({
    created_at: '2024-05-14T09:30:00.000Z',
    last_updated: '2024-06-01T12:00:00+02:00',
  })),
  allow('admin', 'create', "a follow-up of a hidden model's finding (admins see hidden models)", (ids) => ({
    followUpOf: { annotationId: `${ids.hidden}_1`, modelId: ids.hidden },
  })),

  // ---- server-owned times ----------------------------------------------------------------------
  deny('user', 'create', 'forged created_at (shown in the CSV)', AnnotationMessages.serverTimeRequired, () => ({
    created_at: '2020-01-01T00:00:00.000Z',
  })),
  deny('user', 'create', 'forged last_updated', AnnotationMessages.serverTimeRequired, () => ({
    last_updated: '2030-01-01T00:00:00.000Z',
  })),
  deny('user', 'create', 'no created_at at all', AnnotationMessages.serverTimeRequired, () => ({ created_at: undefined })),
  deny('user', 'update', 'own finding with a forged last_updated', AnnotationMessages.serverTimeRequired, () => ({
    title: 'Later',
    last_updated: '2030-01-01T00:00:00.000Z',
  })),
  deny('user', 'update', 'own finding without last_updated (the sentinel is required)', AnnotationMessages.serverTimeRequired, () => ({
    title: 'Later',
    last_updated: undefined,
  })),
  deny('user', 'update', "own finding's created_at set again", "edit a finding's created_at", () => ({ created_at: SERVER_TIMESTAMP }), {
    status: 403,
  }),
  deny('admin', 'create', "created_at 'yesterday'", DocumentMessages.timestampInvalid('created_at'), () => ({ created_at: 'yesterday' })),
  deny('admin', 'create', 'created_at a map (a Timestamp-like object)', DocumentMessages.timestampInvalid('created_at'), () => ({
    created_at: { seconds: 1700000000, nanoseconds: 0 },
  })),
  deny('admin', 'update', 'last_updated a number', DocumentMessages.timestampInvalid('last_updated'), () => ({ last_updated: 1700000000 })),

  // ---- status, kind, measure, up -----------------------------------------------------------------
  ...denyBoth('create', 'status null (crashed `catalog annotations list`)', AnnotationMessages.statusInvalid, () => ({ status: null })),
  deny('admin', 'update', 'status null', AnnotationMessages.statusInvalid, () => ({ status: null })),
  ...denyBoth('create', 'kind as HTML', AnnotationMessages.kindInvalid, () => ({ kind: '<img src=x onerror=alert(1)>' })),
  deny('user', 'create', 'kind an object', AnnotationMessages.kindInvalid, () => ({ kind: { toString: 'point' } })),
  deny('user', 'create', "kind 'polyline' for one point", AnnotationMessages.kindInvalid, () => ({ kind: 'polyline' })),
  deny('user', 'create', "measure ['polyline']", AnnotationMessages.measureInvalid, () => ({
    kind: 'polyline',
    points: points(3),
    measure: ['polyline'],
  })),
  deny('user', 'create', "measure 'distance' over 3 points", AnnotationMessages.measureInvalid, () => ({
    kind: 'polyline',
    points: points(3),
    measure: 'distance',
  })),
  deny('admin', 'create', 'no measure for 2 points', AnnotationMessages.measureInvalid, () => ({ kind: 'polyline', points: points(2) })),
  deny('user', 'create', 'a 200 KB up', AnnotationMessages.upInvalid, () => ({
    kind: 'polyline',
    points: points(2),
    measure: 'height',
    up: 'x'.repeat(200_000),
  })),
  deny('user', 'create', 'up with a fourth key', DocumentMessages.unknownFields('a finding', ['w']), () => ({
    kind: 'polyline',
    points: points(2),
    measure: 'height',
    up: { x: 0, y: 1, z: 0, w: 1 },
  })),
  deny('user', 'create', 'up on a distance', AnnotationMessages.upInvalid, () => ({
    kind: 'polyline',
    points: points(2),
    measure: 'distance',
    up: point(0, 1, 0),
  })),
  deny('user', 'create', 'a zero up axis', AnnotationMessages.upInvalid, () => ({
    kind: 'polyline',
    points: points(2),
    measure: 'height',
    up: point(0),
  })),

  // ---- points ----------------------------------------------------------------------------------
  deny('user', 'create', 'points ["x"] (crashed every reader)', AnnotationMessages.pointsInvalid, () => ({ points: ['x'] })),
  ...denyBoth('create', 'points [{}] (crashed every reader)', AnnotationMessages.pointsInvalid, () => ({ points: [{}] })),
  deny('user', 'create', 'a point with an extra key', DocumentMessages.unknownFields('a finding', ['evil']), () => ({
    points: [{ x: 1, y: 2, z: 3, evil: '<script>' }],
  })),
  deny('user', 'create', 'no points', AnnotationMessages.pointsInvalid, () => ({ points: [] })),
  deny('admin', 'create', '501 points', AnnotationMessages.pointsInvalid, () => ({
    kind: 'polyline',
    points: points(501),
    measure: 'polyline',
  })),
  deny('user', 'create', 'the second point a string coordinate', AnnotationMessages.pointsInvalid, () => ({
    kind: 'polyline',
    points: [point(0), { x: '1', y: 0, z: 0 }, point(2)],
    measure: 'polyline',
  })),
  deny('user', 'create', 'the last of 12 points without z', AnnotationMessages.pointsInvalid, () => ({
    kind: 'polyline',
    points: [...points(11), { x: 1, y: 2 }],
    measure: 'polyline',
  })),
  deny(
    'user',
    'create',
    'the 10th of 12 points malformed',
    AnnotationMessages.pointsInvalid,
    () => ({ kind: 'polyline', points: [...points(9), { x: 'a', y: 0, z: 0 }, ...points(2)], measure: 'polyline' }),
    { only: 'server', why: 'rules cannot loop: they check the first, the second and the last point; readers skip a malformed one' },
  ),
  deny('user', 'create', 'a NaN coordinate', AnnotationMessages.pointsInvalid, () => ({ points: [{ x: Number.NaN, y: 0, z: 0 }] }), {
    only: 'rules',
    why: 'JSON has no NaN: a client of catalog serve cannot send one (the schema refuses NaN and ±Infinity all the same)',
  }),

  // ---- photos ----------------------------------------------------------------------------------
  ...denyBoth('create', 'photos [{…}] (crashed every reader)', AnnotationMessages.photosInvalid, () => ({
    photos: [{ img_name: 'a.jpg' }],
  })),
  deny('user', 'create', '21 photos', AnnotationMessages.photosInvalid, () => ({
    photos: Array.from({ length: 21 }, (_, i) => `IMG_${i}.jpg`),
  })),
  deny('user', 'create', 'a photo listed twice', AnnotationMessages.photosInvalid, () => ({ photos: ['IMG_1.jpg', 'IMG_1.jpg'] })),
  deny('user', 'update', 'a photo name with a line break', AnnotationMessages.photosInvalid, () => ({ photos: ['IMG_1.jpg\n=2+3'] })),
  deny('user', 'create', 'a photo name of 256 characters', AnnotationMessages.photosInvalid, () => ({ photos: ['p'.repeat(256)] })),
  // (names count code points, on both backends: 255 emoji are one name)
  allow('admin', 'create', 'a photo name of 255 emoji', () => ({ photos: ['📷'.repeat(255)] })),
  deny('user', 'create', 'a title of 61 emoji (122 UTF-16 units, as inputs count)', AnnotationMessages.titleTooLong, () => ({
    title: '🙂'.repeat(61),
  })),
  deny(
    'user',
    'update-legacy',
    'own finding stored before the rules: its photos still malformed',
    AnnotationMessages.photosInvalid,
    () => ({
      photos: [{ name: 'IMG_8.jpg' }],
    }),
  ),

  // ---- title, note, category, severity ---------------------------------------------------------
  ...denyBoth('create', 'a title with a line break (a CSV row of its own)', AnnotationMessages.titleInvalid, () => ({
    title: 'Rust on bolt\n=2+3',
  })),
  deny('user', 'update', 'a title with terminal escapes', AnnotationMessages.titleInvalid, () => ({
    title: '\u001b[2J\u001b[HRust\u001b]0;pwned\u0007',
  })),
  deny('user', 'create', 'a title with spaces around it (NBSP)', AnnotationMessages.titleInvalid, () => ({ title: '\u00a0Rust ' })),
  deny('user', 'create', 'a blank title', AnnotationMessages.titleRequired, () => ({ title: '   ' })),
  deny('admin', 'create', 'a title of 121 characters', AnnotationMessages.titleTooLong, () => ({ title: 't'.repeat(121) })),
  deny('user', 'create', 'a note of 4,001 characters', AnnotationMessages.noteTooLong, () => ({ note: 'n'.repeat(4001) })),
  deny('user', 'update', 'a note with an escape character', AnnotationMessages.noteInvalid, () => ({ note: 'ok\u001b[31m red' })),
  deny('user', 'create', "severity '3' (a string)", AnnotationMessages.severityInvalid, () => ({ severity: '3' })),
  deny('user', 'update', 'severity 2.5', AnnotationMessages.severityInvalid, () => ({ severity: 2.5 })),
  deny('admin', 'create', 'severity 9', AnnotationMessages.severityInvalid, () => ({ severity: 9 })),
  deny('user', 'create', "category 'rust'", AnnotationMessages.categoryInvalid, () => ({ category: 'rust' })),

  // ---- follow-ups ------------------------------------------------------------------------------
  ...denyBoth('create', 'followUpOf any string', AnnotationMessages.followUpInvalid, () => ({ followUpOf: 'anything' })),
  deny('admin', 'create', 'followUpOf an id not of its model', AnnotationMessages.followUpInvalid, (ids) => ({
    followUpOf: { annotationId: 'x_1', modelId: ids.other },
  })),
  deny('admin', 'create', 'followUpOf its own model', AnnotationMessages.followUpInvalid, (ids) => ({
    followUpOf: { annotationId: `${ids.model}_1`, modelId: ids.model },
  })),
  deny('user', 'create', "followUpOf a hidden model's finding", AnnotationMessages.followUpNotFound, (ids) => ({
    followUpOf: { annotationId: `${ids.hidden}_1`, modelId: ids.hidden },
  })),
  deny(
    'user',
    'create',
    'followUpOf a finding that does not exist (answered as a hidden one)',
    AnnotationMessages.followUpNotFound,
    (ids) => ({
      followUpOf: { annotationId: `${ids.other}_9`, modelId: ids.other },
    }),
  ),
  deny('user', 'create', "followUpOf another project's finding", AnnotationMessages.followUpNotFound, (ids) => ({
    followUpOf: { annotationId: `${ids.foreign}_1`, modelId: ids.foreign },
  })),

  // ---- change regions ------------------------------------------------------------------------------
  allow('user', 'create', "a change region of its model's change map (the viewer's 'Create finding')", (ids) => ({
    changeRegion: { referenceModelId: ids.other, regionId: 2, maxDistance: -0.45 },
  })),
  allow('admin', 'create', 'a change region against a hidden reference (admins see hidden models)', (ids) => ({
    changeRegion: { referenceModelId: ids.hidden, regionId: 1, maxDistance: 0.3 },
  })),
  allow('admin', 'create', 'an import keeps a change region whose change map is gone', (ids) => ({
    changeRegion: { referenceModelId: ids.foreign, regionId: 7, maxDistance: 1.25 },
  })),
  ...denyBoth('create', 'changeRegion any string', AnnotationMessages.changeRegionInvalid, () => ({ changeRegion: 'region 2' })),
  deny('admin', 'create', 'changeRegion against its own model', AnnotationMessages.changeRegionInvalid, (ids) => ({
    changeRegion: { referenceModelId: ids.model, regionId: 1, maxDistance: 0.3 },
  })),
  deny('admin', 'create', 'changeRegion region 0', AnnotationMessages.changeRegionInvalid, (ids) => ({
    changeRegion: { referenceModelId: ids.other, regionId: 0, maxDistance: 0.3 },
  })),
  deny('user', 'create', 'changeRegion region 1.5', AnnotationMessages.changeRegionInvalid, (ids) => ({
    changeRegion: { referenceModelId: ids.other, regionId: 1.5, maxDistance: 0.3 },
  })),
  deny('user', 'create', "changeRegion's distance a string", AnnotationMessages.changeRegionInvalid, (ids) => ({
    changeRegion: { referenceModelId: ids.other, regionId: 1, maxDistance: '0.3 m' },
  })),
  deny('user', 'create', 'changeRegion without its distance', AnnotationMessages.changeRegionInvalid, (ids) => ({
    changeRegion: { referenceModelId: ids.other, regionId: 1 },
  })),
  ...denyBoth('create', 'a change region on a distance (a change region is one point)', AnnotationMessages.changeRegionPoint, (ids) => ({
    kind: 'polyline',
    points: points(2),
    measure: 'distance',
    changeRegion: { referenceModelId: ids.other, regionId: 1, maxDistance: 0.3 },
  })),
  deny('user', 'create', 'changeRegion with another key', DocumentMessages.unknownFields('a finding', ['side']), (ids) => ({
    changeRegion: { referenceModelId: ids.other, regionId: 1, maxDistance: 0.3, side: 'capture' },
  })),
  deny('user', 'create', 'a change region against a hidden reference', AnnotationMessages.changeRegionNotFound, (ids) => ({
    changeRegion: { referenceModelId: ids.hidden, regionId: 1, maxDistance: 0.3 },
  })),
  deny(
    'user',
    'create',
    'a change region of a change map that does not exist (answered as a hidden one)',
    AnnotationMessages.changeRegionNotFound,
    (ids) => ({ changeRegion: { referenceModelId: ids.foreign, regionId: 1, maxDistance: 0.3 } }),
  ),
  deny(
    'user',
    'update',
    "own finding's change region set afterwards",
    "edit a finding's changeRegion",
    (ids) => ({ changeRegion: { referenceModelId: ids.other, regionId: 1, maxDistance: 0.3 } }),
    { status: 403 },
  ),

  // ---- keys, author, unknown fields --------------------------------------------------------------
  deny('admin', 'create', 'seq not the number in its id', AnnotationMessages.keyInvalid, () => ({ seq: 4 })),
  deny('admin', 'create', 'author_email not an email address', AnnotationMessages.authorInvalid, () => ({ author_email: '<b>boss</b>' })),
  deny('admin', 'create', 'an empty author_uid', AnnotationMessages.authorInvalid, () => ({ author_uid: '' })),
  deny('admin', 'create', 'an unknown field', DocumentMessages.unknownFields('a finding', ['role']), () => ({ role: 'admin' })),
  deny('user', 'create', 'an unknown field', 'unknown fields role', () => ({ role: 'admin' }), { status: 403 }),
];
