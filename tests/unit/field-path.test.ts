// The shared rule for field paths and document data (shared/field-path.ts) and the stored-path
// rule (shared/paths.ts validateModelFilePath), as the server and both Firebase adapters apply them.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { toFirestore as toAdminFirestore } from '../../cli/src/adapters/firebase-admin/convert.js';
import {
  MAX_DOCUMENT_DEPTH,
  validateDocumentData,
  validateFieldPath,
  validateQueryFields,
  validateUpdateData,
  validateWriteOp,
} from '@shared/field-path.js';
import { checkFileName, checkUploadTarget, isModelUuid, validateModelFilePath } from '@shared/paths.js';
import { toFirestore as toWebFirestore } from '../../portal/src/lib/backend/firebase/convert.js';

const nested = (levels: number): unknown => {
  let value: unknown = 'leaf';
  for (let i = 0; i < levels; i += 1) value = { a: value };
  return value;
};

describe('field paths', () => {
  it.each(['name', 'metadata.captureDate', 'files.images', '_private', 'a1.b2.c3'])('accepts %s', (path) => {
    expect(validateFieldPath(path)).toBe(path);
  });
  it.each([
    ['__proto__', /'__proto__' is not allowed/],
    ['__proto__.role', /'__proto__' is not allowed/],
    ['constructor.prototype.role', /'constructor' is not allowed/],
    ['a.prototype', /'prototype' is not allowed/],
    ['a..b', /dotted names/],
    ['1a', /dotted names/],
    ['a b', /dotted names/],
    ['', /empty/],
    ['x'.repeat(301), /longer than 300/],
  ])('refuses %s', (path, message) => {
    expect(() => validateFieldPath(path)).toThrow(message);
  });
  it('checks every filter and ordering of a query', () => {
    expect(() => validateQueryFields({ where: [['name', '==', 'x']], orderBy: [['constructor']] })).toThrow(/'constructor'/);
    expect(() => validateQueryFields({ where: [['__proto__.x', '==', 1]] })).toThrow(/'__proto__'/);
    expect(() => validateQueryFields({ where: [['name', '==', 'x']], orderBy: [['created_at', 'desc']] })).not.toThrow();
  });
});

describe('document data', () => {
  it('refuses prototype-ish keys at any depth, arrays included', () => {
    expect(() => validateDocumentData(JSON.parse('{"__proto__": {"role": "admin"}}'))).toThrow(/'__proto__'/);
    expect(() => validateDocumentData({ location: { constructor: 1 } })).toThrow(/'constructor' in 'location'/);
    expect(() => validateDocumentData({ files: { images: [{ prototype: 1 }] } })).toThrow(/'prototype' in 'files.images\[0\]'/);
    expect(() => validateDocumentData({ name: 'ok', location: { lat: 1, lng: 2 }, files: { images: ['a'] } })).not.toThrow();
  });
  it(`bounds nesting at ${MAX_DOCUMENT_DEPTH} levels, without recursion`, () => {
    expect(() => validateDocumentData({ x: nested(MAX_DOCUMENT_DEPTH - 1) })).not.toThrow();
    expect(() => validateDocumentData({ x: nested(MAX_DOCUMENT_DEPTH) })).toThrow(/nests deeper than 20 levels at 'x/);
    expect(() => validateDocumentData({ x: nested(100_000) })).toThrow(/nests deeper/);
  });
  it('counts an update path towards the depth of its value', () => {
    expect(() => validateUpdateData({ 'a.b.c': nested(MAX_DOCUMENT_DEPTH - 3) })).not.toThrow();
    expect(() => validateUpdateData({ 'a.b.c': nested(MAX_DOCUMENT_DEPTH - 2) })).toThrow(/nests deeper/);
    expect(() => validateUpdateData({ '__proto__.role': 'admin' })).toThrow(/'__proto__'/);
  });
  it('checks batch ops by kind', () => {
    expect(() => validateWriteOp({ op: 'update', collection: 'users', id: 'u', data: { 'constructor.x': 1 } })).toThrow(/'constructor'/);
    expect(() => validateWriteOp({ op: 'set', collection: 'users', id: 'u', data: { a: { __proto__x: 1, prototype: 2 } } })).toThrow(
      /'prototype'/,
    );
    expect(() => validateWriteOp({ op: 'delete', collection: 'users', id: 'u' })).not.toThrow();
  });
  it('both Firebase adapters refuse the same writes before the SDK sees them', () => {
    for (const toFirestore of [toAdminFirestore, toWebFirestore]) {
      expect(() => toFirestore({ '__proto__.role': 'admin' }, 'update')).toThrow(/'__proto__'/);
      expect(() => toFirestore(JSON.parse('{"__proto__": {"role": "admin"}}'))).toThrow(/'__proto__'/);
      expect(() => toFirestore({ a: nested(30) } as Record<string, unknown>)).toThrow(/nests deeper/);
      expect(toFirestore({ name: 'ok' })).toEqual({ name: 'ok' });
    }
    expect(({} as Record<string, unknown>).role).toBeUndefined();
  });
});

describe('stored paths (the models/{uuid}/… storage layout)', () => {
  const uuid = randomUUID();
  it.each([
    `models/${uuid}/model.ply`,
    `models/${uuid}/model.splat`,
    `models/${uuid}/model.glb`,
    `models/${uuid}/camera-metadata.json`,
    `models/${uuid}/images/IMG 0001.JPG`,
    `models/${uuid}/images_thumbnails/t.png`,
    `models/${uuid}/assets/report.pdf`,
  ])('accepts %s', (path) => {
    expect(validateModelFilePath(path)).toBe(path);
  });
  it.each([
    ['index.html', /only under models\/\{uuid\}/],
    ['projects/abc/evil.txt', /only under models/],
    ['models/evil.txt', /only under models/],
    ['models/not-a-uuid/x', /'not-a-uuid' is not a model uuid/],
    ['models/%2e%2e/model.glb', /'%2e%2e' is not a model uuid/],
    [`models/${uuid}/evil.txt`, /a model folder holds only/],
    [`models/${uuid}/Model.glb`, /a model folder holds only/],
    [`models/${uuid}/other/x`, /go directly into/],
    [`models/${uuid}/images/sub/x.jpg`, /go directly into/],
    [`models/${uuid}/images/`, /empty/],
    [`models/${uuid}/images/..`, /empty/],
    [`models/${uuid}/images/a..b.jpg`, /'\.\.'/],
    [`models/${uuid}/images/a\u0001.jpg`, /control character/],
    [`models/${uuid}/images/ lead.jpg`, /space/],
    [`models/${uuid}/images/${'x'.repeat(1000)}.jpg`, /too long \(1004 bytes; at most 255\)/],
    [`models/${uuid}/images/${'é'.repeat(130)}`, /too long \(260 bytes/],
  ])('refuses %s', (path, message) => {
    expect(() => validateModelFilePath(path)).toThrow(message);
  });
  it('knows a model uuid', () => {
    expect(isModelUuid(uuid)).toBe(true);
    expect(isModelUuid(uuid.toUpperCase())).toBe(true);
    expect(isModelUuid('ghost')).toBe(false);
    expect(isModelUuid(`${uuid}x`)).toBe(false);
  });
  it('checks a file name as stored', () => {
    expect(checkFileName('photo.jpg')).toBe('photo.jpg');
    expect(() => checkFileName('a/b')).toThrow(/'\/'/);
  });
  it('destroys a stream source whose path is refused', () => {
    let destroyed = false;
    const source = { size: 1, input: { destroy: () => (destroyed = true) } };
    expect(() => checkUploadTarget('index.html', source)).toThrow(/Invalid storage path/);
    expect(destroyed).toBe(true);
  });
});
