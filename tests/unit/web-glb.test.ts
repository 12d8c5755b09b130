// The web-sized copy of a GLB (cli/src/lib/web-glb.ts): a textured mesh gets a copy at least 2×
// smaller that passes the catalog's GLB check (the Khronos validator), read back with the meshopt
// decoder the viewer's GLTFLoader uses (three's), with the same triangles and textures no larger
// than 2048 px; a GLB too small to gain gets none.
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NodeIO } from '@gltf-transform/core';
import { ALL_EXTENSIONS } from '@gltf-transform/extensions';
import sharp from 'sharp';
import { MeshoptDecoder } from 'three/examples/jsm/libs/meshopt_decoder.module.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bytesSource } from '@shared/content-check/byte-source.js';
import { checkGlb } from '@shared/content-check/glb.js';
import { WEB_GLB_MIN_RATIO } from '@shared/paths.js';
import { compressGlbFile, WEB_GLB_TEXTURE_MAX_EDGE } from '../../cli/src/lib/web-glb.js';
import { texturedGlb, triangleGlb } from '../support/model-fixtures.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'catalog-web-glb-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Triangles of every primitive of a GLB read with three's meshopt decoder. */
async function readBack(bytes: Uint8Array) {
  await MeshoptDecoder.ready;
  const io = new NodeIO().registerExtensions(ALL_EXTENSIONS).registerDependencies({ 'meshopt.decoder': MeshoptDecoder });
  const doc = await io.readBinary(bytes);
  const primitives = doc
    .getRoot()
    .listMeshes()
    .flatMap((mesh) => mesh.listPrimitives());
  const triangles = primitives.reduce((n, p) => n + (p.getIndices()?.getCount() ?? 0) / 3, 0);
  const textures = doc.getRoot().listTextures();
  return { primitives, triangles, textures };
}

// Each case builds and compresses textured meshes of several MB: seconds of CPU, more on a loaded machine.
describe('web-sized GLBs', { timeout: 60_000 }, () => {
  it('a textured mesh gets a copy at least 2× smaller that the checks accept, with the same triangles', async () => {
    const { glb, triangles } = await texturedGlb({ triangles: 4000, textureEdge: 2560 });
    const input = join(dir, 'textured.glb');
    const output = join(dir, 'textured.web.glb');
    await writeFile(input, glb);

    const result = await compressGlbFile(input, output);

    expect(result.skipped).toBeNull();
    expect(result.originalBytes).toBe(glb.length);
    expect(result.bytes * WEB_GLB_MIN_RATIO).toBeLessThanOrEqual(glb.length);
    const copy = new Uint8Array(await readFile(output));
    expect(copy.length).toBe(result.bytes);

    const check = await checkGlb(bytesSource(copy, 'model.web.glb'));
    expect(check.problem).toBeNull();
    expect(check.verdict).not.toBe('refused');
    expect(check.extensions).toEqual(expect.arrayContaining(['EXT_meshopt_compression', 'EXT_texture_webp']));
    expect(check.triangles).toBe(triangles);

    const back = await readBack(copy);
    expect(back.triangles).toBe(triangles);
    expect(back.primitives.every((p) => p.getAttribute('POSITION') && p.getAttribute('TEXCOORD_0'))).toBe(true);
    expect(back.textures).toHaveLength(1);
    expect(back.textures[0]!.getMimeType()).toBe('image/webp');
    const { width, height, format } = await sharp(back.textures[0]!.getImage()!).metadata();
    expect({ width, height, format }).toEqual({ width: WEB_GLB_TEXTURE_MAX_EDGE, height: WEB_GLB_TEXTURE_MAX_EDGE, format: 'webp' });
  });

  it('a GLB too small to gain gets none, and nothing is left at the output', async () => {
    const input = join(dir, 'triangle.glb');
    const output = join(dir, 'triangle.web.glb');
    await writeFile(input, await triangleGlb());

    const result = await compressGlbFile(input, output);

    expect(result.skipped).toMatch(/^the copy would be .* MB of .* MB, not 2× smaller$/);
    expect(existsSync(output)).toBe(false);
  });

  it('a file gltf-transform cannot read is refused with its reason, nothing written', async () => {
    const input = join(dir, 'broken.glb');
    const output = join(dir, 'broken.web.glb');
    await writeFile(input, new TextEncoder().encode('glTF not really a GLB'));
    await expect(compressGlbFile(input, output)).rejects.toMatchObject({ code: 'invalid-argument' });
    expect(existsSync(output)).toBe(false);
  });
});
