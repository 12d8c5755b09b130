import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import LongestFirstSequencer from './tests/support/sequencer.js';

/** `@shared/…` is the repository's shared/ (as in tsconfig.json paths and the portal's Vite config). */
const resolve = { alias: { '@shared': fileURLToPath(new URL('./shared', import.meta.url)) } };

// Test projects: unit (pure functions of shared/ and cli/src/lib, default timeouts), contract (ports
// against the embedded backend), cli (execa end-to-end), portal (components in jsdom), e2e (headless
// Chromium). Their harnesses live in tests/support/.
//
// Two workers (Vitest's default is the cores less one: a single worker on a 2-core CI machine)
// share every project's files, the browser tests' included: a browser test spends most of its time
// waiting for a page or a server, so a second file beside it uses the core it leaves idle. Browser
// tests wait for states, never for a time, which keeps them true on a loaded machine.
/** Test files that replace a module with `vi.mock` (see the unit and portal projects). */
const MOCKING_FILES = [
  'tests/unit/doctor-maintenance.test.ts',
  'portal/src/features/viewer/components/viewer-page.test.tsx',
  'portal/src/features/map/components/google-map-view.test.tsx',
];

/**
 * Component tests wait for states (tests/support/portal-setup.ts gives Testing Library's waits
 * 10 s); a test may take 20 s, for a loaded machine, not for slow code.
 */
const PORTAL_TIMEOUTS = { setupFiles: ['tests/support/portal-setup.ts'], testTimeout: 20_000 };

export default defineConfig({
  test: {
    maxWorkers: 2,
    sequence: { sequencer: LongestFirstSequencer },
    projects: [
      // Unit and component files share one module registry per worker (isolate: false): each file
      // cleans up what it stubs, and a fresh registry per file cost about half of their time. Files
      // that replace a module with vi.mock run isolated, so the stand-in never reaches another file.
      {
        resolve,
        test: { name: 'unit', include: ['tests/unit/**/*.test.ts'], exclude: MOCKING_FILES, environment: 'node', isolate: false },
      },
      { resolve, test: { name: 'unit-isolated', include: MOCKING_FILES.filter((f) => f.startsWith('tests/')), environment: 'node' } },
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
        test: {
          name: 'portal',
          include: ['portal/src/**/*.test.{ts,tsx}'],
          exclude: MOCKING_FILES,
          environment: 'jsdom',
          isolate: false,
          ...PORTAL_TIMEOUTS,
        },
      },
      {
        extends: './portal/vite.config.ts',
        test: {
          name: 'portal-isolated',
          include: MOCKING_FILES.filter((f) => f.startsWith('portal/')),
          environment: 'jsdom',
          ...PORTAL_TIMEOUTS,
        },
      },
      {
        resolve,
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // A poll waits for a state, however long a loaded machine takes to get there (a test
          // asks for less where it checks that something happens soon).
          expect: { poll: { timeout: 30_000 } },
          globalSetup: ['tests/support/seed-template.ts'],
        },
      },
    ],
  },
});
