/**
 * The backend contract (two backends behind one set of ports, docs/ARCHITECTURE.md): the
 * behaviour of the ports stated once, run against every adapter by a short test file that only
 * creates its backend. One module per concern: documents (CRUD, server timestamps), queries
 * (filters, orderings, counts), batches (atomic), live updates, project summaries (counts and
 * reference thumbnails per project), roles (who may read and write what: admins, users and the
 * signed out, with hidden models and self-registration), identity (the sign-in error codes),
 * files (uploads with progress, cancel, listing, metadata, deletion, download links), content
 * (what the backend itself refuses: bad model files, a malformed or duplicate Public ID; the
 * web-sized splat it makes) and workflows (the multi-record changes of `shared/workflows` over
 * the ports: reference-model transitions, delete guards, visibility, model files) and admin (no
 * hidden reference, 'Set as Admin' needs the account, a project deleted with its models).
 */
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { adminContract } from './admin.js';
import { batchesContract } from './batches.js';
import { contentContract } from './content.js';
import type { ContractContext, ContractOptions, ContractSetup } from './context.js';
import { randomTag } from './context.js';
import { documentsContract } from './documents.js';
import { filesContract } from './files.js';
import { identityContract } from './identity.js';
import { liveContract } from './live.js';
import { queriesContract } from './queries.js';
import { rolesContract } from './roles.js';
import { summariesContract } from './summaries.js';
import { workflowsContract } from './workflows.js';

export type { ContractOptions, ContractPart, ContractSetup } from './context.js';

/**
 * Declares the contract suite for one backend.
 * @param name shown in the test report, e.g. 'local'
 * @param setup creates the clients (called once, before the tests)
 * @param options parts to skip, each with its printed reason, or the reason to skip everything
 */
export function describeBackendContract(name: string, setup: () => Promise<ContractSetup>, options: ContractOptions = {}): void {
  const skip = options.skip ?? {};
  if (options.skipAll) console.info(`[contract ${name}] skipping everything: ${options.skipAll}`);
  else for (const [part, reason] of Object.entries(skip)) console.info(`[contract ${name}] skipping ${part}: ${reason}`);
  describe.skipIf(Boolean(options.skipAll))(`backend contract: ${name}`, () => {
    let current: ContractSetup | undefined;
    const tag = randomTag();
    let adminUid = '';
    let userUid = '';
    const made = (): ContractSetup => {
      if (!current) throw new Error('the contract setup has not run');
      return current;
    };
    /** The setup's clients, read when a test runs (the setup is made in beforeAll). */
    const env: ContractSetup = {
      get admin() {
        return made().admin;
      },
      get user() {
        return made().user;
      },
      get anon() {
        return made().anon;
      },
      get service() {
        return made().service;
      },
      get disableAccount() {
        return made().disableAccount;
      },
      teardown: () => made().teardown(),
    };

    beforeAll(async () => {
      current = await setup();
      adminUid = current.admin.identity.currentUser()?.uid ?? '';
      userUid = current.user.identity.currentUser()?.uid ?? '';
      expect(adminUid).not.toBe('');
      expect(userUid).not.toBe('');
    });

    afterAll(async () => {
      await current?.teardown();
    });

    const ctx: ContractContext = {
      env,
      get adminUid() {
        return adminUid;
      },
      get userUid() {
        return userUid;
      },
      tag,
      skip,
      project: (suffix, extra = {}) => ({
        name: `Contract ${tag} ${suffix}`,
        structure_id: `${tag}-${suffix}`,
        description: `contract test ${suffix}`,
        slug: `contract-${tag}-${suffix}`.toLowerCase(),
        ...extra,
      }),
    };

    documentsContract(ctx);
    queriesContract(ctx);
    batchesContract(ctx);
    liveContract(ctx);
    summariesContract(ctx);
    rolesContract(ctx);
    identityContract(ctx);
    filesContract(ctx);
    contentContract(ctx);
    workflowsContract(ctx);
    adminContract(ctx);
  });
}
