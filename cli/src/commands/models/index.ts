/**
 * `catalog models …`: upload one model folder or a whole batch (resumable, idempotent), list,
 * show, update, hide/unhide and delete models, compare a capture with its reference (its change
 * map), with the portal's rules and messages for each.
 * One file per subcommand; this one only registers them.
 */
import { Command } from 'commander';
import { examplesHelp } from '../../lib/command.js';
import { changesCommand } from './changes.js';
import { deleteCommand } from './delete.js';
import { listCommand } from './list.js';
import { photosAtCommand } from './photos-at.js';
import { setScaleCommand } from './set-scale.js';
import { showCommand } from './show.js';
import { updateCommand } from './update.js';
import { uploadManyCommand } from './upload-many.js';
import { uploadCommand } from './upload.js';
import { hideCommand, unhideCommand } from './visibility.js';

export { REPLACE_REFERENCE_QUESTION } from './common.js';
export {
  changesCommand,
  deleteCommand,
  hideCommand,
  listCommand,
  photosAtCommand,
  setScaleCommand,
  showCommand,
  unhideCommand,
  updateCommand,
  uploadCommand,
  uploadManyCommand,
};

/** `catalog models …` */
export const modelsCommand = new Command('models')
  .description('upload, list, show, edit, hide/unhide, delete and compare models')
  .addCommand(uploadCommand)
  .addCommand(uploadManyCommand)
  .addCommand(listCommand)
  .addCommand(showCommand)
  .addCommand(updateCommand)
  .addCommand(hideCommand)
  .addCommand(unhideCommand)
  .addCommand(setScaleCommand)
  .addCommand(deleteCommand)
  .addCommand(photosAtCommand)
  .addCommand(changesCommand)
  .addHelpText(
    'after',
    examplesHelp([
      'catalog models upload ./scan --project <projectId> --public-id TWR-001-2025 --name "2025 survey"',
      'catalog models upload-many ./campaign --project TWR-001 --dry-run',
      'catalog models list --project TWR-001',
    ]),
  );
