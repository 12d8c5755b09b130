// Unit tests of what the Firebase adapters decide themselves, without any service: query
// building (including the non-admin `visible == true` filter), value conversion and the mapping of
// Auth, Firestore and Storage error codes to the product's codes and messages.
import { Timestamp as AdminTimestamp, FieldValue } from 'firebase-admin/firestore';
import { Timestamp } from 'firebase/firestore';
import { describe, expect, it } from 'vitest';
import {
  authError,
  buildAdminQuery,
  firestoreError,
  fromFirestore as fromAdmin,
  storageError,
  toFirestore as toAdmin,
} from '../../cli/src/adapters/firebase-admin/index.js';
import { usesFirebase } from '../../cli/src/lib/backend.js';
import {
  buildConstraints,
  fromFirestore,
  mapAuthError,
  mapFirestoreError,
  mapStorageError,
  toFirestore,
} from '../../portal/src/lib/backend/firebase/index.js';
import { AppError } from '@shared/errors.js';
import { registrationErrorMessage, signInErrorMessage } from '@shared/messages.js';
import { SERVER_TIMESTAMP } from '@shared/ports/index.js';

function thrown(fn: () => unknown): AppError {
  try {
    fn();
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected a throw');
}

describe('portal adapter: query building', () => {
  it('keeps where, orderBy and limit in order; adds visible == true first for non-admins', () => {
    const query = {
      where: [['projectId', '==', 'p1']] as [string, '==', string][],
      orderBy: [['publicId', 'asc']] as [string, 'asc'][],
      limit: 5,
    };
    expect(buildConstraints(query)?.map((c) => c.type)).toEqual(['where', 'orderBy', 'limit']);
    expect(buildConstraints(query, true)?.map((c) => c.type)).toEqual(['where', 'where', 'orderBy', 'limit']);
  });

  it('a non-admin filter on visible other than == true matches nothing; == true is not doubled', () => {
    expect(buildConstraints({ where: [['visible', '==', false]] }, true)).toBeNull();
    expect(buildConstraints({ where: [['visible', '!=', true]] }, true)).toBeNull();
    expect(buildConstraints({ where: [['visible', '==', true]] }, true)).toHaveLength(1);
    expect(buildConstraints({ where: [['visible', '==', false]] }, false)).toHaveLength(1);
  });

  it('rejects field paths that are not dotted identifiers, and limits below 1', () => {
    expect(thrown(() => buildConstraints({ where: [["x') OR 1=1 --", '==', 1]] })).code).toBe('invalid-argument');
    expect(thrown(() => buildConstraints({ orderBy: [['a..b']] })).code).toBe('invalid-argument');
    expect(thrown(() => buildConstraints({ limit: 0 })).code).toBe('invalid-argument');
  });

  it('converts server-time sentinels on write and Timestamps on read (any depth)', () => {
    const written = toFirestore({ created_at: SERVER_TIMESTAMP, nested: { at: SERVER_TIMESTAMP }, list: [1], name: 'x' });
    expect(written.name).toBe('x');
    expect(written.list).toEqual([1]);
    expect(written.created_at).not.toEqual(SERVER_TIMESTAMP);
    expect((written.nested as Record<string, unknown>).at).not.toEqual(SERVER_TIMESTAMP);
    const at = Timestamp.fromDate(new Date('2025-06-01T10:00:00Z'));
    expect(fromFirestore({ created_at: at, files: { list: [{ at }] } })).toEqual({
      created_at: '2025-06-01T10:00:00.000Z',
      files: { list: [{ at: '2025-06-01T10:00:00.000Z' }] },
    });
  });
});

describe("portal adapter: error mapping to the product's codes and messages", () => {
  it("maps sign-in codes to the product's sign-in messages", () => {
    expect(signInErrorMessage(mapAuthError({ code: 'auth/wrong-password', message: 'x' }))).toBe('Incorrect password.');
    expect(signInErrorMessage(mapAuthError({ code: 'auth/user-not-found', message: 'x' }))).toBe('User not registered.');
    expect(signInErrorMessage(mapAuthError({ code: 'auth/user-disabled', message: 'x' }))).toBe('The account has been disabled.');
    expect(signInErrorMessage(mapAuthError({ code: 'auth/invalid-email', message: 'x' }))).toBe('Invalid email format.');
    expect(mapAuthError({ code: 'auth/invalid-login-credentials' }).code).toBe('auth/invalid-credential');
    expect(signInErrorMessage(mapAuthError({ code: 'auth/multi-factor-auth-required' }))).toBe('An error occurred during login.');
  });

  it("maps registration codes to the product's registration messages", () => {
    expect(registrationErrorMessage(mapAuthError({ code: 'auth/email-already-in-use' }))).toBe('This email is already in use.');
    expect(registrationErrorMessage(mapAuthError({ code: 'auth/weak-password' }))).toBe('The password is too weak.');
  });

  it('maps Firestore and Storage codes', () => {
    expect(mapFirestoreError({ code: 'permission-denied' }).code).toBe('permission-denied');
    expect(mapFirestoreError({ code: 'not-found' }).code).toBe('not-found');
    expect(mapFirestoreError({ code: 'resource-exhausted' }).code).toBe('internal');
    expect(mapStorageError({ code: 'storage/unauthorized' }).code).toBe('storage/unauthorized');
    expect(mapStorageError({ code: 'storage/object-not-found' }).code).toBe('storage/object-not-found');
    expect(mapStorageError({ code: 'storage/canceled' }).code).toBe('storage/canceled');
    expect(mapStorageError({ code: 'storage/retry-limit-exceeded' }).code).toBe('network');
  });
});

describe('firebase-admin adapter', () => {
  it('maps gRPC, Admin Auth and Cloud Storage errors', () => {
    expect(firestoreError({ code: 5 }, 'x').code).toBe('not-found');
    expect(firestoreError({ code: 6 }, 'x').code).toBe('already-exists');
    expect(firestoreError({ code: 7 }, 'x').code).toBe('permission-denied');
    expect(authError({ code: 'auth/email-already-exists' }, 'x').code).toBe('auth/email-already-in-use');
    expect(authError({ errorInfo: { code: 'auth/invalid-password' } }, 'x').code).toBe('auth/weak-password');
    expect(storageError({ code: 404 }, 'x').code).toBe('storage/object-not-found');
    expect(storageError({ code: 403 }, 'x').code).toBe('storage/unauthorized');
    expect(storageError({ code: 'ECONNREFUSED' }, 'x').code).toBe('network');
  });

  it('converts server-time sentinels and Timestamps; rejects bad field paths', () => {
    const written = toAdmin({ at: SERVER_TIMESTAMP, meta: { at: SERVER_TIMESTAMP } });
    expect(written.at).toBeInstanceOf(FieldValue);
    expect((written.meta as Record<string, unknown>).at).toBeInstanceOf(FieldValue);
    expect(fromAdmin({ at: AdminTimestamp.fromMillis(0), list: [AdminTimestamp.fromMillis(1000)] })).toEqual({
      at: '1970-01-01T00:00:00.000Z',
      list: ['1970-01-01T00:00:01.000Z'],
    });
    expect(thrown(() => buildAdminQuery({ where: () => undefined } as never, { where: [['a b', '==', 1]] })).code).toBe('invalid-argument');
  });

  it('is chosen by the CLI when credentials or emulator variables are set', () => {
    expect(usesFirebase({})).toBe(false);
    expect(usesFirebase({ GOOGLE_APPLICATION_CREDENTIALS: '/key.json' })).toBe(true);
    expect(usesFirebase({ FIRESTORE_EMULATOR_HOST: '127.0.0.1:8080' })).toBe(true);
    expect(usesFirebase({ FIREBASE_AUTH_EMULATOR_HOST: '127.0.0.1:9099', CATALOG_BACKEND: 'local' })).toBe(false);
  });
});
