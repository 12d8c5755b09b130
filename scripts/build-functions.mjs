#!/usr/bin/env node
// Bundles the Cloud Functions (functions/src/index.ts and the shared/ code it uses: the content
// checks, gltf-validator, file-type, image-size, p-limit; the web-sized splat's maker from cli/src)
// into functions/lib/index.js with esbuild, as one CommonJS file for the Node 22 runtime
// (firebase.json's "runtime"), and the copy maker's worker thread (cli/src/lib/web-splat-worker.mjs
// with the SPZ library, WebAssembly embedded in its JavaScript) into
// functions/lib/web-splat-worker.mjs, an ES module as the worker is. firebase-admin and
// firebase-functions stay external: Cloud Build installs them from functions/package.json (and
// its lockfile) beside the bundle, and locally they resolve from the root install.
// `npm run build:functions`; firebase.json's predeploy runs it before `firebase deploy --only functions`.
// Also writes functions/lib/meta.json (esbuild's metafile: what went into the bundle, what stayed
// out; not deployed), which `npm run check:functions` reads.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..');

/** The packages the deployed function loads from its own node_modules (functions/package.json's dependencies). */
export const FUNCTIONS_EXTERNAL = ['firebase-admin', 'firebase-functions'];

/** The worker thread's bundle beside lib/index.js (functions/src/firebase-web-copies.ts finds it there). */
export const FUNCTIONS_WORKERS = { 'web-splat-worker.mjs': join('cli', 'src', 'lib', 'web-splat-worker.mjs') };

/**
 * Bundles `{projectDir}/functions/src/index.ts` into `{projectDir}/functions/lib/index.js` (the
 * folder emptied first), and each of {@link FUNCTIONS_WORKERS} beside it, with their metafile.
 * @param projectDir the folder holding firebase.json and functions/ (default the repository)
 * @returns esbuild's metafile of both builds (inputs, outputs, external imports)
 * @throws esbuild's error when the sources do not build
 */
export async function buildFunctions(projectDir = repoRoot) {
  const outdir = join(projectDir, 'functions', 'lib');
  rmSync(outdir, { recursive: true, force: true });
  mkdirSync(outdir, { recursive: true });
  const result = await build({
    entryPoints: [join(projectDir, 'functions', 'src', 'index.ts')],
    outfile: join(outdir, 'index.js'),
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node22',
    // firebase-admin/firestore, firebase-functions/v2/storage, …: the packages and their subpaths
    external: FUNCTIONS_EXTERNAL.flatMap((name) => [name, `${name}/*`]),
    // the repository's tsconfig.json: its paths (@shared/*) resolve the shared code
    tsconfig: join(repoRoot, 'tsconfig.json'),
    // import.meta.url of the ES modules bundled in (the CLI's package-root lookup): this file's URL
    define: { 'import.meta.url': '__bundleUrl' },
    banner: { js: "const __bundleUrl = require('node:url').pathToFileURL(__filename).href;" },
    metafile: true,
    logLevel: 'warning',
  });
  const metafile = { inputs: { ...result.metafile.inputs }, outputs: { ...result.metafile.outputs } };
  for (const [name, source] of Object.entries(FUNCTIONS_WORKERS)) {
    const worker = await build({
      entryPoints: [join(repoRoot, source)],
      outfile: join(outdir, name),
      bundle: true,
      format: 'esm',
      platform: 'node',
      target: 'node22',
      external: FUNCTIONS_EXTERNAL.flatMap((name) => [name, `${name}/*`]),
      metafile: true,
      logLevel: 'warning',
    });
    Object.assign(metafile.inputs, worker.metafile.inputs);
    Object.assign(metafile.outputs, worker.metafile.outputs);
  }
  writeFileSync(join(outdir, 'meta.json'), JSON.stringify(metafile));
  return metafile;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await buildFunctions();
