/**
 * `catalog models changes <capture> [--against <reference>]`: the change map of a capture against
 * its project's reference model (or the model `--against` names). Both models' files are downloaded
 * (the splat file, or the GLB of a mesh-only model, whose surface is sampled),
 * the pair's stored alignment (or the same frame when none is stored) is refined by ICP, and every
 * confident splat of the capture is measured against the reference's local surface; what moved,
 * appeared or went beyond the level of detection is grouped into change regions, printed with the
 * registration's RMS error. Distances are signed, positive outside the reference surface (towards
 * its viewer): each capture's surfaces face the cameras of its camera metadata, or, without one,
 * up (−y, splats being y-down) where near-horizontal. The map is stored: its per-splat values file under the capture's
 * folder and its summary in the pair's change-map document, on either backend. With `--accept`
 * the registration then becomes the pair's alignment ('icp', as the viewer's 'Accept as
 * alignment' makes it), keeping the manual alignment it replaces for a reset.
 */
import { z } from 'zod';
import type { ChangeRegion } from '@shared/change-map/index.js';
import { IDENTITY_MATRIX } from '@shared/alignment.js';
import { AppError, ErrorCode } from '@shared/errors.js';
import { formatCount, formatNumber } from '@shared/format.js';
import type { Backend } from '@shared/ports/index.js';
import type { Alignment, Model } from '@shared/types.js';
import { acceptRegistration } from '@shared/workflows/alignments.js';
import type { CaptureComparison, ComparedKind } from '../../lib/change-map/compare-files.js';
import {
  changeMapPair,
  ChangesMessages,
  computeStoredChangeMap,
  sameFrameMatrix,
  type ChangeMapStep,
} from '../../lib/change-map/store-change-map.js';
import { examplesHelp, leafCommand } from '../../lib/command.js';
import { findModel, findModelRef, modelRefCommand, modelRefShape } from '../../lib/lookup.js';
import { formatTable } from '../../lib/output.js';

export { ChangesMessages };

const schema = z.object({ ...modelRefShape, against: z.string().min(1).optional(), accept: z.boolean().default(false) });

/** The model `--against` names, in the capture's project. */
async function againstModel(backend: Backend, capture: Model, against: string): Promise<Model> {
  const reference = await findModel(backend, against, capture.projectId ?? undefined);
  if (reference.projectId !== capture.projectId)
    throw new AppError(ErrorCode.InvalidArgument, ChangesMessages.otherProject(reference.publicId));
  return reference;
}

const STEP_LINES: Record<ChangeMapStep, string> = {
  downloading: 'Downloading both captures...',
  reading: 'Reading both captures...',
  registering: 'Refining the alignment (ICP)...',
  measuring: 'Measuring the capture against the reference...',
  storing: 'Storing the change map...',
};

const fixed = (n: number, digits = 3) => (Number.isFinite(n) ? n.toFixed(digits) : '-');
const signed = (n: number) => (n > 0 ? `+${fixed(n)}` : fixed(n));
const point = (p: readonly number[]) => `(${p.map((v) => fixed(v, 2)).join(', ')})`;
const extent = (r: ChangeRegion) => r.max.map((v, i) => fixed(v - r.min[i]!, 2)).join(' × ');

/** The regions as the table prints them: where, how big, how many splats, how far. */
function regionRows(regions: readonly ChangeRegion[]): string[][] {
  return regions.map((r) => [
    String(r.id),
    r.side === 'reference' ? 'removed' : 'added or moved',
    point(r.centroid),
    extent(r),
    formatNumber(r.count),
    signed(r.meanDistance),
    signed(r.maxDistance),
  ]);
}

/** The line that says the registration was accepted as the pair's alignment, and what a reset would do. */
function acceptedLine(accepted: Alignment): string {
  const reset = accepted.previous
    ? `a reset restores the '${accepted.previous.method}' alignment it replaced`
    : 'a reset removes it (no manual alignment was stored)';
  return `Accepted as the pair's alignment ('icp', RMS ${fixed(accepted.rmsError, 4)}): ${reset}`;
}

/** How one side's surfaces were oriented: a GLB's by its triangles' normals; a splat's towards its cameras, or by the up axis and the shape without camera metadata. */
const sidesOf = (kind: ComparedKind, cameras: number) =>
  kind === 'mesh'
    ? "along its GLB's triangle normals"
    : cameras > 0
      ? `facing its ${formatCount(cameras, 'camera')}`
      : 'no camera metadata: facing up where horizontal';

/** What one side's measured points are: confident splats of the file, or points sampled on a GLB. */
const pointsOf = (kind: ComparedKind, points: number, count: number) =>
  kind === 'mesh' ? `${formatNumber(points)} points sampled on the GLB` : `${formatNumber(points)} of ${formatNumber(count)} splats`;

/** The human report of a comparison (with the accepted alignment, when `--accept` made one). */
function report(capture: Model, reference: Model, started: string, outcome: CaptureComparison, accepted: Alignment | null): string {
  const { registration, map } = outcome;
  const lines = [
    `${capture.publicId} against ${reference.publicId}${reference.isReference ? ' (reference model)' : ''}, in the reference's model units`,
    `Registration: RMS ${fixed(registration.rmsError, 4)} after ${formatCount(registration.iterations, 'ICP iteration')} from ${started}`,
    ...(accepted ? [acceptedLine(accepted)] : []),
    `Level of detection: ${fixed(map.levelOfDetection, 4)} (a distance below it reads as unchanged)`,
    `Outside of the surfaces (positive): the capture's ${sidesOf(outcome.captureKind, outcome.cameraCount)}; the reference's ${sidesOf(outcome.referenceKind, outcome.referenceCameraCount)}`,
    `Measured: ${pointsOf(outcome.captureKind, outcome.capturePoints, outcome.captureCount)} in the capture, against ${pointsOf(outcome.referenceKind, outcome.referencePoints, outcome.referenceCount)} in the reference`,
  ];
  if (map.regions.length === 0)
    return [...lines, 'No change region: nothing moved, appeared or went beyond the level of detection.'].join('\n');
  const table = formatTable(
    ['Region', 'Change', 'Centre', 'Extent (x × y × z)', outcome.captureKind === 'mesh' ? 'Points' : 'Splats', 'Mean', 'Max'],
    regionRows(map.regions),
  );
  return [...lines, `${formatCount(map.regions.length, 'change region')}:`, table].join('\n');
}

/** `catalog models changes <model> [--against <model>] [--project <id>]` */
export const changesCommand = leafCommand({
  command: modelRefCommand('changes', "compute a capture's change map against its project's reference model")
    .option('--against <model>', 'the model to compare with (id or public ID; default the project reference model)')
    .option('--accept', "then store the computed registration as the pair's alignment ('icp'; admins)"),
  backend: true,
  schema,
  help: examplesHelp(
    [
      'catalog models changes TWR-001-2025-09 --project TWR-001',
      'catalog models changes TWR-001-2025-09 --against TWR-001-2025-06 --json',
      'catalog models changes TWR-001-2025-09 --project TWR-001 --accept',
    ],
    '\nEach model is compared by its splat file, or by its GLB when it has no splat (points sampled on the mesh).\n' +
      'The pair’s stored alignment (or the same frame when none is stored) is refined by ICP on the confident\n' +
      'splats; distances are signed along the reference surface’s normal, in model units: positive outside (a\n' +
      'GLB’s triangle normals; towards the cameras of the camera metadata; without one, up for horizontal surfaces).\n' +
      'With --accept the refined registration becomes the pair’s alignment (method icp); the manual alignment it\n' +
      'replaces is kept, and the viewer’s Reset alignment restores it.',
  ),
  run: async (input, ctx, open) => {
    const { backend } = await open();
    const capture = await findModelRef(backend, input.model, input.project);
    const against = input.against === undefined ? undefined : await againstModel(backend, capture, input.against);
    const pair = await changeMapPair(backend.catalog, capture, against);
    const { reference, alignment } = pair;
    const startedFrom = alignment
      ? `the stored '${alignment.method}' alignment`
      : sameFrameMatrix(pair) === IDENTITY_MATRIX
        ? 'the same frame (no alignment stored)'
        : 'the same frame as the viewer shows it, the splat turned 180° about x onto the GLB (no alignment stored)';
    const { outcome, valuesPath } = await computeStoredChangeMap(backend, pair, {
      computedBy: 'cli',
      onStep: (step) => !ctx.json && ctx.log(STEP_LINES[step]),
    });
    const { registration, map } = outcome;
    // Accepted from the stored map, in one transaction that checks its files are still the ones measured.
    const accepted = input.accept
      ? await acceptRegistration(backend.catalog, { referenceModelId: reference.id, modelId: capture.id, createdBy: 'cli' })
      : null;
    return {
      result: {
        model: { id: capture.id, publicId: capture.publicId },
        reference: { id: reference.id, publicId: reference.publicId },
        valuesPath,
        startedFrom: alignment ? { method: alignment.method, matrix: alignment.matrix } : null,
        registration,
        levelOfDetection: map.levelOfDetection,
        captureCount: outcome.captureCount,
        pointCount: outcome.capturePoints,
        referenceCount: outcome.referenceCount,
        referencePointCount: outcome.referencePoints,
        cameraCount: outcome.cameraCount,
        referenceCameraCount: outcome.referenceCameraCount,
        captureKind: outcome.captureKind,
        referenceKind: outcome.referenceKind,
        histogram: map.histogram,
        regions: map.regions,
        timings: outcome.timings,
        accepted,
      },
      text: report(capture, reference, startedFrom, outcome, accepted),
      summary: `${capture.publicId}: ${formatCount(map.regions.length, 'change region')} against ${reference.publicId}, registration RMS ${fixed(registration.rmsError, 4)}.`,
    };
  },
});
