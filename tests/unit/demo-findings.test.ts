// The demo findings `catalog seed` writes (cli/src/lib/demo-data/): valid finding
// input in the model's own coordinates (the splat's y-down file frame for a model with a splat,
// the GLB's y-up frame for a mesh-only one), each point of a tower finding on the generated splat
// (within half a metre of a Gaussian centre), each bridge point inside the footbridge GLB's bounds,
// and the follow-up pointing at a finding of the earlier survey.
import { NodeIO } from '@gltf-transform/core';
import { describe, expect, it } from 'vitest';
import { validateAnnotation } from '@shared/annotations.js';
import { TRAINING_PLY_PROPERTIES } from '@shared/content-check/ply-header.js';
import type { ModelPoint } from '@shared/types.js';
import { DEMO_PROJECTS, demoFindingInput, makeBridgeGlb, makeSplatPly } from '../../cli/src/lib/demo-data/index.js';

const demoModels = DEMO_PROJECTS.flatMap((p) => p.models);

/** Gaussian centres of a splat PLY written by makeSplatPly (file frame). */
function centres(bytes: Uint8Array): ModelPoint[] {
  const text = new TextDecoder('latin1').decode(bytes.subarray(0, 4096));
  const headerLength = text.indexOf('end_header\n') + 'end_header\n'.length;
  const count = Number(/element vertex (\d+)/.exec(text)?.[1]);
  const view = new DataView(bytes.buffer, bytes.byteOffset + headerLength);
  const stride = TRAINING_PLY_PROPERTIES.length * 4;
  const f = (i: number, j: number) => view.getFloat32(i * stride + j * 4, true);
  return Array.from({ length: count }, (_, i) => ({ x: f(i, 0), y: f(i, 1), z: f(i, 2) }));
}

const distance = (a: ModelPoint, b: ModelPoint) => Math.hypot(a.x - b.x, a.y - b.y, a.z - b.z);

describe('demo findings: valid input placed on their models, follow-ups linked', () => {
  it('are valid finding input, scaled models in metres', () => {
    const withFindings = demoModels.filter((m) => (m.findings ?? []).length > 0);
    expect(withFindings.map((m) => [m.publicId, m.findings?.length, m.unitsPerMetre])).toEqual([
      ['TWR-001-2024-05', 2, 1],
      ['TWR-001-2025-06', 3, 1],
      ['BRG-002-2025-04', 2, 1],
    ]);
    for (const model of withFindings) {
      for (const finding of model.findings ?? []) {
        const result = validateAnnotation(demoFindingInput(model, finding));
        expect(result.ok, `${model.publicId} ${finding.title}`).toBe(true);
      }
    }
  });

  it("put the tower's points on its splat, in the splat file's y-down frame, and the height along -y", () => {
    for (const model of demoModels.filter((m) => m.files.splat && (m.findings ?? []).length > 0)) {
      const splat = centres(makeSplatPly({ ...model.survey, count: model.splatCount ?? 3600, seed: model.seed, tint: model.tint }));
      for (const finding of model.findings ?? []) {
        const input = demoFindingInput(model, finding);
        for (const point of input.points) {
          const nearest = Math.min(...splat.map((c) => distance(c, point)));
          expect(nearest, `${model.publicId} ${finding.title}`).toBeLessThan(0.5);
          // y-down: the structure stands at negative y
          expect(point.y).toBeLessThanOrEqual(0);
        }
        if (finding.measure === 'height') expect(input.up).toEqual({ x: 0, y: -1, z: 0 });
      }
    }
  });

  it("put the footbridge's points inside its GLB (y-up, as the file is)", async () => {
    const doc = await new NodeIO().readBinary(await makeBridgeGlb());
    const min = [Infinity, Infinity, Infinity];
    const max = [-Infinity, -Infinity, -Infinity];
    for (const mesh of doc.getRoot().listMeshes()) {
      for (const primitive of mesh.listPrimitives()) {
        const position = primitive.getAttribute('POSITION');
        for (let k = 0; k < 3; k += 1) {
          min[k] = Math.min(min[k]!, position!.getMin([])[k]!);
          max[k] = Math.max(max[k]!, position!.getMax([])[k]!);
        }
      }
    }
    const bridge = demoModels.find((m) => m.publicId === 'BRG-002-2025-04')!;
    for (const finding of bridge.findings ?? []) {
      for (const p of demoFindingInput(bridge, finding).points) {
        [p.x, p.y, p.z].forEach((v, k) => {
          expect(v).toBeGreaterThanOrEqual(min[k]!);
          expect(v).toBeLessThanOrEqual(max[k]!);
        });
      }
    }
  });

  it('link the 2025 corrosion finding to the 2024 one it follows up', () => {
    const later = demoModels.find((m) => m.publicId === 'TWR-001-2025-06')!;
    const follow = later.findings?.find((f) => f.followUpOf);
    expect(follow?.followUpOf).toEqual({ publicId: 'TWR-001-2024-05', seq: 1 });
    const earlier = demoModels.find((m) => m.publicId === 'TWR-001-2024-05')!;
    expect(earlier.findings?.[0]?.title).toBe(follow?.title);
  });
});
