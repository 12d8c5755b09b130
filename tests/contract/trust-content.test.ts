// Hostile content against `catalog serve`'s three upload routes (one-shot PUT, tus with the body
// in its creation request, the multipart file batch): PLY headers whose counts lie, HTML and SVG
// under photo paths, a PNG+HTML polyglot, PNG decompression bombs, and `model.spz` files that are
// not SPZ. Each case answers 400 with the content check's message and stores nothing (documents,
// file rows and files on disk compared before and after). Then the content types downloads go
// out with: from the path, never the uploader's, with nosniff and the sandbox CSP.
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authHeader, hostileTable, literally, startHostileWorld } from '../support/hostile.js';
import type { HostileCase, HostileWorld } from '../support/hostile.js';
import {
  headerOnlyBombPng,
  HTML_PAGE,
  plyWithHeader,
  pngWithHtmlAppended,
  spzFile,
  SPZ_V2_DEGREE0_BYTES,
  SVG_IMAGE,
  tinyPng,
  zlibBombPng,
} from '../support/content-fixtures.js';

let world: HostileWorld;
const model = randomUUID();

beforeAll(async () => {
  world = await startHostileWorld({ model });
}, 60_000);
afterAll(async () => world?.stop());

/** A request body of raw bytes (the harness hands any fetch body through). */
const bytes =
  (data: Uint8Array): (() => Blob) =>
  () =>
    new Blob([new Uint8Array(data)]);

const m = `models/${model}`;
const binary = { 'content-type': 'application/octet-stream' };

/** The message of a refused PLY header line. */
const plyLine = (name: string, line: number, text: string, reason: string): RegExp =>
  literally(`This .ply has an invalid PLY header: line ${line} ('${text}'): ${reason} (${name}).`);
const notPhoto = (name: string): RegExp =>
  literally(
    `This ${name.slice(name.lastIndexOf('.'))} is not a photo: photos and thumbnails must be .jpg, .jpeg, .png, .webp, .gif, .bmp, .tif or .tiff images (${name}).`,
  );
const tooManyPixels = (name: string, side: string, megapixels: string): RegExp =>
  literally(
    `This .png declares ${side} × ${side} pixels (${megapixels} megapixels), more than the 268 megapixels a photo may have (${name}).`,
  );

/** The attack: an element before the vertices with a count that is no number, 2,147,483,647 Gaussians declared. */
const junkPly = plyWithHeader('element junk abc\nproperty uchar a\n');
const n = 100;
const notSpz = Buffer.from('these bytes are not an SPZ splat, whatever the name says');
/** A JSON array of 40 MiB: refused by its size before it is parsed. */
const oversizedCameraMetadata = Buffer.from(`[${' '.repeat(40 * 1024 * 1024 - 2)}]`);

/** What each route is sent and what it answers. */
interface ContentCase {
  name: string;
  path: string;
  data: Uint8Array;
  message: RegExp;
  /** The type the uploader claims (each route's way). */
  contentType?: string;
}

const oneShot: ContentCase[] = [
  {
    name: "PLY with 'element junk abc' before 2,147,483,647 Gaussians",
    path: `${m}/model.ply`,
    data: junkPly,
    message: plyLine('model.ply', 3, 'element junk abc', "the count 'abc' is not a whole number of rows"),
  },
  {
    name: 'PLY with a negative element count',
    path: `${m}/model.ply`,
    data: plyWithHeader('element junk -4000\nproperty uchar a\n', 1),
    message: plyLine('model.ply', 3, 'element junk -4000', "the count '-4000' is not a whole number of rows"),
  },
  {
    name: 'PLY declaring 2,147,483,647 Gaussians in 500 bytes',
    path: `${m}/model.ply`,
    data: plyWithHeader(''),
    message: plyLine(
      'model.ply',
      3,
      'element vertex 2147483647',
      'the count 2,147,483,647 is more than the 1,000,000,000 rows an element may have',
    ),
  },
  {
    name: 'PLY whose element before the vertices does not fit the file',
    path: `${m}/model.ply`,
    data: plyWithHeader('element junk 999999999\nproperty uchar a\n', 1, 56),
    message:
      /^\{.*This \.ply is truncated: its header declares 1 Gaussians \([\d,]+ bytes\) but the file has [\d,]+ bytes \(model\.ply\)\./,
  },
  {
    name: "PLY property of type 'constructor'",
    path: `${m}/model.ply`,
    data: plyWithHeader('element junk 1\nproperty constructor a\n', 1),
    message: plyLine('model.ply', 4, 'property constructor a', "unknown property type 'constructor'"),
  },
  {
    name: 'PNG bytes as images/a.html',
    path: `${m}/images/a.html`,
    data: tinyPng(),
    message: notPhoto('a.html'),
    contentType: 'text/html',
  },
  {
    name: 'SVG as images/a.svg',
    path: `${m}/images/a.svg`,
    data: Buffer.from(SVG_IMAGE),
    message: notPhoto('a.svg'),
    contentType: 'image/svg+xml',
  },
  {
    name: 'HTML as images_thumbnails/t.htm',
    path: `${m}/images_thumbnails/t.htm`,
    data: Buffer.from(HTML_PAGE),
    message: notPhoto('t.htm'),
  },
  {
    name: 'HTML named x.jpg',
    path: `${m}/images/x.jpg`,
    data: Buffer.from(HTML_PAGE),
    message: literally('This .jpg is an HTML page, not an image (x.jpg).'),
  },
  {
    name: 'SVG named x.jpg',
    path: `${m}/images/x.jpg`,
    data: Buffer.from(SVG_IMAGE),
    message: literally('This .jpg is an SVG image, not a JPEG image (x.jpg).'),
  },
  {
    name: 'PNG+HTML polyglot said to be text/html',
    path: `${m}/images/x.png`,
    data: pngWithHtmlAppended(),
    message: literally('This .png is a PNG image with 66 bytes after its end (IEND): something is appended to it (x.png).'),
    contentType: 'text/html',
  },
  {
    name: '65-byte PNG of 2147483647 × 2147483647',
    path: `${m}/images/x.png`,
    data: headerOnlyBombPng(),
    message: tooManyPixels('x.png', '2,147,483,647', '4,611,686,014,132'),
  },
  {
    name: '20000 × 20000 zlib bomb photo',
    path: `${m}/images/x.png`,
    data: zlibBombPng(),
    message: tooManyPixels('x.png', '20,000', '400'),
  },
  {
    name: '20000 × 20000 zlib bomb thumbnail',
    path: `${m}/images_thumbnails/t.png`,
    data: zlibBombPng(),
    message: tooManyPixels('t.png', '20,000', '400'),
  },
  {
    name: 'model.spz of any bytes',
    path: `${m}/model.spz`,
    data: notSpz,
    message: literally('This .spz is not an SPZ splat: it is not a gzip stream (model.spz).'),
  },
  {
    name: 'model.spz that is HTML',
    path: `${m}/model.spz`,
    data: Buffer.from(HTML_PAGE),
    message: literally('This .spz is an HTML page, not an SPZ splat (model.spz).'),
  },
  {
    name: 'model.spz of gzip without the SPZ magic',
    path: `${m}/model.spz`,
    data: spzFile(n, n * SPZ_V2_DEGREE0_BYTES, { magic: 1 }),
    message: literally("This .spz is a gzip file but not an SPZ splat: its data does not start with SPZ's magic 'NGSP' (model.spz)."),
  },
  {
    name: 'model.spz declaring more than its gzip can hold',
    path: `${m}/model.spz`,
    data: spzFile(500_000_000, 0),
    message:
      /This \.spz declares 500,000,000 Gaussians \(9,500,000,016 bytes\), more than a \d+-byte gzip stream can hold \(model\.spz\)\./,
  },
  {
    name: 'model.spz with less data than its header declares',
    path: `${m}/model.spz`,
    data: spzFile(n, n * SPZ_V2_DEGREE0_BYTES - 100),
    message: literally('This .spz declares 100 Gaussians (1,916 bytes of data) but its gzip trailer records 1,816 bytes (model.spz).'),
  },
];

/** Larger than a one-shot upload may be (413): sent through tus, where large files go. */
const oversizedCamera: ContentCase = {
  name: 'camera metadata of 40 MiB (over the 32 MiB it may have)',
  path: `${m}/camera-metadata.json`,
  data: oversizedCameraMetadata,
  message: literally('This .json is 40 MiB: camera metadata can be at most 32 MiB (about 90,000 cameras) (camera-metadata.json).'),
};

const tusCases: ContentCase[] = [
  oneShot[0]!,
  oneShot[2]!,
  oneShot[6]!,
  oneShot[7]!,
  oneShot[10]!,
  oneShot[11]!,
  oneShot[12]!,
  oneShot[14]!,
  oneShot[17]!,
  oversizedCamera,
];

const batchCases: ContentCase[] = [oneShot[0]!, oneShot[5]!, oneShot[8]!, oneShot[10]!, oneShot[12]!, oneShot[15]!];

/** A one-shot upload of a content case, the uploader's type in the header. */
function putCase(c: ContentCase): HostileCase {
  return {
    name: `one-shot: ${c.name}`,
    as: 'admin',
    method: 'PUT',
    path: `/v1/files/${c.path}`,
    raw: bytes(c.data),
    headers: { ...binary, ...(c.contentType ? { 'x-catalog-content-type': c.contentType } : {}) },
    status: 400,
    message: c.message,
  };
}

/** A tus upload whose creation request carries the whole body (creation-with-upload). */
function tusCase(c: ContentCase): HostileCase {
  const metadata = [`path ${Buffer.from(c.path).toString('base64')}`];
  if (c.contentType) metadata.push(`contentType ${Buffer.from(c.contentType).toString('base64')}`);
  return {
    name: `tus: ${c.name}`,
    as: 'admin',
    method: 'POST',
    path: '/v1/uploads',
    raw: bytes(c.data),
    headers: {
      'tus-resumable': '1.0.0',
      'upload-length': String(c.data.byteLength),
      'upload-metadata': metadata.join(','),
      'content-type': 'application/offset+octet-stream',
    },
    status: 400,
    message: c.message,
  };
}

/** A file batch of the given files (manifest first), all or nothing. */
function batchForm(files: ReadonlyArray<{ path: string; data: Uint8Array; contentType?: string }>): () => FormData {
  return () => {
    const form = new FormData();
    form.append('manifest', JSON.stringify(files.map((f) => ({ path: f.path, size: f.data.byteLength, contentType: f.contentType }))));
    for (const f of files) form.append('file', new Blob([new Uint8Array(f.data)]), 'f');
    return form;
  };
}

function batchCase(c: ContentCase): HostileCase {
  return {
    name: `batch: ${c.name}`,
    as: 'admin',
    method: 'POST',
    path: '/v1/file-batch',
    raw: batchForm([c]),
    status: 400,
    message: c.message,
  };
}

const cases: HostileCase[] = [
  ...oneShot.map(putCase),
  ...tusCases.map(tusCase),
  ...batchCases.map(batchCase),
  {
    name: 'batch: a good photo beside a polyglot stores neither',
    as: 'admin',
    method: 'POST',
    path: '/v1/file-batch',
    raw: batchForm([
      { path: `${m}/images/good.png`, data: tinyPng(), contentType: 'image/png' },
      { path: `${m}/images/bad.png`, data: pngWithHtmlAppended(), contentType: 'text/html' },
    ]),
    status: 400,
    message: literally('This .png is a PNG image with 66 bytes after its end (IEND): something is appended to it (bad.png).'),
  },
  {
    name: 'batch: a good photo beside an SVG thumbnail stores neither',
    as: 'admin',
    method: 'POST',
    path: '/v1/file-batch',
    raw: batchForm([
      { path: `${m}/images/good.png`, data: tinyPng() },
      { path: `${m}/images_thumbnails/x.svg`, data: Buffer.from(SVG_IMAGE), contentType: 'image/svg+xml' },
    ]),
    status: 400,
    message: notPhoto('x.svg'),
  },
];

describe('hostile content on every upload route: 400 with the check’s message, nothing stored', () => {
  hostileTable(() => world, cases);
});

describe('downloads go out with a type from the path, never the uploader’s', () => {
  /** Stores `data` at `path` one-shot, claiming `claimed`; returns the stored row's type. */
  async function put(path: string, data: Uint8Array, claimed: string): Promise<string | null> {
    const response = await fetch(`${world.url}/v1/files/${path}`, {
      method: 'PUT',
      headers: { ...authHeader(world, 'admin'), 'content-type': 'application/octet-stream', 'x-catalog-content-type': claimed },
      body: new Blob([new Uint8Array(data)]),
    });
    expect(response.status, await response.clone().text()).toBe(200);
    return ((await response.json()) as { file: { contentType: string | null } }).file.contentType;
  }

  /** Downloads `path` through its link as a user. */
  async function download(path: string): Promise<Response> {
    const link = await fetch(`${world.url}/v1/download-url/${path}`, { headers: authHeader(world, 'user') });
    const { url } = (await link.json()) as { url: string };
    return fetch(`${world.url}${url}`);
  }

  const expectHeaders = (response: Response, type: string, disposition: string | null): void => {
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe(type);
    expect(response.headers.get('content-disposition')).toBe(disposition);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('content-security-policy')).toBe("sandbox; default-src 'none'");
  };

  it('a photo said to be text/html is recorded and served as image/png', async () => {
    const path = `${m}/images/said-html.png`;
    expect(await put(path, tinyPng(), 'text/html')).toBe('image/png');
    expectHeaders(await download(path), 'image/png', null);
  });

  it('assets of active kinds (HTML, SVG, JavaScript, XML) go out as application/octet-stream attachments', async () => {
    for (const [name, data, claimed] of [
      ['page.html', HTML_PAGE, 'text/html'],
      ['icon.svg', SVG_IMAGE, 'image/svg+xml'],
      ['app.js', 'alert(1)', 'text/javascript'],
      ['feed.xml', '<?xml version="1.0"?><x/>', 'application/xhtml+xml'],
    ] as const) {
      const path = `${m}/assets/${name}`;
      expect(await put(path, Buffer.from(data), claimed), name).toBe('application/octet-stream');
      const response = await download(path);
      expectHeaders(response, 'application/octet-stream', 'attachment');
      expect(await response.text()).toBe(data);
    }
  });

  it('a safe asset keeps its own type whatever the uploader says; tus and batch uploads are decided the same way', async () => {
    expect(await put(`${m}/assets/notes.txt`, Buffer.from('plain'), 'text/html')).toBe('text/plain');
    expectHeaders(await download(`${m}/assets/notes.txt`), 'text/plain', null);
    // a batch whose manifest says text/html
    const form = batchForm([{ path: `${m}/assets/b.json`, data: Buffer.from('{}'), contentType: 'text/html' }])();
    const batch = await fetch(`${world.url}/v1/file-batch`, { method: 'POST', headers: authHeader(world, 'admin'), body: form });
    expect(batch.status, await batch.clone().text()).toBe(200);
    expectHeaders(await download(`${m}/assets/b.json`), 'application/json', null);
    // a tus upload whose metadata says image/svg+xml (created, then its bytes sent)
    const body = Buffer.from(HTML_PAGE);
    const tusHeaders = { ...authHeader(world, 'admin'), 'tus-resumable': '1.0.0' };
    const created = await fetch(`${world.url}/v1/uploads`, {
      method: 'POST',
      headers: {
        ...tusHeaders,
        'upload-length': String(body.byteLength),
        'upload-metadata': `path ${Buffer.from(`${m}/assets/t.html`).toString('base64')},contentType ${Buffer.from('image/svg+xml').toString('base64')}`,
      },
    });
    expect(created.status, await created.clone().text()).toBe(201);
    const sent = await fetch(new URL(created.headers.get('location')!, `${world.url}/v1/uploads/`), {
      method: 'PATCH',
      headers: { ...tusHeaders, 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
      body,
    });
    expect(sent.status, await sent.clone().text()).toBe(204);
    expectHeaders(await download(`${m}/assets/t.html`), 'application/octet-stream', 'attachment');
  });

  it('a tus upload whose creation request carries the whole file answers 201 and stores it (creation-with-upload)', async () => {
    const path = `${m}/images/whole.png`;
    const data = tinyPng();
    const created = await fetch(`${world.url}/v1/uploads`, {
      method: 'POST',
      headers: {
        ...authHeader(world, 'admin'),
        'tus-resumable': '1.0.0',
        'upload-length': String(data.byteLength),
        'upload-metadata': `path ${Buffer.from(path).toString('base64')}`,
        'content-type': 'application/offset+octet-stream',
      },
      body: new Blob([new Uint8Array(data)]),
    });
    expect(created.status, await created.clone().text()).toBe(201);
    expect(created.headers.get('upload-offset')).toBe(String(data.byteLength));
    expect(new Uint8Array(await (await download(path)).arrayBuffer())).toEqual(new Uint8Array(data));
  });

  it('a row stored before this rule with text/html is still served with the type of its path', async () => {
    const path = `${m}/images/old.png`;
    await put(path, tinyPng(), 'image/png');
    const db = new Database(join(world.handle.dataDir, 'catalog.db'));
    try {
      db.prepare('UPDATE files SET content_type = ? WHERE path = ?').run('text/html', path);
    } finally {
      db.close();
    }
    expectHeaders(await download(path), 'image/png', null);
  });
});
