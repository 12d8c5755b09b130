#!/usr/bin/env node
// `npm run check:functions`: the closest offline check of `firebase deploy --only functions`.
// A real deploy (or its `--dry-run`) needs a login and a Firebase project: it asks Google's APIs
// for the project's default bucket, the APIs enabled, the functions deployed, and then builds in
// Cloud Build. What runs on this machine is checked here, in the deploy's order:
//
// 1. firebase.json's `functions` entry: the source folder, the runtime (nodejs22), the predeploy
//    build, what is uploaded; the whole file against firebase-tools' own schema.
// 2. functions/package.json, what Cloud Build installs: `main` is the bundle, no `build` script
//    (Cloud Build would run it), the dependencies exactly the bundle's external packages, pinned
//    to the root install's versions, and its lockfile at those versions.
// 3. The bundle builds (scripts/build-functions.mjs) and imports nothing else from outside.
// 4. The triggers, discovered as the deploy discovers them: firebase-tools' Node runtime delegate
//    (its package.json and SDK checks, then firebase-functions' manifest server run on the
//    bundle) and its endpoint validation; without firebase-tools (`npm ci --prefix
//    tools/firebase`), firebase-functions' manifest written by its own binary, which is what the
//    delegate reads. The triggers must be exactly checkStoredModelFile (a Storage object
//    finalized in the default bucket) and checkModelRecordFiles (a `models/{modelId}` document
//    written), 2nd gen, retried.
//
// Options: --project-dir DIR (a folder holding firebase.json, package.json and functions/; the
// repository by default), --json (the report as JSON on stdout). Exits 1 when there is a problem.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { builtinModules, createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildFunctions, FUNCTIONS_EXTERNAL } from './build-functions.mjs';

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..');

/** The runtime the functions are deployed on. */
export const FUNCTIONS_RUNTIME = 'nodejs22';
/** The predeploy hook that builds the bundle. */
export const FUNCTIONS_PREDEPLOY = 'npm run build:functions';
/** The triggers the bundle must export: name → event type (and the document pattern of a Firestore trigger). */
export const EXPECTED_TRIGGERS = {
  checkStoredModelFile: { eventType: 'google.cloud.storage.object.v1.finalized' },
  checkModelRecordFiles: { eventType: 'google.cloud.firestore.document.v1.written', document: 'models/{modelId}' },
};
/** The project discovery runs for (the CLI passes the real one's id and default bucket). */
const PROJECT = { projectId: 'demo-catalog', storageBucket: 'demo-catalog.appspot.com' };

const args = process.argv.slice(2);
const asJson = args.includes('--json');
const dirArg = args.indexOf('--project-dir');
const projectDir = dirArg >= 0 ? resolve(args[dirArg + 1] ?? '.') : repoRoot;
const sourceDir = join(projectDir, 'functions');

const problems = [];
const notes = [];
const readJson = (path) => JSON.parse(readFileSync(path, 'utf8'));

/** firebase-tools from tools/firebase (outside the default install), or null with why not. */
function firebaseTools() {
  const toolsRequire = createRequire(join(repoRoot, 'tools', 'firebase', 'package.json'));
  try {
    const lib = dirname(toolsRequire.resolve('firebase-tools/package.json')) + '/lib/';
    return { lib, require: toolsRequire, version: toolsRequire('firebase-tools/package.json').version };
  } catch {
    return null;
  }
}
const tools = firebaseTools();
if (!tools)
  notes.push('firebase-tools is not installed (npm ci --prefix tools/firebase): firebase.json schema and endpoint validation skipped');

// 1. firebase.json
const firebaseJson = readJson(join(projectDir, 'firebase.json'));
const functions = firebaseJson.functions;
if (!functions || Array.isArray(functions) || typeof functions !== 'object') {
  problems.push('firebase.json: "functions" must be one entry (an object), the functions/ codebase');
} else {
  if (functions.source !== 'functions')
    problems.push(`firebase.json: functions.source is ${JSON.stringify(functions.source)}, not "functions"`);
  if (functions.runtime !== FUNCTIONS_RUNTIME)
    problems.push(`firebase.json: functions.runtime is ${JSON.stringify(functions.runtime)}, not "${FUNCTIONS_RUNTIME}"`);
  const predeploy = [functions.predeploy ?? []].flat();
  if (!predeploy.includes(FUNCTIONS_PREDEPLOY))
    problems.push(`firebase.json: functions.predeploy must run "${FUNCTIONS_PREDEPLOY}" (the deploy uploads functions/lib)`);
  const ignore = functions.ignore ?? [];
  if (!ignore.includes('node_modules'))
    problems.push('firebase.json: functions.ignore must leave out node_modules (Cloud Build installs them)');
  if (ignore.some((pattern) => pattern === 'lib' || pattern.startsWith('lib/**') || pattern === 'lib/index.js'))
    problems.push('firebase.json: functions.ignore leaves out the bundle (lib/index.js)');
}
if (tools) {
  const { getValidator, getErrorMessage } = tools.require(`${tools.lib}firebaseConfigValidate.js`);
  const validate = getValidator();
  if (!validate(firebaseJson)) for (const error of validate.errors ?? []) problems.push(getErrorMessage(error));
}

// 2. functions/package.json and its lockfile
const rootPackage = readJson(join(projectDir, 'package.json'));
const rootVersions = { ...rootPackage.dependencies, ...rootPackage.devDependencies };
const functionsPackage = readJson(join(sourceDir, 'package.json'));
if (functionsPackage.main !== 'lib/index.js')
  problems.push(`functions/package.json: main is ${JSON.stringify(functionsPackage.main)}, not "lib/index.js"`);
for (const script of ['build', 'gcp-build']) {
  if (functionsPackage.scripts?.[script] !== undefined)
    problems.push(`functions/package.json: a "${script}" script would run in Cloud Build, where the sources are not uploaded`);
}
const dependencies = functionsPackage.dependencies ?? {};
const names = Object.keys(dependencies).sort();
if (names.join() !== [...FUNCTIONS_EXTERNAL].sort().join())
  problems.push(`functions/package.json: dependencies are ${names.join(', ') || 'none'}, not ${FUNCTIONS_EXTERNAL.join(', ')}`);
for (const name of names) {
  if (dependencies[name] !== rootVersions[name])
    problems.push(`functions/package.json: ${name} is ${dependencies[name]}, the root install has ${rootVersions[name] ?? 'none'}`);
}
const lockPath = join(sourceDir, 'package-lock.json');
if (!existsSync(lockPath)) problems.push('functions/package-lock.json is missing (npm install --package-lock-only --prefix functions)');
else {
  const lock = readJson(lockPath).packages ?? {};
  for (const name of names) {
    const locked = lock[`node_modules/${name}`]?.version;
    if (lock['']?.dependencies?.[name] !== dependencies[name] || locked !== dependencies[name])
      problems.push(
        `functions/package-lock.json: ${name} is ${locked ?? 'missing'}, package.json says ${dependencies[name]} (npm install --package-lock-only --prefix functions)`,
      );
  }
}

// 3. the bundle
let bundled = false;
try {
  const meta = await buildFunctions(projectDir);
  bundled = true;
  const builtins = new Set(builtinModules);
  const outside = new Set();
  for (const output of Object.values(meta.outputs)) {
    for (const imported of output.imports ?? []) {
      if (!imported.external) continue;
      const path = imported.path;
      const isBuiltin = path.startsWith('node:') || builtins.has(path);
      const isDependency = FUNCTIONS_EXTERNAL.some((name) => path === name || path.startsWith(`${name}/`));
      if (!isBuiltin && !isDependency) outside.add(path);
    }
  }
  for (const path of outside)
    problems.push(`functions/lib/index.js imports ${path}, which is neither bundled nor a dependency in functions/package.json`);
} catch (error) {
  problems.push(`the bundle does not build: ${error instanceof Error ? error.message : String(error)}`);
}

// 4. discovery of the triggers
const env = { GCLOUD_PROJECT: PROJECT.projectId, FIREBASE_CONFIG: JSON.stringify(PROJECT) };
let endpoints = null;
let discoveredWith = null;
if (bundled && tools) {
  const previousConfig = process.env.FIREBASE_CONFIG;
  const previousOutput = process.env.FIREBASE_FUNCTIONS_DISCOVERY_OUTPUT_PATH;
  // The CLI's switch for discovery through a manifest file instead of the manifest server on a port (seconds faster, same manifest).
  process.env.FIREBASE_FUNCTIONS_DISCOVERY_OUTPUT_PATH = 'true';
  try {
    const { tryCreateDelegate } = tools.require(`${tools.lib}deploy/functions/runtimes/node/index.js`);
    const build = tools.require(`${tools.lib}deploy/functions/build.js`);
    const backend = tools.require(`${tools.lib}deploy/functions/backend.js`);
    const validate = tools.require(`${tools.lib}deploy/functions/validate.js`);
    const delegate = await tryCreateDelegate({ projectId: PROJECT.projectId, projectDir, sourceDir, runtime: functions?.runtime });
    if (!delegate) throw new Error('firebase-tools found no Node.js functions source in functions/');
    await delegate.validate();
    await delegate.build();
    const wantBuild = await delegate.discoverBuild({}, env);
    // The deploy picks each event function's region from its data source (REGION_TBD until it
    // asks the project); any region will do to validate the rest offline.
    process.env.FIREBASE_CONFIG = env.FIREBASE_CONFIG;
    const { backend: wantBackend } = await build.resolveBackend({
      build: wantBuild,
      firebaseConfig: PROJECT,
      userEnvs: {},
      codebase: 'default',
      nonInteractive: true,
      isEmulator: false,
      resolveRegions: async (b) => {
        for (const endpoint of Object.values(b.endpoints))
          if (endpoint.region?.includes(build.REGION_TBD)) endpoint.region = ['us-central1'];
      },
    });
    validate.endpointsAreValid(wantBackend, backend.empty());
    validate.endpointsAreUnique({ default: wantBackend });
    endpoints = wantBuild.endpoints;
    discoveredWith = `firebase-tools ${tools.version}`;
  } catch (error) {
    problems.push(`firebase-tools: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    for (const [name, value] of [
      ['FIREBASE_CONFIG', previousConfig],
      ['FIREBASE_FUNCTIONS_DISCOVERY_OUTPUT_PATH', previousOutput],
    ]) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
} else if (bundled) {
  const dir = mkdtempSync(join(tmpdir(), 'functions-manifest-'));
  try {
    const requireFromSource = createRequire(join(sourceDir, 'package.json'));
    // (its exports map hides package.json: the package folder is found from its main entry)
    const main = requireFromSource.resolve('firebase-functions');
    const marker = join('node_modules', 'firebase-functions');
    const bin = join(main.slice(0, main.lastIndexOf(marker) + marker.length), 'lib', 'bin', 'firebase-functions.js');
    const manifest = join(dir, 'functions.yaml');
    const run = spawnSync(process.execPath, [bin, sourceDir], {
      cwd: sourceDir,
      env: { ...process.env, ...env, FUNCTIONS_CONTROL_API: 'true', FUNCTIONS_MANIFEST_OUTPUT_PATH: manifest },
      encoding: 'utf8',
      timeout: 60_000,
    });
    if (run.status !== 0) throw new Error(`firebase-functions could not load the bundle: ${run.stderr || run.stdout}`);
    endpoints = readJson(manifest).endpoints;
    discoveredWith = 'firebase-functions manifest';
  } catch (error) {
    problems.push(error instanceof Error ? error.message : String(error));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
if (endpoints) {
  const found = Object.keys(endpoints).sort();
  const expected = Object.keys(EXPECTED_TRIGGERS).sort();
  if (found.join() !== expected.join()) problems.push(`the bundle exports ${found.join(', ') || 'no trigger'}, not ${expected.join(', ')}`);
  for (const [name, want] of Object.entries(EXPECTED_TRIGGERS)) {
    const endpoint = endpoints[name];
    if (!endpoint) continue;
    const trigger = endpoint.eventTrigger ?? {};
    if (endpoint.platform !== 'gcfv2') problems.push(`${name}: platform ${endpoint.platform}, not gcfv2`);
    if (trigger.eventType !== want.eventType) problems.push(`${name}: event type ${trigger.eventType}, not ${want.eventType}`);
    if (trigger.retry !== true) problems.push(`${name}: not retried on failure`);
    if (want.document && trigger.eventFilterPathPatterns?.document !== want.document)
      problems.push(`${name}: document pattern ${trigger.eventFilterPathPatterns?.document}, not ${want.document}`);
    if (want.eventType.startsWith('google.cloud.storage.') && trigger.eventFilters?.bucket !== PROJECT.storageBucket)
      problems.push(`${name}: bucket ${trigger.eventFilters?.bucket}, not the project's default bucket`);
  }
}

const summary = endpoints
  ? Object.fromEntries(
      Object.entries(endpoints).map(([name, endpoint]) => [
        name,
        {
          eventType: endpoint.eventTrigger?.eventType ?? null,
          memoryMb: endpoint.availableMemoryMb ?? null,
          timeoutSeconds: endpoint.timeoutSeconds ?? null,
          retry: endpoint.eventTrigger?.retry ?? null,
        },
      ]),
    )
  : null;
const report = { ok: problems.length === 0, problems, notes, discoveredWith, endpoints: summary };
if (asJson) console.log(JSON.stringify(report, null, 2));
else {
  for (const note of notes) console.log(`note: ${note}`);
  if (summary)
    for (const [name, e] of Object.entries(summary)) console.log(`${name}: ${e.eventType} (${e.memoryMb} MB, ${e.timeoutSeconds} s)`);
  if (discoveredWith) console.log(`triggers discovered with ${discoveredWith}`);
  if (problems.length === 0)
    console.log('functions: ready to deploy (firebase deploy --only functions needs a login and a project from here)');
  else for (const problem of problems) console.error(`✖ ${problem}`);
}
process.exitCode = problems.length === 0 ? 0 : 1;
