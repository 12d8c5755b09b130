#!/usr/bin/env node
// Bundles the Cloud Functions (functions/src/index.ts and the shared/ code it uses: the content
// checks, gltf-validator, file-type, image-size, p-limit) into functions/lib/index.js with esbuild,
// as one CommonJS file for the Node 22 runtime (firebase.json's "runtime"). firebase-admin and
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

/**
 * Bundles `{projectDir}/functions/src/index.ts` into `{projectDir}/functions/lib/index.js` (the
 * folder emptied first) with its metafile beside it.
 * @param projectDir the folder holding firebase.json and functions/ (default the repository)
 * @returns esbuild's metafile (inputs, outputs, external imports)
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
    metafile: true,
    logLevel: 'warning',
  });
  writeFileSync(join(outdir, 'meta.json'), JSON.stringify(result.metafile));
  return result.metafile;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await buildFunctions();
