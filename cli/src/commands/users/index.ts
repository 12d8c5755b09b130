/**
 * `catalog users …`: register users, grant the admin role and list user records. One file per
 * subcommand; this one only registers them.
 */
import { Command } from 'commander';
import { listCommand } from './list.js';
import { promoteCommand } from './promote.js';
import { registerCommand } from './register.js';

export { listCommand, promoteCommand, registerCommand };

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
