// The content checks against hostile files: PLY headers that lie about their counts, photos that
// are HTML, SVG or polyglots, decompression bombs refused from their header (by the check, by
// sharp, before the browser decodes), SPZ files that are not what the viewer would read, and the
// content types stored files are served with. A bomb is refused before anything inflates it.
import { gzipSync } from 'node:zlib';
import type { ByteSource } from '@shared/content-check/byte-source.js';
import { describe, expect, it } from 'vitest';
import {
  bytesSource,
  CAMERA_METADATA_MAX_BYTES,
  checkCameraMetadata,
  checkGlb,
  checkImage,
  GLB_VALIDATOR_MAX_BYTES,
  checkPly,
  checkSpz,
  GAUSSIAN_PROPERTIES,
  IMAGE_MAX_PIXELS,
  parsePlyHeader,
  PlyHeaderError,
  spzInflatedBytes,
} from '@shared/content-check/index.js';
import { assertImagePixels } from '@shared/content-check/image.js';
import { downloadHeaders, guessContentType } from '@shared/content-type.js';
import { compressSplatLocally } from '../../cli/src/lib/content-platform.js';
import { decodeImageWithSharp, thumbnailWithSharp } from '../../cli/src/lib/images.js';
import {
  headerOnlyBombPng,
  HTML_PAGE,
  plyWithHeader,
  pngWithHtmlAppended,
  pngWithHtmlInText,
  spzFile,
  spzHeader,
  SPZ_V2_DEGREE0_BYTES,
  SVG_IMAGE,
  SVG_WITH_PROLOG,
  tinyPng,
  zlibBombPng,
} from '../support/content-fixtures.js';
import { gaussianPly, jpegPhoto } from '../support/model-fixtures.js';

const src = (bytes: Uint8Array | string, name: string) =>
  bytesSource(typeof bytes === 'string' ? Buffer.from(bytes, 'latin1') : bytes, name);

describe('PLY headers are validated line by line before any offset is computed', () => {
  const refused = (line: number, text: string, reason: string): string =>
    `This .ply has an invalid PLY header: line ${line} ('${text}'): ${reason} (a.ply).`;

  it.each([
    [
      'a non-numeric count before the vertices',
      'element junk abc\nproperty uchar a\n',
      refused(3, 'element junk abc', "the count 'abc' is not a whole number of rows"),
    ],
    [
      'a negative count',
      'element junk -1000\nproperty uchar a\n',
      refused(3, 'element junk -1000', "the count '-1000' is not a whole number of rows"),
    ],
    [
      'an exponent',
      'element junk 1e3\nproperty uchar a\n',
      refused(3, 'element junk 1e3', "the count '1e3' is not a whole number of rows"),
    ],
    ['a fraction', 'element junk 2.5\nproperty uchar a\n', refused(3, 'element junk 2.5', "the count '2.5' is not a whole number of rows")],
    ['a missing count', 'element junk\nproperty uchar a\n', refused(3, 'element junk', 'an element line is "element <name> <count>"')],
    [
      'a count over the maximum',
      'element junk 1000000001\nproperty uchar a\n',
      refused(3, 'element junk 1000000001', 'the count 1,000,000,001 is more than the 1,000,000,000 rows an element may have'),
    ],
    ['an unknown keyword', 'elemnt junk 3\n', refused(3, 'elemnt junk 3', "'elemnt' is not a PLY header keyword")],
    ['a property before any element', 'property float q\n', refused(3, 'property float q', 'a property before any element')],
    [
      'an unknown property type',
      'element junk 1\nproperty float128 a\n',
      refused(4, 'property float128 a', "unknown property type 'float128'"),
    ],
    [
      'a prototype key as a type',
      'element junk 1\nproperty constructor a\n',
      refused(4, 'property constructor a', "unknown property type 'constructor'"),
    ],
    [
      'a list counted by floats',
      'element junk 1\nproperty list float int a\n',
      refused(4, 'property list float int a', "a list's count type 'float' is not a whole-number type"),
    ],
    ['a repeated element', 'element junk 1\nproperty uchar a\nelement junk 1\n', refused(5, 'element junk 1', "a second element 'junk'")],
    [
      'a repeated property',
      'element junk 1\nproperty uchar a\nproperty uchar a\n',
      refused(5, 'property uchar a', "a second property 'a' in element 'junk'"),
    ],
  ])('refuses %s', async (_name, before, message) => {
    const check = await checkPly(src(plyWithHeader(before), 'a.ply'));
    expect(check).toMatchObject({ verdict: 'refused', gaussians: 0, problem: message });
  });

  it('refuses the attack itself: 2,147,483,647 Gaussians declared in a few hundred bytes', async () => {
    const ply = plyWithHeader('');
    expect(ply.byteLength).toBeLessThan(500);
    expect((await checkPly(src(ply, 'a.ply'), { scanData: false })).problem).toBe(
      refused(3, 'element vertex 2147483647', 'the count 2,147,483,647 is more than the 1,000,000,000 rows an element may have'),
    );
  });

  it('refuses a format line that is missing, repeated, late, unknown or of another version', async () => {
    const props = GAUSSIAN_PROPERTIES.map((p) => `property float ${p}\n`).join('');
    const header = (lines: string) => `ply\n${lines}end_header\n`;
    const problem = async (text: string) => (await checkPly(src(text, 'a.ply'))).problem;
    expect(await problem(header(`element vertex 1\n${props}`))).toBe(refused(2, 'element vertex 1', 'an element before the format line'));
    expect(await problem(header(`format ascii 1.0\nformat ascii 1.0\n`))).toBe(refused(3, 'format ascii 1.0', 'a second format line'));
    expect(await problem(header(`format binary_middle_endian 1.0\n`))).toBe(
      refused(2, 'format binary_middle_endian 1.0', 'the format must be ascii, binary_little_endian or binary_big_endian, then 1.0'),
    );
    expect(await problem(header(`format ascii 2.0\n`))).toBe(refused(2, 'format ascii 2.0', "PLY version '2.0' is not 1.0"));
    expect(await problem(header(`comment no format\n`))).toBe(refused(3, 'end_header', 'the header has no format line'));
    // control characters are not echoed into the message
    expect(await problem(header(`format ascii 1.0\nelement \u001b[2Jjunk x\n`))).toBe(
      refused(3, 'element  [2Jjunk x', "the count 'x' is not a whole number of rows"),
    );
  });

  it('parsePlyHeader throws PlyHeaderError naming the line; comments, obj_info, blank lines and CRLF are fine', () => {
    const text = (body: string) => new Uint8Array(Buffer.from(`ply\r\n${body}end_header\r\n`, 'latin1'));
    expect(() => parsePlyHeader(text('format ascii 1.0\r\nelement a -1\r\n'))).toThrow(PlyHeaderError);
    expect(
      parsePlyHeader(text('comment made by hand\r\n\r\nobj_info x\r\nformat ascii 1.0\r\nelement a 2\r\nproperty list uchar int i\r\n')),
    ).toMatchObject({
      format: 'ascii',
      elements: [{ name: 'a', count: 2, properties: [{ name: 'i', type: 'int', list: { countType: 'uchar' } }] }],
    });
  });

  it('refuses a valid header whose declared data (an element before the vertices included) does not fit the file', async () => {
    const ply = plyWithHeader('element junk 999999999\nproperty uchar a\n', 1, 56);
    expect((await checkPly(src(ply, 'a.ply'), { scanData: false })).problem).toBe(
      `This .ply is truncated: its header declares 1 Gaussians (${(ply.byteLength - 56 + 999_999_999 + 56).toLocaleString('en-US')} bytes) but the file has ${ply.byteLength.toLocaleString('en-US')} bytes (a.ply).`,
    );
  });

  it('reads the vertices after a fixed-size element, binary and ASCII (an ASCII element is skipped a line a row)', async () => {
    const binary = Buffer.concat([plyWithHeader('element camera 2\nproperty float f\n', 1, 0), Buffer.alloc(8, 0x41), Buffer.alloc(56)]);
    new DataView(binary.buffer, binary.byteOffset).setFloat32(binary.byteLength - 56, 7, true);
    expect(await checkPly(src(binary, 'a.ply'))).toMatchObject({
      verdict: 'ok',
      gaussians: 1,
      boundingBox: { min: [7, 0, 0], max: [7, 0, 0] },
    });
    const props = GAUSSIAN_PROPERTIES.map((p) => `property float ${p}\n`).join('');
    const ascii = `ply\nformat ascii 1.0\nelement camera 2\nproperty float f\nelement vertex 1\n${props}end_header\n100\n200\n1 2 3 0 0 0 1 0 0 0 1 0 0 0\n`;
    expect(await checkPly(src(ascii, 'a.ply'))).toMatchObject({
      verdict: 'ok',
      gaussians: 1,
      boundingBox: { min: [1, 2, 3], max: [1, 2, 3] },
    });
  });

  it('still accepts a real training PLY', async () => {
    expect(await checkPly(src(gaussianPly(5), 'a.ply'))).toMatchObject({ verdict: 'ok', gaussians: 5, shDegree: 3 });
  });
});

describe('photos and thumbnails are clean images of a photo type, named as such', () => {
  it('refuses names that are not a photo type, whatever the bytes', async () => {
    const notPhoto = (name: string) =>
      `This ${name.slice(name.lastIndexOf('.'))} is not a photo: photos and thumbnails must be .jpg, .jpeg, .png, .webp, .gif, .bmp, .tif or .tiff images (${name}).`;
    for (const [name, bytes] of [
      ['a.html', tinyPng()],
      ['a.svg', Buffer.from(SVG_IMAGE)],
      ['t.htm', Buffer.from(HTML_PAGE)],
      ['a.heic', tinyPng()],
      ['a.jpg.html', tinyPng()],
    ] as const) {
      expect((await checkImage(src(bytes, name))).problem, name).toBe(notPhoto(name));
    }
    expect((await checkImage(src(tinyPng(), 'noextension'))).problem).toBe(
      'This file is not a photo: photos and thumbnails must be .jpg, .jpeg, .png, .webp, .gif, .bmp, .tif or .tiff images (noextension).',
    );
  });

  it('refuses HTML and SVG named as photos, saying what they are', async () => {
    expect((await checkImage(src(HTML_PAGE, 'x.jpg'))).problem).toBe('This .jpg is an HTML page, not an image (x.jpg).');
    expect((await checkImage(src('<script>alert(1)</script>', 'x.png'))).problem).toBe('This .png is an HTML page, not an image (x.png).');
    expect((await checkImage(src(SVG_IMAGE, 'x.jpg'))).problem).toBe('This .jpg is an SVG image, not a JPEG image (x.jpg).');
    expect((await checkImage(src(SVG_WITH_PROLOG, 'x.png'))).problem).toBe('This .png is an SVG image, not a PNG image (x.png).');
  });

  it('refuses a PNG with HTML appended after IEND, accepts markup inside a text chunk (inert when served as image/png)', async () => {
    expect((await checkImage(src(pngWithHtmlAppended(), 'x.png'))).problem).toBe(
      'This .png is a PNG image with 66 bytes after its end (IEND): something is appended to it (x.png).',
    );
    expect(await checkImage(src(pngWithHtmlInText(), 'x.png'))).toMatchObject({ verdict: 'ok', width: 2, height: 2 });
    expect((await checkImage(src(tinyPng().subarray(0, 60), 'x.png'))).problem).toBe(
      'This .png is a PNG image that ends before its IEND chunk (truncated?) (x.png).',
    );
  });

  it('accepts a JPEG with bytes after its end marker (cameras store a second picture or a video there)', async () => {
    const jpeg = Buffer.concat([await jpegPhoto(), Buffer.from('ftypmp42 motion photo')]);
    expect(await checkImage(src(jpeg, 'x.jpg'))).toMatchObject({ verdict: 'ok', width: 64, height: 48 });
  });

  it('refuses a WebP with bytes after its RIFF size', async () => {
    const sharp = (await import('sharp')).default;
    const webp = await sharp({ create: { width: 4, height: 4, channels: 3, background: '#808080' } })
      .webp()
      .toBuffer();
    expect(await checkImage(src(webp, 'x.webp'))).toMatchObject({ verdict: 'ok' });
    expect((await checkImage(src(Buffer.concat([webp, Buffer.from('<html></html>')]), 'x.webp'))).problem).toBe(
      'This .webp is a WebP image with 13 bytes after its end: something is appended to it (x.webp).',
    );
  });

  it('refuses decompression bombs from the header, before any decoder sees them', async () => {
    expect(IMAGE_MAX_PIXELS).toBe(268_402_689);
    const tiny = headerOnlyBombPng();
    expect(tiny.byteLength).toBe(65);
    let decoded = 0;
    const decodeImage = async () => {
      decoded += 1;
      return null;
    };
    expect((await checkImage(src(tiny, 'x.png'), { decodeImage })).problem).toBe(
      'This .png declares 2,147,483,647 × 2,147,483,647 pixels (4,611,686,014,132 megapixels), more than the 268 megapixels a photo may have (x.png).',
    );
    const bomb = zlibBombPng();
    expect(bomb.byteLength).toBeLessThan(60_000);
    expect((await checkImage(src(bomb, 't.png'), { decodeImage })).problem).toBe(
      'This .png declares 20,000 × 20,000 pixels (400 megapixels), more than the 268 megapixels a photo may have (t.png).',
    );
    expect(decoded).toBe(0);
    // the platforms refuse it themselves too: sharp from the header, the browser's path before createImageBitmap
    await expect(decodeImageWithSharp(src(bomb, 't.png'), 'image/png')).rejects.toThrow(/pixel limit/);
    await expect(thumbnailWithSharp(src(bomb, 't.png'))).rejects.toThrow(/pixel limit/);
    await expect(assertImagePixels(src(bomb, 't.png'))).rejects.toThrow('declares 20,000 × 20,000 pixels');
    await expect(assertImagePixels(src(tinyPng(), 'ok.png'))).resolves.toBeUndefined();
  });
});

describe('model.spz is checked as SPZ, streaming', () => {
  it('accepts the web-sized copy the catalog makes of a small generated PLY', async () => {
    const spz = new Uint8Array(await (await compressSplatLocally(bytesSource(gaussianPly(20), 'model.ply'))).copy.arrayBuffer());
    expect(await checkSpz(src(spz, 'model.spz'))).toMatchObject({
      verdict: 'ok',
      problem: null,
      version: 3,
      gaussians: 20,
      shDegree: 3,
      inflatedBytes: spzInflatedBytes(3, 20, 3),
    });
  });

  it('accepts a hand-made version 3 file and counts its rotations in 4 bytes', async () => {
    expect(spzInflatedBytes(3, 10, 0)).toBe(16 + 10 * 20);
    expect(await checkSpz(src(spzFile(10, 10 * 20, { version: 3 }), 'model.spz'))).toMatchObject({
      verdict: 'ok',
      version: 3,
      gaussians: 10,
    });
  });

  const n = 100;
  const good = (): Buffer => spzFile(n, n * SPZ_V2_DEGREE0_BYTES);
  it.each([
    ['empty', () => Buffer.alloc(0), 'This .spz is empty (0 bytes) (model.spz).'],
    ['an HTML page', () => Buffer.from(HTML_PAGE), 'This .spz is an HTML page, not an SPZ splat (model.spz).'],
    [
      'any bytes',
      () => Buffer.from('just some bytes that are no splat at all'),
      'This .spz is not an SPZ splat: it is not a gzip stream (model.spz).',
    ],
    ['a PLY', () => gaussianPly(1), 'This .spz is a PLY file, not an SPZ splat (model.spz).'],
    [
      'gzip of something else',
      () => spzFile(n, n * SPZ_V2_DEGREE0_BYTES, { magic: 0x12345678 }),
      "This .spz is a gzip file but not an SPZ splat: its data does not start with SPZ's magic 'NGSP' (model.spz).",
    ],
    ['version 1', () => spzFile(n, n * 16, { version: 1 }), 'This .spz is SPZ version 1: only versions 2 and 3 can be viewed (model.spz).'],
    ['version 4', () => spzFile(n, n * 20, { version: 4 }), 'This .spz is SPZ version 4: only versions 2 and 3 can be viewed (model.spz).'],
    ['no Gaussians', () => spzFile(0, 0), 'This .spz is an SPZ splat without Gaussians (model.spz).'],
    [
      'SH degree 4',
      () => spzFile(n, n * 91, { shDegree: 4 }),
      'This .spz declares spherical-harmonics degree 4: a web-sized splat has degree 0 to 3 (model.spz).',
    ],
    [
      'unknown flags',
      () => spzFile(n, n * SPZ_V2_DEGREE0_BYTES, { flags: 3 }),
      'This .spz has header flags 0x3 and reserved byte 0 that no web-sized copy has (model.spz).',
    ],
    [
      'a bomb header (more than gzip can hold)',
      () => spzFile(500_000_000, 100),
      /^This \.spz declares 500,000,000 Gaussians \(9,500,000,016 bytes\), more than a \d\d-byte gzip stream can hold \(model\.spz\)\.$/,
    ],
    [
      'more Gaussians than a splat may have',
      () => spzFile(0xffffffff, 0),
      'This .spz declares 4,294,967,295 Gaussians, more than the 1,000,000,000 a splat may have (model.spz).',
    ],
    [
      'less data than declared',
      () => spzFile(n, n * SPZ_V2_DEGREE0_BYTES - 1),
      'This .spz declares 100 Gaussians (1,916 bytes of data) but its gzip trailer records 1,915 bytes (model.spz).',
    ],
    [
      'more data than declared',
      () => spzFile(n, n * SPZ_V2_DEGREE0_BYTES + 5000),
      'This .spz declares 100 Gaussians (1,916 bytes of data) but its gzip trailer records 6,916 bytes (model.spz).',
    ],
    [
      'a second gzip member (the trailer agrees, the data does not)',
      () => Buffer.concat([good(), good()]),
      'This .spz holds more data than its header declares (1,916 bytes for 100 Gaussians) (model.spz).',
    ],
    [
      'HTML appended after the stream',
      () => Buffer.concat([good(), Buffer.from('<html><script>alert(1)</script></html>')]),
      /^This \.spz is a damaged gzip stream, not a readable SPZ splat \(.+\) \(model\.spz\)\.$/,
    ],
  ] as const)('refuses %s', async (_name, make, message) => {
    const check = await checkSpz(src(make(), 'model.spz'));
    expect(check.verdict).toBe('refused');
    if (typeof message === 'string') expect(check.problem).toBe(message);
    else expect(check.problem).toMatch(message);
  });

  it('stops inflating at the first byte beyond the header’s size (a bomb costs what a real copy of its size costs)', async () => {
    // 16 MB of zeros behind a header declaring 1,000 Gaussians, its gzip trailer forged to agree
    const expected = spzInflatedBytes(2, 1000, 0);
    const bomb = gzipSync(Buffer.concat([spzHeader(1000), Buffer.alloc(16 * 1024 * 1024)]));
    bomb.writeUInt32LE(expected, bomb.byteLength - 4);
    const check = await checkSpz(src(bomb, 'model.spz'));
    expect(check.problem).toBe(
      `This .spz holds more data than its header declares (${expected.toLocaleString('en-US')} bytes for 1,000 Gaussians) (model.spz).`,
    );
    expect(check.inflatedBytes).toBeLessThan(1024 * 1024);
  });
});

describe('stored files are served with a type from their path, never an active one', () => {
  it('gives each kind its type and every unknown or active extension application/octet-stream as an attachment', () => {
    const u = 'models/0b6e1c2a-3f4d-4e5f-8a9b-0c1d2e3f4a5b';
    expect(
      [
        'model.ply',
        'model.spz',
        'model.glb',
        'camera-metadata.json',
        'images/a.JPG',
        'images/a.png',
        'images_thumbnails/t.webp',
        'images/a.tif',
        'assets/notes.txt',
        'assets/table.csv',
      ].map((p) => guessContentType(`${u}/${p}`)),
    ).toEqual([
      'application/octet-stream',
      'application/octet-stream',
      'model/gltf-binary',
      'application/json',
      'image/jpeg',
      'image/png',
      'image/webp',
      'image/tiff',
      'text/plain',
      'text/csv',
    ]);
    for (const name of [
      'page.html',
      'page.htm',
      'icon.svg',
      'a.xhtml',
      'feed.xml',
      'app.js',
      'app.mjs',
      'report.pdf',
      'noext',
      'constructor',
      'a.__proto__',
    ]) {
      expect(downloadHeaders(`${u}/assets/${name}`), name).toEqual({ contentType: 'application/octet-stream', disposition: 'attachment' });
    }
    expect(downloadHeaders(`${u}/images/a.jpg`)).toEqual({ contentType: 'image/jpeg', disposition: null });
  });
});

describe('files too large to check whole are refused by their size, before they are read', () => {
  /** A source that claims `size` bytes and answers reads from `head` (zeros after it); reading it whole fails the test. */
  const claiming = (head: Uint8Array, size: number, name: string): ByteSource => ({
    name,
    size,
    async read(offset, length) {
      if (length > 1024 * 1024) throw new Error(`read ${length} bytes of a file refused by its size`);
      const out = new Uint8Array(length);
      out.set(head.subarray(offset, offset + length));
      return out;
    },
  });

  it('a GLB over the validator’s budget', async () => {
    const size = GLB_VALIDATOR_MAX_BYTES + 1024 * 1024;
    const head = new Uint8Array(12);
    head.set(new TextEncoder().encode('glTF'));
    new DataView(head.buffer).setUint32(4, 2, true);
    new DataView(head.buffer).setUint32(8, size, true);
    expect(await checkGlb(claiming(head, size, 'model.glb'))).toMatchObject({
      verdict: 'refused',
      problem:
        'This .glb is 513 MiB: a GLB can be checked up to 512 MiB (the glTF validator reads it whole); reduce its textures or split it (model.glb).',
    });
  });

  it('camera metadata over its limit', async () => {
    const check = await checkCameraMetadata(claiming(new TextEncoder().encode('['), CAMERA_METADATA_MAX_BYTES + 1, 'cameras.json'));
    expect(check).toMatchObject({ verdict: 'refused', cameras: 0 });
    expect(check.problem).toBe('This .json is 32.1 MiB: camera metadata can be at most 32 MiB (about 90,000 cameras) (cameras.json).');
  });
});
