/**
 * Contract setup for the in-memory backend (`shared/adapters/memory`): one store with an admin
 * and a user account (and their `users/{uid}` records), and four clients on it — signed in as the
 * admin, as the user, signed out, and the service principal.
 */
import { createMemoryBackend, createMemoryStore } from '@shared/adapters/memory/index.js';
import type { ContractSetup } from '../contract/suite/index.js';
import { CONTRACT_ACCOUNTS, contractClients } from './contract-clients.js';

/** {@link ContractSetup} for the in-memory backend: the clients share one store; nothing to stop. */
export async function setupMemoryBackend(): Promise<ContractSetup> {
  const store = createMemoryStore({
    accounts: [
      { email: CONTRACT_ACCOUNTS.admin[0], password: CONTRACT_ACCOUNTS.admin[1], role: 'admin' },
      { email: CONTRACT_ACCOUNTS.user[0], password: CONTRACT_ACCOUNTS.user[1], role: 'user' },
    ],
  });
  const service = createMemoryBackend({ store, service: true });
  return contractClients(() => createMemoryBackend({ store }), service, {
    async disableAccount(email) {
      store.setAccountDisabled(email, true);
    },
  });
}
