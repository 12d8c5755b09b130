/**
 * `catalog seed`: the demo catalog (accounts, projects, models and their findings, the changed capture's change map), idempotent.
 */
import { Command } from 'commander';
import { z } from 'zod';
import { backendOptionsShape } from '../lib/backend.js';
import { leafCommand } from '../lib/command.js';
import { createProgress } from '../lib/progress.js';

const TOWER_GAUSSIANS_RANGE = 'must be a whole number from 5,000 to 1,000,000';
const schema = z.object({
  ...backendOptionsShape,
  // The fewest keeps a tower recognisable; the most keeps the demo's files under about 250 MB.
  towerGaussians: z.coerce
    .number({ message: TOWER_GAUSSIANS_RANGE })
    .int({ message: TOWER_GAUSSIANS_RANGE })
    .min(5_000, { message: TOWER_GAUSSIANS_RANGE })
    .max(1_000_000, { message: TOWER_GAUSSIANS_RANGE })
    .optional(),
});

/** `catalog seed [--data-dir] [--url] [--tower-gaussians N]` */
export const seedCommand = leafCommand({
  command: new Command('seed')
    .description('seed demo accounts, projects and models (creates only what is missing)')
    .option(
      '--tower-gaussians <count>',
      'Gaussians of each demo tower capture (default 50000; fewer draw faster without a GPU, but below about 35000 the demo change map misses the removed panel)',
    ),
  backend: true,
  schema,
  help: '\nExample:\n  $ catalog serve &\n  $ catalog seed\n  (then sign in as admin@demo.lab / demo-admin-1 or user@demo.lab / demo-user-1)\n',
  run: async (input, ctx, open) => {
    const { backend, actorUid, baseUrl } = await open();
    // loaded here: the demo data generator pulls in @gltf-transform/core
    const { seedDemoData } = await import('../lib/seed.js');
    const result = await seedDemoData(backend, {
      actorUid,
      // per-file lines only on a terminal (spinner): the demo files are tiny
      ...(process.stderr.isTTY ? { progress: (label: string) => createProgress({ label }) } : {}),
      log: ctx.log,
      ...(input.towerGaussians === undefined ? {} : { towerGaussians: input.towerGaussians }),
    });
    const lines = [
      ...result.items.map((i) => `${i.created ? 'created ' : 'exists  '} ${i.kind.padEnd(7)} ${i.key.padEnd(18)} ${i.id}`),
      ...(result.findings > 0 ? [`created  ${result.findings} findings on the demo models`] : []),
      ...result.changeMaps.map((publicId) => `stored   change map ${publicId} against its project's reference model`),
      '',
      'Sign-ins:',
      ...result.accounts.map((a) => `  ${a.role.padEnd(5)} ${a.email} / ${a.password}`),
      ...(result.filesSkipped ? ['', result.filesSkipped] : []),
    ];
    return {
      result,
      text: lines.join('\n'),
      summary:
        result.created === 0
          ? `Demo data already present at ${baseUrl}: nothing created.`
          : `Seeded ${result.created} records at ${baseUrl}.`,
    };
  },
});
