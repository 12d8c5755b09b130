/**
 * `catalog files …`: add, list and delete the files of a model (images, thumbnails, assets,
 * camera metadata). One file per subcommand; this one only registers them.
 */
import { Command } from 'commander';
import { addCommand } from './add.js';
import { deleteCommand } from './delete.js';
import { listCommand } from './list.js';

export { addCommand, deleteCommand, listCommand };

/** `catalog files …` */
export const filesCommand = new Command('files')
  .description('add, list and delete the files of a model (images, thumbnails, assets, camera metadata)')
  .addCommand(addCommand)
  .addCommand(listCommand)
  .addCommand(deleteCommand)
  .addHelpText(
    'after',
    '\nExamples:\n  $ catalog files add TWR-001-2025-06 ./photos/*.jpg --kind images\n  $ catalog files list TWR-001-2025-06\n',
  );
