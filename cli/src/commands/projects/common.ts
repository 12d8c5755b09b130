/**
 * What the `catalog projects …` subcommands share: the project form's fields as options, used by
 * create and update.
 */
import type { Command } from 'commander';

/**
 * Adds the project form's fields as options: `--name`, `--structure-id`, `--description`,
 * `--slug`, `--address`, `--map-url`, `--lat`, `--lng` (latitude and longitude in decimal
 * degrees, as text; the form's validation checks them).
 * @param cmd the command to add them to
 * @param mode 'create' (name and structure ID required, slug generated when empty) or 'update' (each field optional)
 * @returns the same command, for chaining
 */
export function withProjectFields(cmd: Command, mode: 'create' | 'update'): Command {
  const create = mode === 'create';
  return cmd
    .option('--name <name>', create ? 'project name (required)' : 'project name')
    .option('--structure-id <id>', create ? 'structure ID, e.g. TWR-001 (required)' : 'structure ID')
    .option('--description <text>', 'description')
    .option('--slug <slug>', create ? 'URL slug (default: generated from the name)' : 'URL slug ("" regenerates it from the name)')
    .option('--address <address>', 'location address')
    .option('--map-url <url>', 'map link URL')
    .option('--lat <degrees>', 'latitude in decimal degrees')
    .option('--lng <degrees>', 'longitude in decimal degrees');
}
