/**
 * `catalog validate <folder>`: reads a model folder as `catalog models upload` would, runs the
 * content checks on every file (3DGS PLY / `.splat`, GLB with gltf-validator, camera
 * metadata, photos) and prints the plan, the validation report and every problem. Writes
 * nothing and needs no server. `--json` gives the plan with its `report`, also when a file is
 * refused (then as `{"status":"error","error":…,"result":…}`, exit code 1).
 */
import { Command } from 'commander';
import { z } from 'zod';
import { ErrorCode } from '@shared/errors.js';
import { examplesHelp, leafCommand } from '../lib/command.js';
import { describeInspection, inspectModelFolder, inspectionSummary } from '../lib/folder.js';

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
  help: examplesHelp(['catalog validate ./output/my-scan --type splat', 'catalog validate ./output/my-scan --json']),
  run: async (input) => {
    const inspection = await inspectModelFolder(input.folder, { modelType: input.type ?? null });
    const result = inspectionSummary(inspection);
    if (inspection.problems.length > 0) {
      return {
        result,
        text: describeInspection(inspection),
        failure: { code: ErrorCode.InvalidArgument, message: inspection.problems.map((p) => p.message).join('\n') },
      };
    }
    return { result, text: describeInspection(inspection), summary: `${input.folder} is ready to upload.` };
  },
});
