// Worker thread of cli/src/lib/web-glb.ts: reads a GLB with gltf-transform, resizes every texture
// to at most TEXTURE_MAX_EDGE pixels on its long edge and re-encodes it as WebP (sharp, one
// texture at a time so that only one is decoded at once), compresses the geometry with
// EXT_meshopt_compression (meshoptimizer: vertex cache and fetch reordering, quantised
// attributes, then the meshopt codec), writes the copy and posts its size.
// Plain JavaScript so it runs the same from the TypeScript sources and from the CLI bundle.
import { readFile, writeFile } from 'node:fs/promises';
import { parentPort, workerData } from 'node:worker_threads';
import { Logger, NodeIO } from '@gltf-transform/core';
import { ALL_EXTENSIONS, EXTTextureWebP } from '@gltf-transform/extensions';
import { compressTexture, meshopt } from '@gltf-transform/functions';
import { MeshoptDecoder, MeshoptEncoder } from 'meshoptimizer';
import sharp from 'sharp';

const { input, output, textureMaxEdge, textureQuality } = workerData;
try {
  const started = performance.now();
  await Promise.all([MeshoptEncoder.ready, MeshoptDecoder.ready]);
  // decoded images are not kept between textures: the worker's memory is one texture's at a time
  sharp.cache(false);
  const io = new NodeIO()
    .setLogger(new Logger(Logger.Verbosity.ERROR))
    .registerExtensions(ALL_EXTENSIONS)
    // the decoder reads an original that is already meshopt-compressed
    .registerDependencies({ 'meshopt.encoder': MeshoptEncoder, 'meshopt.decoder': MeshoptDecoder });
  const document = await io.readBinary(new Uint8Array(await readFile(input)));
  document.setLogger(new Logger(Logger.Verbosity.ERROR));
  const textures = document.getRoot().listTextures();
  let webp = false;
  for (const texture of textures) {
    const type = texture.getMimeType();
    if (type !== 'image/png' && type !== 'image/jpeg' && type !== 'image/webp') continue; // KTX2, AVIF…: left as they are
    await compressTexture(texture, {
      encoder: sharp,
      targetFormat: 'webp',
      resize: [textureMaxEdge, textureMaxEdge],
      quality: textureQuality,
    });
    webp ||= texture.getMimeType() === 'image/webp';
  }
  if (webp) document.createExtension(EXTTextureWebP).setRequired(true);
  await document.transform(meshopt({ encoder: MeshoptEncoder, level: 'medium' }));
  const bytes = await io.writeBinary(document);
  await writeFile(output, bytes);
  parentPort.postMessage({ ok: true, bytes: bytes.byteLength, ms: performance.now() - started });
} catch (error) {
  parentPort.postMessage({ ok: false, message: error instanceof Error ? error.message : String(error) });
}
