// The content checks of shared/content-check/ (a model file is stored only if it is what it claims
// to be) on generated files and, when present, the real samples: what each check accepts, the facts it reports, and the message it refuses
// a file with. Photos are decoded with sharp (cli/src/lib/images.ts), as the CLI and server do.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  bytesSource,
  checkCameraMetadata,
  checkGlb,
  checkImage,
  checkModelContent,
  checkPly,
  checkSplatFile,
  contentKindOfName,
  contentKindOfPath,
  GAUSSIAN_PROPERTIES,
} from '@shared/content-check/index.js';
import { ValidationMessages } from '@shared/messages.js';
import { decodeImageWithSharp } from '../../cli/src/lib/images.js';
import {
  cameraMetadataText,
  gaussianPly,
  gaussianPlyHeader,
  HTML_PAGE,
  jpegPhoto,
  LFS_POINTER,
  pngPhoto,
  splatFile,
  triangleGlb,
} from '../support/model-fixtures.js';
import { samplePath, samplesPresent } from '../support/paths.js';

const text = (value: string): Uint8Array => new TextEncoder().encode(value);
const src = (bytes: Uint8Array | string, name: string) => bytesSource(typeof bytes === 'string' ? text(bytes) : bytes, name);
const sample = (path: string, name = path.split('/').pop()!) => bytesSource(new Uint8Array(readFileSync(samplePath(path))), name);

describe('3DGS PLY', () => {
  it('reads the Gaussians, SH degree, encoding and the box of the centres in one pass', async () => {
    const check = await checkPly(src(gaussianPly(100), 'point_cloud.ply'));
    expect(check).toMatchObject({
      verdict: 'ok',
      problem: null,
      format: 'ply',
      encoding: 'binary_little_endian',
      gaussians: 100,
      shDegree: 3,
    });
    expect(check.boundingBox).toEqual({ min: [0, 0, -99], max: [99, 198, 0] });
  });

  it('with scanData false (the server, after a client scanned the file), checks the header and size only', async () => {
    const ply = gaussianPly(10);
    expect(await checkPly(src(ply, 'a.ply'), { scanData: false })).toMatchObject({ verdict: 'ok', gaussians: 10, boundingBox: null });
    expect((await checkPly(src(ply.subarray(0, ply.byteLength - 1), 'cut.ply'), { scanData: false })).verdict).toBe('refused');
    expect(await checkSplatFile(src(splatFile(3), 'a.splat'), { scanData: false })).toMatchObject({ gaussians: 3, boundingBox: null });
  });

  it('reads centres the same whatever the alignment of the data in memory', async () => {
    const ply = gaussianPly(50);
    for (const shift of [0, 1, 2, 3]) {
      const moved = new Uint8Array(ply.byteLength + shift).subarray(shift);
      moved.set(ply);
      expect((await checkPly(src(moved, 'a.ply'))).boundingBox).toEqual({ min: [0, 0, -49], max: [49, 98, 0] });
    }
  });

  it('reads an ASCII PLY, SH degree 0', async () => {
    const props = GAUSSIAN_PROPERTIES;
    const header = `ply\nformat ascii 1.0\nelement vertex 2\n${props.map((p) => `property float ${p}\n`).join('')}end_header\n`;
    const body = `1 2 3 0 0 0 1 0 0 0 1 0 0 0\n-1 5 0.5 0 0 0 1 0 0 0 1 0 0 0\n`;
    const check = await checkPly(src(header + body, 'a.ply'));
    expect(check).toMatchObject({
      verdict: 'ok',
      encoding: 'ascii',
      gaussians: 2,
      shDegree: 0,
      boundingBox: { min: [-1, 2, 0.5], max: [1, 5, 3] },
    });
    const short = await checkPly(src(header + body.split('\n')[0] + '\n', 'a.ply'));
    expect(short.problem).toBe('This .ply is truncated: its header declares 2 Gaussians but the file has 1 (a.ply).');
    const words = await checkPly(src(`${header}1 2 3 not numbers\n`, 'a.ply'));
    expect(words.problem).toBe('This .ply is not a valid ASCII PLY: vertex 1 does not have 14 numbers (a.ply).');
  });

  it('refuses a truncated file, naming what the header declares', async () => {
    const ply = gaussianPly(10);
    const check = await checkPly(src(ply.subarray(0, ply.byteLength - 1), 'cut.ply'));
    expect(check.verdict).toBe('refused');
    expect(check.problem).toBe(
      `This .ply is truncated: its header declares 10 Gaussians (${ply.byteLength.toLocaleString('en-US')} bytes) but the file has ${(ply.byteLength - 1).toLocaleString('en-US')} bytes (cut.ply).`,
    );
  });

  it('warns about bytes after the data and positions that are not numbers', async () => {
    const ply = gaussianPly(3);
    const longer = new Uint8Array(ply.byteLength + 8);
    longer.set(ply);
    expect((await checkPly(src(longer, 'a.ply'))).warnings).toEqual(['8 bytes after the data the header declares (ignored).']);
    const nan = gaussianPly(3);
    new DataView(nan.buffer).setFloat32(gaussianPlyHeader(3).length, Number.NaN, true);
    const check = await checkPly(src(nan, 'a.ply'));
    expect(check).toMatchObject({ verdict: 'warnings', warnings: ['1 Gaussians have a position that is not a finite number.'] });
  });

  it('names a Git LFS pointer, another kind of file, a big-endian or vertex-less PLY and a plain point cloud', async () => {
    expect((await checkPly(src(LFS_POINTER, 'point_cloud.ply'))).problem).toBe(
      `This .ply is a Git LFS pointer (a ${LFS_POINTER.length}-byte text file), not the splat itself: fetch the real file with 'git lfs pull' and upload that (point_cloud.ply).`,
    );
    expect((await checkPly(src(HTML_PAGE, 'a.ply'))).problem).toBe('This .ply is an HTML page, not a PLY file (a.ply).');
    expect((await checkPly(src(await triangleGlb(), 'a.ply'))).problem).toBe('This .ply is a GLB file, not a PLY file (a.ply).');
    expect(
      (await checkPly(src('ply\nformat binary_big_endian 1.0\nelement vertex 1\nproperty float x\nend_header\n', 'b.ply'))).problem,
    ).toBe("This .ply is a PLY in 'binary_big_endian' format: only binary_little_endian and ascii PLY files can be viewed (b.ply).");
    expect((await checkPly(src('ply\nformat ascii 1.0\nelement face 0\nend_header\n', 'c.ply'))).problem).toBe(
      'This .ply is a PLY without vertices: its header declares no Gaussians (c.ply).',
    );
    const cloud = 'ply\nformat ascii 1.0\nelement vertex 1\nproperty float x\nproperty float y\nproperty float z\nend_header\n1 2 3\n';
    expect((await checkPly(src(cloud, 'd.ply'))).problem).toBe(
      'This .ply is not a Gaussian splat: its vertices lack the 3DGS properties f_dc_0, f_dc_1, f_dc_2, opacity, scale_0, scale_1, scale_2, rot_0, rot_1, rot_2, rot_3 (a plain point cloud?) (d.ply).',
    );
    expect((await checkPly(src('ply\nformat ascii 1.0\n', 'e.ply'))).problem).toBe(
      "This .ply is not a complete PLY file: its header has no 'end_header' line (e.ply).",
    );
    expect((await checkPly(src(new Uint8Array(0), 'f.ply'))).problem).toBe('This .ply is empty (0 bytes) (f.ply).');
  });
});

describe('.splat', () => {
  it('counts 32-byte Gaussians and reads their box', async () => {
    expect(await checkSplatFile(src(splatFile(4), 'a.splat'))).toMatchObject({
      verdict: 'ok',
      format: 'splat',
      gaussians: 4,
      shDegree: 0,
      boundingBox: { min: [0, 0, -3], max: [3, 6, 0] },
    });
  });

  it('refuses a size that is not a multiple of 32, an empty file and an HTML page', async () => {
    expect((await checkSplatFile(src(new Uint8Array(33), 'a.splat'))).problem).toBe(
      'This .splat is truncated or not a .splat file: its size (33 bytes) is not a multiple of 32 bytes (a.splat).',
    );
    expect((await checkSplatFile(src(new Uint8Array(0), 'a.splat'))).problem).toBe('This .splat is empty (0 bytes) (a.splat).');
    const page = HTML_PAGE.padEnd(Math.ceil(HTML_PAGE.length / 32) * 32);
    expect((await checkSplatFile(src(page, 'a.splat'))).problem).toBe('This .splat is an HTML page, not a .splat file (a.splat).');
  });
});

describe('GLB', () => {
  it('reports generator, meshes, triangles, vertices and the validator version', async () => {
    expect(await checkGlb(src(await triangleGlb('tests'), 'm.glb'))).toMatchObject({
      verdict: 'ok',
      generator: 'tests',
      meshes: 1,
      triangles: 1,
      vertices: 3,
      materials: 1,
      textures: 0,
      extensions: [],
      validatorVersion: expect.stringMatching(/^2\./),
      issues: { errors: 0, warnings: 0 },
    });
  });

  it('names what a wrong file is, and refuses validator errors and a truncated file', async () => {
    expect((await checkGlb(src(HTML_PAGE, 'html-named.glb'))).problem).toBe('This .glb is an HTML page, not a GLB file (html-named.glb).');
    expect((await checkGlb(src(await jpegPhoto(), 'photo.glb'))).problem).toBe('This .glb is a JPEG image, not a GLB file (photo.glb).');
    expect((await checkGlb(src(LFS_POINTER, 'x.glb'))).problem).toContain('This .glb is a Git LFS pointer');
    expect((await checkGlb(src('{"asset":{"version":"2.0"}}', 'x.glb'))).problem).toBe(
      'This .glb is a JSON file, not a GLB file (a .gltf JSON file? upload the binary .glb) (x.glb).',
    );
    const glb = await triangleGlb();
    const cut = await checkGlb(src(glb.subarray(0, glb.byteLength - 4), 'cut.glb'));
    expect(cut.problem).toBe(
      `This .glb is truncated: its header declares ${glb.byteLength} bytes but the file has ${glb.byteLength - 4} (cut.glb).`,
    );
    const broken = new Uint8Array(glb);
    broken[20] = 0x5d; // the JSON chunk no longer parses
    const invalid = await checkGlb(src(broken, 'broken.glb'));
    expect(invalid.verdict).toBe('refused');
    expect(invalid.problem).toMatch(/^This \.glb is not a valid GLB: .+ \[[A-Z_]+.*\].* \(broken\.glb\)\.$/);
  });
});

describe('photos', () => {
  it('accepts a real image of the declared type with its pixel size', async () => {
    expect(await checkImage(src(await pngPhoto(30, 20), 'a.png'), { decodeImage: decodeImageWithSharp })).toMatchObject({
      verdict: 'ok',
      mime: 'image/png',
      width: 30,
      height: 20,
    });
    expect(await checkImage(src(await jpegPhoto(8, 6), 'a.JPEG'))).toMatchObject({
      verdict: 'ok',
      mime: 'image/jpeg',
      width: 8,
      height: 6,
    });
  });

  it('refuses another type, a non-image, an LFS pointer and (with a decoder) a truncated photo', async () => {
    expect((await checkImage(src(await pngPhoto(), 'a.jpg'))).problem).toBe('This .jpg is a PNG image, not a JPEG image (a.jpg).');
    expect((await checkImage(src(HTML_PAGE, 'b.png'))).problem).toBe('This .png is an HTML page, not an image (b.png).');
    expect((await checkImage(src(LFS_POINTER, 'c.jpg'))).problem).toContain('This .jpg is a Git LFS pointer');
    const jpeg = await jpegPhoto(640, 480);
    const cut = src(jpeg.subarray(0, Math.floor(jpeg.byteLength / 2)), 'cut.jpg');
    expect((await checkImage(cut)).verdict).toBe('ok'); // the header alone looks fine
    const decoded = await checkImage(cut, { decodeImage: decodeImageWithSharp });
    expect(decoded.verdict).toBe('refused');
    expect(decoded.problem).toMatch(/^This \.jpg is a JPEG image that cannot be decoded \(truncated or damaged: .+\) \(cut\.jpg\)\.$/);
  });
});

describe('camera metadata and the whole model', () => {
  it('refuses with the spec message and counts cameras with a photo', async () => {
    expect((await checkCameraMetadata(src('{', 'cameras.json'))).problem).toBe(ValidationMessages.cameraInvalidJson);
    const check = await checkCameraMetadata(src(cameraMetadataText(['a.jpg', 'b', 'c.png']), 'cameras.json'), [
      'models/u/images/a.jpg',
      'models/u/images/b.png',
    ]);
    expect(check).toMatchObject({ verdict: 'ok', cameras: 3, withPhoto: 2 });
  });

  it('kinds by file name and by storage path', () => {
    expect(['a.PLY', 'b.splat', 'c.glb', 'cameras.json', 'd.jpeg', 'e.txt'].map(contentKindOfName)).toEqual([
      'splat',
      'splat',
      'glb',
      'cameraMetadata',
      'image',
      null,
    ]);
    const u = 'models/0b6e1c2a-3f4d-4e5f-8a9b-0c1d2e3f4a5b';
    expect(
      [
        `${u}/model.ply`,
        `${u}/model.glb`,
        `${u}/model.spz`,
        `${u}/model.preview.spz`,
        `${u}/camera-metadata.json`,
        `${u}/images/a.jpg`,
        `${u}/images_thumbnails/t.jpg`,
        `${u}/assets/a.jpg`,
      ].map(contentKindOfPath),
    ).toEqual(['splat', 'glb', 'spz', 'spz', 'cameraMetadata', 'image', 'image', null]);
  });

  it.skipIf(!samplesPresent())(
    'the 3DGS sample: 9,080 Gaussians, SH degree 3, 304 cameras, 5 with a photo; the bad samples named',
    async () => {
      const images = ['00000.png', '00001.png', '00002.png', '00100.png', '00150.png'].map((n) => sample(`3dgs-konstruct/images/${n}`));
      const { report, problems } = await checkModelContent(
        {
          splat: sample('3dgs-konstruct/point_cloud/iteration_7000/point_cloud.ply'),
          cameraMetadata: sample('3dgs-konstruct/cameras.json'),
          images,
          glb: sample('glb/BoxTextured.glb'),
        },
        { decodeImage: decodeImageWithSharp },
      );
      expect(problems).toEqual([]);
      expect(report.splat).toMatchObject({ gaussians: 9080, shDegree: 3, encoding: 'binary_little_endian' });
      expect(report.cameraMetadata).toMatchObject({ cameras: 304, withPhoto: 5 });
      expect(report.photos).toMatchObject({ count: 5, dimensions: [{ width: 531, height: 946, count: 5 }] });
      expect(report.glb).toMatchObject({ verdict: 'warnings', generator: 'COLLADA2GLTF', textures: 1, triangles: 12 });
      expect(report.glb?.warnings[0]).toContain('IMAGE_FEATURES_UNSUPPORTED');
      expect((await checkGlb(sample('bad/html-named.glb'))).problem).toBe('This .glb is an HTML page, not a GLB file (html-named.glb).');
      expect((await checkPly(sample('bad/lfs-pointer-point_cloud.ply'))).problem).toMatch(/^This \.ply is a Git LFS pointer/);
      expect((await checkGlb(sample('glb/Duck.glb'))).triangles).toBe(4212);
      expect((await checkSplatFile(sample('splat/model.splat'))).gaussians).toBe(22764);
    },
  );
});
