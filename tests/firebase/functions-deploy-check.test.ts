// `npm run check:functions` (scripts/check-functions.mjs), the closest offline check of
// `firebase deploy --only functions`: the repository's functions pass (the bundle builds and loads,
// firebase-tools' discovery finds the two triggers with their event types, firebase.json's entry
// and functions/package.json hold), and a copy of the project with a wrong runtime, a build script
// Cloud Build would run and a dependency pinned apart from the root install fails, naming each.
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, describe, expect, it } from 'vitest';
import { firebaseToolsUnavailable } from '../support/emulators.js';
import { repoRoot } from '../support/paths.js';

interface CheckReport {
  ok: boolean;
  problems: string[];
  notes: string[];
  discoveredWith: string | null;
  endpoints: Record<string, { eventType: string; memoryMb: number; timeoutSeconds: number; retry: boolean }> | null;
}

const script = join(repoRoot, 'scripts', 'check-functions.mjs');
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

async function check(...args: string[]): Promise<{ exitCode: number | undefined; report: CheckReport }> {
  const run = await execa(process.execPath, [script, '--json', ...args], { cwd: repoRoot, reject: false, timeout: 120_000 });
  return { exitCode: run.exitCode, report: JSON.parse(run.stdout) as CheckReport };
}

describe('npm run check:functions', () => {
  it('passes on the repository: the bundle builds, loads, and exports the two triggers with their event types', async () => {
    const { exitCode, report } = await check();
    expect(report.problems).toEqual([]);
    expect(exitCode).toBe(0);
    expect(report.discoveredWith).toMatch(firebaseToolsUnavailable() ? /^firebase-functions manifest$/ : /^firebase-tools \d+\.\d+\.\d+$/);
    expect(report.endpoints).toEqual({
      checkStoredModelFile: { eventType: 'google.cloud.storage.object.v1.finalized', memoryMb: 4096, timeoutSeconds: 540, retry: true },
      checkModelRecordFiles: { eventType: 'google.cloud.firestore.document.v1.written', memoryMb: 4096, timeoutSeconds: 540, retry: true },
    });
  });

  it('names each deploy problem of a project copy: the runtime, a build script Cloud Build would run, a dependency pinned apart', async () => {
    // inside the repository (.tmp/ is ignored), so that the copy resolves the root install's packages
    mkdirSync(join(repoRoot, '.tmp'), { recursive: true });
    const dir = mkdtempSync(join(repoRoot, '.tmp', 'functions-deploy-check-'));
    dirs.push(dir);
    for (const file of ['firebase.json', 'package.json', 'functions/package.json', 'functions/package-lock.json', 'functions/src']) {
      cpSync(join(repoRoot, file), join(dir, file), { recursive: true });
    }
    const firebaseJson = JSON.parse(readFileSync(join(dir, 'firebase.json'), 'utf8')) as { functions: Record<string, unknown> };
    firebaseJson.functions.runtime = 'nodejs20';
    writeFileSync(join(dir, 'firebase.json'), JSON.stringify(firebaseJson));
    const pkg = JSON.parse(readFileSync(join(dir, 'functions/package.json'), 'utf8')) as Record<string, Record<string, string>>;
    pkg.scripts = { build: 'tsc' };
    pkg.dependencies!['firebase-admin'] = '13.0.0';
    writeFileSync(join(dir, 'functions/package.json'), JSON.stringify(pkg));

    const { exitCode, report } = await check('--project-dir', dir);
    expect(exitCode).toBe(1);
    expect(report.problems).toEqual(
      expect.arrayContaining([
        'firebase.json: functions.runtime is "nodejs20", not "nodejs22"',
        'functions/package.json: a "build" script would run in Cloud Build, where the sources are not uploaded',
        'functions/package.json: firebase-admin is 13.0.0, the root install has 13.9.0',
        expect.stringMatching(/^functions\/package-lock\.json: firebase-admin is 13\.9\.0, package\.json says 13\.0\.0/),
      ]),
    );
  });
});
