/**
 * `catalog projects …`: create, list, show, update and delete projects (`delete --with-models`
 * deletes the project's models and their files too) and set a project's reference model. One
 * file per subcommand; this one only registers them.
 */
import { Command } from 'commander';
import { createCommand } from './create.js';
import { deleteCommand } from './delete.js';
import { listCommand } from './list.js';
import { setReferenceCommand } from './set-reference.js';
import { showCommand } from './show.js';
import { updateCommand } from './update.js';

export type { ListedProject } from './list.js';
export { createCommand, deleteCommand, listCommand, setReferenceCommand, showCommand, updateCommand };

/** `catalog projects …` */
export const projectsCommand = new Command('projects')
  .description('create, list, show, edit and delete projects; set their reference model')
  .addCommand(createCommand)
  .addCommand(listCommand)
  .addCommand(showCommand)
  .addCommand(updateCommand)
  .addCommand(deleteCommand)
  .addCommand(setReferenceCommand)
  .addHelpText(
    'after',
    '\nExamples:\n  $ catalog projects create --name "Harbour Light Mast" --structure-id MST-003\n  $ catalog projects list\n  $ catalog projects delete MST-003 --confirm "Harbour Light Mast"\n  $ catalog projects delete TWR-001 --with-models --confirm "North Ridge Telecom Tower"\n',
  );
