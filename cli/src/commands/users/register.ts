/**
 * `catalog users register`: a new account (email and password) with role user or admin. The
 * password is asked for (hidden) on a terminal when `--password` is not given; the identity
 * provider's `auth/…` errors are said as the portal's registration form says them.
 */
import { Command } from 'commander';
import { z } from 'zod';
import { isAppError, rewrap } from '@shared/errors.js';
import { registrationErrorMessage } from '@shared/messages.js';
import { registerUser } from '@shared/workflows/index.js';
import { backendOptionsShape } from '../../lib/backend.js';
import { examplesHelp, leafCommand } from '../../lib/command.js';
import { askText } from '../../lib/prompts.js';

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
