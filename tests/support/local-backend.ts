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
import type { ContractSetup } from '../contract/suite/index.js';
import { contractClients, createContractAccounts } from './contract-clients.js';

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
  // no background change maps: the contract counts the files and documents its steps write
  const server = await startServer({ dataDir, port: 0, portalDir: options.portalDir ?? null, changeMaps: false });
  const serviceKey = (JSON.parse(readFileSync(server.serviceKeyPath, 'utf8')) as { key: string }).key;
  return { server, dataDir, serviceKey };
}

/** {@link ContractSetup} for the local adapter against a real embedded backend. */
export async function setupLocalBackend(): Promise<ContractSetup> {
  const { server, dataDir, serviceKey } = await startLocalServer();
  const baseUrl = server.url;
  const service = createLocalBackend({ baseUrl, serviceKey });
  await createContractAccounts(service);
  return contractClients(() => createLocalBackend({ baseUrl }), service, {
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
    async stop() {
      await server.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  });
}
