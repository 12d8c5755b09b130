// Worker thread of cli/src/lib/web-splat.ts: reads a training PLY, writes its web-sized copy
// (SPZ version 2, as Spark 2.2 writes it; Spark reads versions 2 and 3) with Spark's transcodeSpz, and posts the byte count.
// Plain JavaScript so it runs the same from the TypeScript sources and from the CLI bundle.
import { readFile, writeFile } from 'node:fs/promises';
import { parentPort, workerData } from 'node:worker_threads';
import { transcodeSpz } from '@sparkjsdev/spark';

/** Spark initialises its WASM module asynchronously on import; a call before that throws. */
async function transcodeWhenReady(input) {
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await transcodeSpz(input);
    } catch (error) {
      const early = error instanceof TypeError && /__wbindgen|wasm/i.test(String(error.message));
      if (!early || attempt >= 100) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

const { input, output, name } = workerData;
try {
  const fileBytes = new Uint8Array(await readFile(input));
  const started = performance.now();
  const { fileBytes: spz } = await transcodeWhenReady({ inputs: [{ fileBytes, pathOrUrl: name }] });
  await writeFile(output, spz);
  parentPort.postMessage({ ok: true, bytes: spz.byteLength, ms: performance.now() - started });
} catch (error) {
  parentPort.postMessage({ ok: false, message: error instanceof Error ? error.message : String(error) });
}
