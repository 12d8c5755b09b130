/**
 * Backend contract, part: Identity: auth-state observers, the sign-in error codes (wrong password,
 * unknown user, malformed email, disabled account), disabled accounts, account creation and lookups.
 */
import { describe, expect, it } from 'vitest';
import type { ContractContext } from './context.js';
import { expectCode } from './context.js';

/** Declares this part of the contract for the backend of `ctx`. */
export function identityContract(ctx: ContractContext): void {
  const { env, tag, skip } = ctx;

  describe.skipIf(Boolean(skip.identity))('identity', () => {
    it('reports the signed-in user to auth-state observers', async () => {
      const user = await new Promise((resolve) => {
        const stop = env.admin.identity.onAuthStateChanged((u) => {
          resolve(u);
          queueMicrotask(stop);
        });
      });
      expect(user).toMatchObject({ uid: ctx.adminUid });
    });

    it('sign-in errors carry the identity codes', async () => {
      const email = `signin-${tag}@example.com`;
      await env.service.identity.createAccount(email, 'right-password');
      await expectCode(env.anon.identity.signIn(email, 'wrong-password'), 'auth/wrong-password', 'auth/invalid-credential');
      await expectCode(
        env.anon.identity.signIn(`nobody-${tag}@example.com`, 'whatever1'),
        'auth/user-not-found',
        'auth/invalid-credential',
      );
      await expectCode(env.anon.identity.signIn('not-an-email', 'whatever1'), 'auth/invalid-email');
      expect(env.anon.identity.currentUser()).toBeNull();
    });

    it('a disabled account cannot sign in', async (context) => {
      if (!env.disableAccount) {
        context.skip();
        return;
      }
      const email = `disabled-${tag}@example.com`;
      await env.service.identity.createAccount(email, 'secret-1');
      await env.disableAccount(email);
      await expectCode(env.anon.identity.signIn(email, 'secret-1'), 'auth/user-disabled');
    });

    it('account creation checks the password and duplicates; lookups find accounts by email', async () => {
      await expectCode(env.service.identity.createAccount(`weak-${tag}@example.com`, '12345'), 'auth/weak-password');
      await expectCode(env.service.identity.createAccount('bad-email', 'secret-1'), 'auth/invalid-email');
      const created = await env.admin.identity.createAccount(`dup-${tag}@example.com`, 'secret-1');
      await expectCode(env.service.identity.createAccount(`dup-${tag}@example.com`, 'secret-1'), 'auth/email-already-in-use');
      if (env.service.capabilities.lookupUsers && env.service.identity.findAccountByEmail) {
        expect(await env.service.identity.findAccountByEmail(`dup-${tag}@example.com`)).toMatchObject({ uid: created.uid });
        expect(await env.service.identity.findAccountByEmail(`none-${tag}@example.com`)).toBeNull();
      }
    });
  });
}
