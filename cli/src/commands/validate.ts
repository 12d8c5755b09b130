/**
 * `catalog validate <folder>`: reads a model folder as `catalog models upload` would and prints
 * the plan and every problem. Writes nothing and needs no server.
 */
import { Command } from 'commander';
import { z } from 'zod';
import { examplesHelp, leafCommand } from '../lib/command.js';
import { assertNoProblems, describeInspection, inspectModelFolder, inspectionSummary } from '../lib/folder.js';

const schema = z.object({
  folder: z.string().min(1),
  type: z.enum(['hybrid', 'splat', 'mesh']).optional(),
});

/** `catalog validate <folder> [--type hybrid|splat|mesh]` */
export const validateCommand = leafCommand({
  command: new Command('validate')
    .description('check a model folder (splat, GLB, camera metadata, images) without uploading anything')
    .argument('<folder>', 'model folder: flat, or a 3DGS training output')
    .option('--type <type>', 'model type to check for: hybrid, splat or mesh (default: inferred)'),
  schema,
  help: examplesHelp(['catalog validate ./output/my-scan --type splat']),
  run: async (input, ctx) => {
    const inspection = await inspectModelFolder(input.folder, { modelType: input.type ?? null });
    if (inspection.problems.length > 0) {
      if (!ctx.json) ctx.log(describeInspection(inspection, { problems: false }));
      assertNoProblems(inspection);
    }
    return {
      result: inspectionSummary(inspection),
      text: describeInspection(inspection),
      summary: `${input.folder} is ready to upload.`,
    };
  },
});
