/**
 * `catalog users list`: the user records (email, role, uid), sorted by email (uid when there is
 * none), optionally only one role; 'No users' when there is none.
 */
import { Command } from 'commander';
import { z } from 'zod';
import { formatCount } from '@shared/format.js';
import { backendOptionsShape } from '../../lib/backend.js';
import { examplesHelp, leafCommand } from '../../lib/command.js';
import { formatTable } from '../../lib/output.js';

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
