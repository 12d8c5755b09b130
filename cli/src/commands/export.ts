/**
 * `catalog export <dir>` and `catalog import <dir>`: the whole catalog (documents and files) in
 * the documented layout of `shared/export-layout.ts`, so that a catalog moves between backends.
 */
import { resolve } from 'node:path';
import { Command } from 'commander';
import { z } from 'zod';
import { formatBytes } from '@shared/format.js';
import { backendOptionsShape } from '../lib/backend.js';
import { leafCommand } from '../lib/command.js';
import { embeddedAccountsApi } from '../lib/catalog-io.js';
import { exportCatalog } from '../lib/catalog-export.js';
import { importCatalog } from '../lib/catalog-import.js';

const LAYOUT_HELP = `
Layout:
  <dir>/catalog.json                 manifest (format, version, counts, every file with its size)
  <dir>/documents/<collection>.json  users, admins, projects, models, annotations (findings), alignments:
                                     [{id, ...fields}] sorted by id
  <dir>/files/models/<uuid>/...      every stored file, byte for byte
  <dir>/accounts.json                sign-in accounts with password hashes (embedded server; mode 0600)
`;

const IMPORT_HELP = `
An export is checked whole before anything is written, and every problem is listed: files must
be regular files (no symbolic or hard links), files/ must hold exactly the files catalog.json
lists, every document must be valid, every file must pass its content check, and accounts.json
may not take over an existing account nor make an existing account an admin. If writing fails
part way (or on Ctrl-C), everything the import wrote is undone.
`;

const schema = z.object({ dir: z.string().min(1), ...backendOptionsShape });

/** `catalog export <dir>` */
export const exportCommand = leafCommand({
  command: new Command('export')
    .description('export the whole catalog (documents and files) into a new folder')
    .argument('<dir>', 'target folder (new or empty)'),
  backend: true,
  schema,
  help: `${LAYOUT_HELP}\nExample:\n  $ catalog export ./catalog-backup-2025-06 --data-dir ./.catalog-data\n`,
  run: async (input, _ctx, open) => {
    const { backend, baseUrl, serviceKey } = await open();
    const dir = resolve(input.dir);
    const manifest = await exportCatalog(backend, dir, {
      source: baseUrl,
      ...(serviceKey ? { accounts: embeddedAccountsApi(baseUrl, serviceKey) } : {}),
    });
    const bytes = manifest.files.reduce((n, f) => n + f.size, 0);
    const counts = Object.entries(manifest.counts)
      .map(([k, v]) => `${v} ${k}`)
      .join(', ');
    return { result: { dir, counts: manifest.counts, bytes }, text: dir, summary: `Exported ${counts} (${formatBytes(bytes)}) to ${dir}.` };
  },
});

/** `catalog import <dir>` */
export const importCommand = leafCommand({
  command: new Command('import')
    .description('import a catalog export (documents keep their ids; files already stored are not sent again)')
    .argument('<dir>', 'folder written by `catalog export`'),
  backend: true,
  schema,
  help: `${LAYOUT_HELP}${IMPORT_HELP}\nExample:\n  $ catalog import ./catalog-backup-2025-06 --data-dir ./new-data\n`,
  run: async (input, _ctx, open) => {
    const { backend, baseUrl, serviceKey } = await open();
    const dir = resolve(input.dir);
    // Ctrl-C (or a stop) while importing: stop, undo what was written, then exit with the error.
    const interrupted = new AbortController();
    const onSignal = (): void => interrupted.abort();
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
    let result;
    try {
      result = await importCatalog(backend, dir, {
        signal: interrupted.signal,
        ...(serviceKey ? { accounts: embeddedAccountsApi(baseUrl, serviceKey) } : {}),
      });
    } finally {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    }
    const counts = Object.entries(result.counts)
      .map(([k, v]) => `${v} ${k}`)
      .join(', ');
    const admins = result.newAdmins.length > 0 ? ` New admins: ${result.newAdmins.join(', ')}.` : '';
    return {
      result: { dir, ...result },
      text: dir,
      summary: `Imported ${counts} from ${dir} (sent ${formatBytes(result.bytesSent)}).${admins}`,
    };
  },
});
