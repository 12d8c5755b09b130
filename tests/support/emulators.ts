/**
 * Test helpers for the Firebase emulators: a free port, Google's Firestore emulator started from
 * the machine image's jar (Java 17), and the Auth and Storage emulators of firebase-tools started
 * in-process (plain Node) with a bounded start-up and a clean stop.
 * firebase-tools is not part of the default install: it lives in tools/firebase (its own pinned
 * package.json and lock, `npm ci --prefix tools/firebase`, which `.ci/run` does); the tests that
 * need it skip with that command printed when it is absent.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from './net.js';

/** The pinned firebase-tools install (outside the default install). */
const FIREBASE_TOOLS_DIR = fileURLToPath(new URL('../../tools/firebase/', import.meta.url));

/** `require` resolving from tools/firebase, where firebase-tools is installed. */
const toolsRequire = createRequire(join(FIREBASE_TOOLS_DIR, 'package.json'));

/**
 * Why the firebase-tools emulators (Auth, Storage) cannot start here, or null when they can:
 * firebase-tools is installed only by `npm ci --prefix tools/firebase`.
 */
export function firebaseToolsUnavailable(): string | null {
  try {
    toolsRequire.resolve('firebase-tools/package.json');
    return null;
  } catch {
    return 'firebase-tools is not installed (it is outside the default install): run `npm ci --prefix tools/firebase`';
  }
}

/** A started Auth emulator. */
export interface AuthEmulatorHandle {
  /** `127.0.0.1:<port>`, the value for FIREBASE_AUTH_EMULATOR_HOST. */
  host: string;
  projectId: string;
  stop(): Promise<void>;
}

interface AuthEmulatorLike {
  start(): Promise<void>;
  stop(): Promise<void> | void;
}

/**
 * Starts the Auth emulator of firebase-tools in this process, on a free port (the programmatic
 * equivalent of `firebase emulators:start --only auth --project demo-catalog`).
 * @param options.projectId the demo project (default 'demo-catalog')
 * @param options.timeoutMs start-up bound in milliseconds (default 45 s)
 * @throws Error when it does not start in time
 */
export async function startAuthEmulator(options: { projectId?: string; timeoutMs?: number } = {}): Promise<AuthEmulatorHandle> {
  const projectId = options.projectId ?? 'demo-catalog';
  const port = await freePort();
  const { AuthEmulator } = toolsRequire('firebase-tools/lib/emulator/auth/index.js') as {
    AuthEmulator: new (args: { host: string; port: number; projectId: string; singleProjectMode?: string }) => AuthEmulatorLike;
  };
  const emulator = new AuthEmulator({ host: '127.0.0.1', port, projectId, singleProjectMode: 'error' });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeoutMs = options.timeoutMs ?? 45_000;
  try {
    await Promise.race([
      emulator.start(),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`the Auth emulator did not start within ${timeoutMs} ms`)), timeoutMs);
      }),
    ]);
  } catch (error) {
    await Promise.resolve(emulator.stop()).catch(() => undefined);
    throw error;
  } finally {
    clearTimeout(timer);
  }
  return {
    host: `127.0.0.1:${port}`,
    projectId,
    async stop() {
      await Promise.resolve(emulator.stop());
    },
  };
}

/** A started Storage emulator. */
export interface StorageEmulatorHandle {
  /** `127.0.0.1:<port>`, the value for FIREBASE_STORAGE_EMULATOR_HOST. */
  host: string;
  stop(): Promise<void>;
}

interface StorageEmulatorLike {
  start(): Promise<void>;
  stop(): Promise<void>;
  _rulesRuntime: { start(): Promise<void>; stop(): Promise<void> };
  _rulesManager: { start(): Promise<void>; stop(): Promise<void> };
  _persistence: { reset(dir: string): void };
  getPersistenceTmpDir(): string;
}

/**
 * Starts the Storage emulator of firebase-tools (a Node server) in this process on a free port,
 * WITHOUT its security-rules runtime: that runtime is a Java program downloaded on first use,
 * which cannot be downloaded here. So only the Admin SDK's requests
 * (owner credentials, which bypass rules anyway) are meaningful against it; storage.rules is
 * tested in tests/rules under the full emulators.
 * @param options.projectId the demo project (default 'demo-catalog')
 */
export async function startStorageEmulatorWithoutRules(options: { projectId?: string } = {}): Promise<StorageEmulatorHandle> {
  const port = await freePort();
  const { StorageEmulator } = toolsRequire('firebase-tools/lib/emulator/storage/index.js') as {
    StorageEmulator: new (args: Record<string, unknown>) => StorageEmulatorLike;
  };
  const emulator = new StorageEmulator({
    host: '127.0.0.1',
    port,
    projectId: options.projectId ?? 'demo-catalog',
    auto_download: false,
    rules: [],
  });
  const noop = async (): Promise<void> => undefined;
  emulator._rulesRuntime.start = noop;
  emulator._rulesRuntime.stop = noop;
  emulator._rulesManager.start = noop;
  emulator._rulesManager.stop = noop;
  // Its blobs go to one fixed folder (<tmp>/firebase/storage/blobs) that stop() deletes whole:
  // two test files running at once would delete each other's bytes. One folder per emulator.
  const blobs = mkdtempSync(join(tmpdir(), 'storage-emulator-'));
  emulator.getPersistenceTmpDir = () => blobs;
  emulator._persistence.reset(blobs);
  // The emulator finds its own URL (for bucket metadata) through firebase-tools' registry.
  const { EmulatorRegistry } = toolsRequire('firebase-tools/lib/emulator/registry.js') as {
    EmulatorRegistry: { start(instance: unknown): Promise<void>; stop(name: string): Promise<void> };
  };
  await EmulatorRegistry.start(emulator);
  return { host: `127.0.0.1:${port}`, stop: () => EmulatorRegistry.stop('storage') };
}

/**
 * Google's Firestore emulator as the machine image ships it: the Debian package
 * `google-cloud-cli-firestore-emulator` puts this jar here (built for Java 11, runs on Java 17;
 * rules engine included). `FIRESTORE_EMULATOR_JAR` points elsewhere.
 */
export const FIRESTORE_EMULATOR_JAR =
  process.env.FIRESTORE_EMULATOR_JAR || '/usr/lib/google-cloud-sdk/platform/cloud-firestore-emulator/cloud-firestore-emulator.jar';

/** A running Firestore emulator. */
export interface FirestoreEmulatorHandle {
  /** `127.0.0.1:<port>`, the value for FIRESTORE_EMULATOR_HOST. */
  host: string;
  /** Stops the emulator's Java process (by its pid). */
  stop(): Promise<void>;
}

/**
 * Starts the Firestore emulator from the image's jar on a free loopback port (or uses the one
 * `firebase emulators:exec` started, when FIREBASE_EMULATOR_HUB and FIRESTORE_EMULATOR_HOST are set).
 * @param options.timeoutMs start-up bound in milliseconds (default 60 s)
 * @throws Error naming the Debian package when the jar is missing, or Java when there is none,
 *   or the emulator's output when it does not start in time
 */
export async function startFirestoreEmulator(options: { timeoutMs?: number } = {}): Promise<FirestoreEmulatorHandle> {
  // Under `firebase emulators:exec` (it sets FIREBASE_EMULATOR_HUB) use its emulator.
  const given = process.env.FIREBASE_EMULATOR_HUB ? process.env.FIRESTORE_EMULATOR_HOST : undefined;
  if (given) return { host: given, stop: async () => undefined };
  if (!existsSync(FIRESTORE_EMULATOR_JAR)) {
    throw new Error(
      `The Firestore emulator is missing: no ${FIRESTORE_EMULATOR_JAR}. Install the Debian package google-cloud-cli-firestore-emulator (Google Cloud CLI apt repository), or set FIRESTORE_EMULATOR_JAR to the emulator's jar.`,
    );
  }
  const java = spawnSync('java', ['-version'], { encoding: 'utf8' });
  if (java.error)
    throw new Error(
      'The Firestore emulator needs Java 11 or later (e.g. the Debian package openjdk-17-jre-headless): no `java` on the PATH.',
    );
  const port = await freePort();
  const child = spawn(
    'java',
    [
      '-cp',
      FIRESTORE_EMULATOR_JAR,
      'com.google.cloud.datastore.emulator.firestore.CloudFirestore',
      '--host',
      '127.0.0.1',
      '--port',
      String(port),
    ],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  const timeoutMs = options.timeoutMs ?? 60_000;
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`the Firestore emulator did not start within ${timeoutMs} ms:\n${output}`)),
        timeoutMs,
      );
      const onData = (chunk: Buffer): void => {
        output += chunk.toString();
        if (output.includes('Dev App Server is now running')) {
          clearTimeout(timer);
          resolve();
        }
      };
      child.stdout?.on('data', onData);
      child.stderr?.on('data', onData);
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`the Firestore emulator exited with code ${code}:\n${output}`));
      });
    });
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
  return {
    host: `127.0.0.1:${port}`,
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/**
 * Loads firestore.rules (as deployed) into a running Firestore emulator for `projectId`, so that
 * web-SDK clients are held to it (the Admin SDK bypasses rules).
 * @param host the emulator's `host:port`
 * @param projectId the demo project
 * @throws Error with the emulator's answer when it refuses the rules
 */
export async function loadFirestoreRules(host: string, projectId: string): Promise<void> {
  const loaded = await fetch(`http://${host}/emulator/v1/projects/${projectId}:securityRules`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ rules: { files: [{ name: 'firestore.rules', content: readFileSync('firestore.rules', 'utf8') }] } }),
  });
  if (!loaded.ok) throw new Error(`loading firestore.rules into the emulator failed: HTTP ${loaded.status} ${await loaded.text()}`);
}
