import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/** `@shared/…` is the repository's shared/ (as in tsconfig.json paths and the portal's Vite config). */
const resolve = { alias: { '@shared': fileURLToPath(new URL('./shared', import.meta.url)) } };

// Test projects: unit (pure functions of shared/ and cli/src/lib, default timeouts), contract (ports
// against the embedded backend), cli (execa end-to-end), portal (components in jsdom), e2e (headless
// Chromium). Their harnesses live in tests/support/.
//
// Two workers (Vitest's default is the cores less one: a single worker on a 2-core CI machine) run
// every project but e2e; the browser tests run after them, one file at a time, with the machine
// to themselves (software WebGL is CPU-bound: a second test beside it makes its waits a matter of load).
export default defineConfig({
  test: {
    maxWorkers: 2,
    projects: [
      { resolve, test: { name: 'unit', include: ['tests/unit/**/*.test.ts'], environment: 'node' } },
      {
        resolve,
        test: { name: 'contract', include: ['tests/contract/**/*.test.ts'], environment: 'node', testTimeout: 30_000, hookTimeout: 60_000 },
      },
      {
        resolve,
        test: { name: 'cli', include: ['tests/cli/**/*.test.ts'], environment: 'node', testTimeout: 60_000, hookTimeout: 60_000 },
      },
      // Firebase: the Auth emulator (in-process), rules tests and emulator runs (skip without Java 21).
      {
        resolve,
        test: {
          name: 'firebase',
          include: ['tests/firebase/**/*.test.ts', 'tests/rules/**/*.test.ts'],
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 90_000,
        },
      },
      {
        extends: './portal/vite.config.ts',
        test: { name: 'portal', include: ['portal/src/**/*.test.{ts,tsx}'], environment: 'jsdom' },
      },
      {
        resolve,
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 120_000,
          fileParallelism: false,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
