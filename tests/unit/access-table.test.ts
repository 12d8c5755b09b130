// The access table (tests/support/access-table.ts) that every backend is tested against: it covers
// every principal × collection × operation, and its decisions are those of the role table (shared/roles.ts).
import { describe, expect, it } from 'vitest';
import { ACCESS_PRINCIPALS, ACCESS_TABLE } from '../support/access-table.js';
import type { AccessOp } from '../support/access-table.js';

const OPS: AccessOp[] = ['get', 'list', 'create', 'update', 'delete'];
const allowed = (principal: string) => ACCESS_TABLE.filter((r) => r.principal === principal && r.expect === 'allow');

describe('the access table (who may do what, by role)', () => {
  it('has a row for every principal × named collection × operation', () => {
    for (const principal of ACCESS_PRINCIPALS) {
      for (const collection of ['users', 'admins', 'projects', 'models', 'annotations', 'alignments', 'changeMaps'] as const) {
        for (const op of OPS) {
          expect(
            ACCESS_TABLE.some((r) => r.principal === principal && r.request.collection === collection && r.request.op === op),
            `${principal} ${op} ${collection}`,
          ).toBe(true);
        }
      }
    }
  });

  it('allows nothing signed out and nothing in a collection the spec does not name', () => {
    expect(allowed('signed-out')).toEqual([]);
    expect(ACCESS_TABLE.filter((r) => r.request.collection === 'unnamed' && r.expect === 'allow')).toEqual([]);
  });

  it('lets a signed-in caller without a record only read and register their own record', () => {
    expect(allowed('no-role').map((r) => `${r.request.op} ${r.request.collection}: ${r.case}`)).toEqual([
      'get users: own record (read at sign-in, also before it exists)',
      "create users: own record with role 'user' (registration at first sign-in)",
      "get admins: own email's allowlist entry (read at sign-in, present or not)",
    ]);
    // the allowlisted email may also register as admin (its first sign-in gets role admin)
    expect(allowed('allowlisted').map((r) => r.case)).toContain("own record with role 'admin' (role escalation unless allowlisted)");
  });

  it('keeps a user to reading visible models and projects and their own record', () => {
    const user = allowed('user');
    // and to adding findings (with the count batch) and editing their own findings' content
    expect(user.filter((r) => r.request.op !== 'get' && r.request.op !== 'list').map((r) => r.case)).toEqual([
      "own record with role 'user' (registration at first sign-in)",
      "own record's note",
      "own finding with the model's count and number bump in the same batch (createAnnotation)",
      "the user's finding's content (title, severity, last_updated)",
    ]);
    expect(user.some((r) => r.request.collection === 'alignments' && !['get', 'list'].includes(r.request.op))).toBe(false);
    expect(user.some((r) => r.request.collection === 'changeMaps' && !['get', 'list'].includes(r.request.op))).toBe(false);
    expect(user.some((r) => r.request.op === 'delete' || r.case.includes('deleted'))).toBe(false);
    expect(user.some((r) => r.case === 'a hidden model' || r.case === 'hidden models (visible == false)')).toBe(false);
    expect(user.some((r) => r.case.includes('hidden model'))).toBe(false);
  });

  it("lets an admin do everything but break the map-URL rule (never javascript:) or a finding's form rules", () => {
    const denied = ACCESS_TABLE.filter((r) => r.principal === 'admin' && r.expect === 'deny' && r.request.collection !== 'unnamed');
    // and a finding's form rules
    expect(denied.map((r) => r.case)).toEqual([
      'a new project with a javascript: map URL',
      "a project's map URL set to javascript:",
      'own finding with severity 9, with the count bump',
      "the user's finding's title emptied",
    ]);
  });
});
