/**
 * Backend contract, part: Queries: == and != filters (also on dotted paths), orderings, limits,
 * counts, field-path checks (the queries the portal and the CLI make).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { ContractContext } from './context.js';
import { expectCode } from './context.js';

/** Declares this part of the contract for the backend of `ctx`. */
export function queriesContract(ctx: ContractContext): void {
  const { env, tag } = ctx;

  describe('queries', () => {
    const group = `q-${tag}`;
    beforeAll(async () => {
      await env.admin.catalog.batch([
        {
          op: 'create',
          collection: 'models',
          id: `${group}-a`,
          data: {
            uuid: `${group}-a`,
            publicId: 'B-2',
            name: 'a',
            projectId: group,
            visible: true,
            files: {},
            metadata: { captureDate: '2024-05-01', displayOrder: 2 },
          },
        },
        {
          op: 'create',
          collection: 'models',
          id: `${group}-b`,
          data: {
            uuid: `${group}-b`,
            publicId: 'A-1',
            name: 'b',
            projectId: group,
            isReference: true,
            files: {},
            metadata: { captureDate: '2023-01-01', displayOrder: 1 },
          },
        },
        {
          op: 'create',
          collection: 'models',
          id: `${group}-c`,
          data: {
            uuid: `${group}-c`,
            publicId: 'C-3',
            name: 'c',
            projectId: group,
            isReference: false,
            files: {},
            metadata: { captureDate: '2025-09-09', displayOrder: 3 },
          },
        },
        {
          op: 'create',
          collection: 'models',
          id: `${group}-other`,
          data: {
            uuid: `${group}-other`,
            publicId: 'A-0',
            name: 'other',
            projectId: `${group}-x`,
            files: {},
            metadata: { captureDate: '2024-05-01', displayOrder: 0 },
          },
        },
      ]);
    });

    it('filters with == on a field and on a dotted path', async () => {
      const ofProject = await env.admin.catalog.query('models', { where: [['projectId', '==', group]] });
      expect(ofProject.map((m) => m.id).sort()).toEqual([`${group}-a`, `${group}-b`, `${group}-c`]);
      const byDate = await env.admin.catalog.query('models', {
        where: [
          ['metadata.captureDate', '==', '2024-05-01'],
          ['projectId', '==', group],
        ],
      });
      expect(byDate.map((m) => m.id)).toEqual([`${group}-a`]);
      const byNumber = await env.admin.catalog.query('models', {
        where: [
          ['metadata.displayOrder', '==', 3],
          ['projectId', '==', group],
        ],
      });
      expect(byNumber.map((m) => m.id)).toEqual([`${group}-c`]);
      const byBoolean = await env.admin.catalog.query('models', {
        where: [
          ['isReference', '==', true],
          ['projectId', '==', group],
        ],
      });
      expect(byBoolean.map((m) => m.id)).toEqual([`${group}-b`]);
    });

    it('filters with != (documents missing the field do not match)', async () => {
      const notReference = await env.admin.catalog.query('models', {
        where: [
          ['projectId', '==', group],
          ['isReference', '!=', true],
        ],
      });
      expect(notReference.map((m) => m.id)).toEqual([`${group}-c`]);
    });

    it('orders ascending and descending, also by dotted paths, and limits', async () => {
      const where: [string, '==', string][] = [['projectId', '==', group]];
      const asc = await env.admin.catalog.query('models', { where, orderBy: [['publicId', 'asc']] });
      expect(asc.map((m) => m.publicId)).toEqual(['A-1', 'B-2', 'C-3']);
      const desc = await env.admin.catalog.query('models', { where, orderBy: [['metadata.captureDate', 'desc']] });
      expect(desc.map((m) => m.name)).toEqual(['c', 'a', 'b']);
      const limited = await env.admin.catalog.query('models', { where, orderBy: [['metadata.displayOrder']], limit: 2 });
      expect(limited.map((m) => m.name)).toEqual(['b', 'a']);
    });

    it('counts what a query would return', async () => {
      expect(await env.admin.catalog.count('models', { where: [['projectId', '==', group]] })).toBe(3);
      expect(await env.admin.catalog.count('models', { where: [['projectId', '==', `${group}-none`]] })).toBe(0);
    });

    it('rejects invalid field paths', async () => {
      await expectCode(env.admin.catalog.query('models', { where: [["x') OR 1=1 --", '==', 1]] }), 'invalid-argument');
    });
  });
}
