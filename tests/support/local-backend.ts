/**
 * Contract setup for the local adapter: starts a real embedded backend (`startServer`) on a
 * free port in a temporary data folder, creates the admin and user accounts through the
 * service backend, and signs the clients in.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer } from '../../cli/src/server/index.js';
import type { RunningServer } from '../../cli/src/server/index.js';
import { createLocalBackend } from '@shared/adapters/local/index.js';
import { SERVER_TIMESTAMP } from '@shared/ports/index.js';
import type { ContractSetup } from '../contract/suite/index.js';

/** A started server plus its service key and data folder (for server-specific tests). */
export interface LocalServerHandle {
  server: RunningServer;
  dataDir: string;
  serviceKey: string;
}

/**
 * Starts an embedded backend in a fresh temporary folder.
 * @returns the server, its data folder and service key; call `server.close()` and remove `dataDir` afterwards
 */
export async function startLocalServer(options: { portalDir?: string } = {}): Promise<LocalServerHandle> {
  const dataDir = mkdtempSync(join(tmpdir(), 'catalog-contract-'));
  const server = await startServer({ dataDir, port: 0, portalDir: options.portalDir ?? null });
  const serviceKey = (JSON.parse(readFileSync(server.serviceKeyPath, 'utf8')) as { key: string }).key;
  return { server, dataDir, serviceKey };
}

/** {@link ContractSetup} for the local adapter against a real embedded backend. */
export async function setupLocalBackend(): Promise<ContractSetup> {
  const { server, dataDir, serviceKey } = await startLocalServer();
  const baseUrl = server.url;
  const service = createLocalBackend({ baseUrl, serviceKey });
  const accounts = { admin: ['admin@contract.test', 'admin-pass-1'], user: ['user@contract.test', 'user-pass-1'] } as const;
  for (const [role, [email, password]] of Object.entries(accounts)) {
    const account = await service.identity.createAccount(email, password);
    await service.catalog.set('users', account.uid, { uid: account.uid, email, role: role as 'admin' | 'user', created_at: SERVER_TIMESTAMP, created_by: 'contract' });
  }
  const admin = createLocalBackend({ baseUrl });
  await admin.identity.signIn(...accounts.admin);
  const user = createLocalBackend({ baseUrl });
  await user.identity.signIn(...accounts.user);
  const anon = createLocalBackend({ baseUrl });
  return {
    admin,
    user,
    anon,
    service,
    async disableAccount(email) {
      const account = await service.identity.findAccountByEmail!(email);
      if (!account) throw new Error(`no account ${email}`);
      const response = await fetch(`${baseUrl}/v1/auth/accounts/${encodeURIComponent(account.uid)}`, {
        method: 'PATCH',
        headers: { authorization: `Bearer ${serviceKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ disabled: true }),
      });
      if (!response.ok) throw new Error(`disable failed: ${response.status} ${await response.text()}`);
    },
    async teardown() {
      await Promise.all([admin, user, anon, service].map((backend) => backend.close()));
      await server.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
