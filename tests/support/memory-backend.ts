/**
 * Contract setup for the in-memory backend (`shared/adapters/memory`): one store with an admin
 * and a user account (and their `users/{uid}` records), and four clients on it — signed in as the
 * admin, as the user, signed out, and the service principal.
 */
import { createMemoryBackend, createMemoryStore } from '@shared/adapters/memory/index.js';
import type { ContractSetup } from '../contract/suite/index.js';

/** {@link ContractSetup} for the in-memory backend: the clients share one store; nothing to stop. */
export async function setupMemoryBackend(): Promise<ContractSetup> {
  const store = createMemoryStore({
    accounts: [
      { email: 'admin@contract.test', password: 'admin-pass-1', role: 'admin' },
      { email: 'user@contract.test', password: 'user-pass-1', role: 'user' },
    ],
  });
  const service = createMemoryBackend({ store, service: true });
  const admin = createMemoryBackend({ store });
  await admin.identity.signIn('admin@contract.test', 'admin-pass-1');
  const user = createMemoryBackend({ store });
  await user.identity.signIn('user@contract.test', 'user-pass-1');
  const anon = createMemoryBackend({ store });
  return {
    admin,
    user,
    anon,
    service,
    async disableAccount(email) {
      store.setAccountDisabled(email, true);
    },
    async teardown() {
      await Promise.all([admin, user, anon, service].map((backend) => backend.close()));
    },
  };
}
