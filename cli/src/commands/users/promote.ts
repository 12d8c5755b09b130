/**
 * `catalog users promote`: grants the admin role to a user named by email (looked up in the
 * identity provider, where the backend can) or by uid. A uid without a `users/{uid}` record is
 * refused ('No account with UID …'); an empty name or an email the backend cannot look up is an
 * invalid argument.
 */
import { Command } from 'commander';
import { z } from 'zod';
import { AppError, ErrorCode, errorMessage, isAppError, rewrap } from '@shared/errors.js';
import { ValidationMessages, adminGrantFailed, adminGranted } from '@shared/messages.js';
import { grantAdmin } from '@shared/workflows/index.js';
import { backendOptionsShape } from '../../lib/backend.js';
import { examplesHelp, leafCommand } from '../../lib/command.js';

const promoteSchema = z.object({ user: z.string(), ...backendOptionsShape });

/** `catalog users promote <email|uid>` */
export const promoteCommand = leafCommand({
  command: new Command('promote')
    .description('grant the admin role to a user, by email (looked up) or uid')
    .argument('<user>', "the user's email or uid"),
  backend: true,
  schema: promoteSchema,
  help: examplesHelp(['catalog users promote inspector@lab.example']),
  run: async (input, ctx, open) => {
    const who = input.user.trim();
    if (who === '') throw new AppError(ErrorCode.InvalidArgument, ValidationMessages.setAdminNeedsInput);
    const { backend } = await open();
    let uid = who;
    let email: string | null = null;
    if (who.includes('@')) {
      if (!backend.capabilities.lookupUsers || !backend.identity.findAccountByEmail) {
        throw new AppError(ErrorCode.InvalidArgument, ValidationMessages.setAdminEmailOnly);
      }
      const account = await backend.identity.findAccountByEmail(who.toLowerCase());
      if (account === null)
        throw new AppError(ErrorCode.NotFound, adminGrantFailed(`no account with email ${who}`), { context: { email: who } });
      uid = account.uid;
      email = account.email;
    }
    try {
      // by uid: the users/{uid} record must exist; by email: the identity account was found above
      await grantAdmin(backend.catalog, uid, email === null ? {} : { account: { uid, email } });
    } catch (error) {
      if (isAppError(error, ErrorCode.NotFound, ErrorCode.InvalidArgument)) throw error;
      throw rewrap(error, adminGrantFailed(errorMessage(error)));
    }
    const record = await backend.catalog.get('users', uid);
    return {
      result: { uid, email: record?.email ?? email, role: 'admin' as const },
      text: uid,
      summary: adminGranted(email ?? uid),
    };
  },
});
