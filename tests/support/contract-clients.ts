/**
 * The part of every contract setup that is the same for each adapter: the two accounts, their
 * `users/{uid}` records written by the service principal, and the admin, user and signed-out
 * clients (the suite's `ContractSetup`).
 */
import { SERVER_TIMESTAMP } from '@shared/ports/index.js';
import type { Backend } from '@shared/ports/index.js';
import type { ContractSetup } from '../contract/suite/index.js';

/** The contract suite's accounts: email and password by role. */
export const CONTRACT_ACCOUNTS = {
  admin: ['admin@contract.test', 'admin-pass-1'],
  user: ['user@contract.test', 'user-pass-1'],
} as const;

/**
 * Creates (or reuses) the admin and user accounts through the service principal and writes their
 * `users/{uid}` records with the account's role.
 * @param service a backend acting as the service principal (can create and look up accounts)
 */
export async function createContractAccounts(service: Backend): Promise<void> {
  for (const [role, [email, password]] of Object.entries(CONTRACT_ACCOUNTS)) {
    const existing = service.capabilities.lookupUsers ? await service.identity.findAccountByEmail!(email) : null;
    const account = existing ?? (await service.identity.createAccount(email, password));
    await service.catalog.set('users', account.uid, {
      uid: account.uid,
      email,
      role: role as 'admin' | 'user',
      created_at: SERVER_TIMESTAMP,
      created_by: 'contract',
    });
  }
}

/**
 * Makes the admin, user and signed-out clients and signs the first two in.
 * @param client makes a fresh client (named for logs) of the adapter under test
 * @param service the service principal's backend
 * @param rest what is adapter-specific: `disableAccount`, and `stop` (run after every client is closed)
 * @returns the suite's {@link ContractSetup}
 */
export async function contractClients(
  client: (name: 'admin' | 'user' | 'anon') => Backend,
  service: Backend,
  rest: { disableAccount?: ContractSetup['disableAccount']; stop?: () => Promise<void> | void } = {},
): Promise<ContractSetup> {
  const admin = client('admin');
  await admin.identity.signIn(...CONTRACT_ACCOUNTS.admin);
  const user = client('user');
  await user.identity.signIn(...CONTRACT_ACCOUNTS.user);
  const anon = client('anon');
  return {
    admin,
    user,
    anon,
    service,
    disableAccount: rest.disableAccount,
    async teardown() {
      await Promise.all([admin, user, anon, service].map((backend) => backend.close()));
      await rest.stop?.();
    },
  };
}
