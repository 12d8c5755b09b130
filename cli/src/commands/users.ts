/**
 * `catalog users register`, `promote` and `list` (SPEC.md §2 User management, §5 "Register user"
 * and "Set admin", §8 registration and admin-grant messages); promoting a UID without a
 * `users/{uid}` record is refused ('No account with UID …', issue 17).
 */
import { Command } from 'commander';
import { z } from 'zod';
import { AppError, ErrorCode, isAppError, rewrap } from '@shared/errors.js';
import { ValidationMessages, adminGrantFailed, adminGranted, registrationErrorMessage } from '@shared/messages.js';
import { grantAdmin, registerUser } from '@shared/workflows/index.js';
import { formatCount } from '@shared/format.js';
import { backendOptionsShape } from '../lib/backend.js';
import { formatTable } from '../lib/output.js';
import { examplesHelp, leafCommand } from '../lib/command.js';
import { askText } from '../lib/prompts.js';

const registerSchema = z.object({
  email: z.string(),
  password: z.string().optional(),
  role: z.enum(['user', 'admin']).default('user'),
  ...backendOptionsShape,
});

/** `catalog users register <email> --password … [--role user|admin]` */
export const registerCommand = leafCommand({
  command: new Command('register')
    .description('register a user account (email and password) with role user or admin')
    .argument('<email>', "the user's email")
    .option('--password <password>', 'initial password, at least 6 characters (prompted when omitted on a terminal)')
    .option('--role <role>', 'user or admin', 'user'),
  backend: true,
  schema: registerSchema,
  help: examplesHelp(['catalog users register inspector@lab.example --password s3cret-pass --role user']),
  run: async (input, ctx, open) => {
    const password =
      input.password ?? (await askText(ctx, { message: 'Password (at least 6 characters):', flag: '--password', secret: true }));
    const { backend, actorUid } = await open();
    try {
      const record = await registerUser(backend, { email: input.email, password, role: input.role }, actorUid);
      return {
        result: { uid: record.id, email: record.email, role: record.role },
        text: record.id,
        summary: `Registered ${record.email} as ${record.role} (uid ${record.id}).`,
      };
    } catch (error) {
      if (isAppError(error) && error.code.startsWith('auth/')) {
        throw rewrap(error, registrationErrorMessage(error));
      }
      throw error;
    }
  },
});

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
      throw rewrap(error, adminGrantFailed(error instanceof Error ? error.message : String(error)));
    }
    const record = await backend.catalog.get('users', uid);
    return {
      result: { uid, email: record?.email ?? email, role: 'admin' as const },
      text: uid,
      summary: adminGranted(email ?? uid),
    };
  },
});

const listSchema = z.object({ role: z.enum(['user', 'admin']).optional(), ...backendOptionsShape });

/** `catalog users list [--role user|admin]` */
export const listCommand = leafCommand({
  command: new Command('list')
    .description('list user records (email, role, uid)')
    .option('--role <role>', 'only users with this role: user or admin'),
  backend: true,
  schema: listSchema,
  help: examplesHelp(['catalog users list --role admin --json']),
  run: async (input, _ctx, open) => {
    const { backend } = await open();
    const users = await backend.catalog.query('users', input.role ? { where: [['role', '==', input.role]] } : undefined);
    users.sort((a, b) => (a.email ?? a.id).localeCompare(b.email ?? b.id));
    const rows = users.map((u) => [u.email ?? '-', u.role, u.id]);
    return {
      result: users,
      text: users.length === 0 ? 'No users' : formatTable(['EMAIL', 'ROLE', 'UID'], rows),
      summary: formatCount(users.length, 'user'),
    };
  },
});

/** `catalog users …` */
export const usersCommand = new Command('users')
  .description('register and list users, grant the admin role')
  .addCommand(registerCommand)
  .addCommand(promoteCommand)
  .addCommand(listCommand)
  .addHelpText(
    'after',
    '\nExamples:\n  $ catalog users register inspector@lab.example --password s3cret-pass\n  $ catalog users promote inspector@lab.example\n',
  );
