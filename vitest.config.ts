import { defineConfig } from 'vitest/config';

// Test projects: unit (shared/ pure rules), contract (ports against the embedded backend),
// cli (execa end-to-end), portal (components in jsdom), e2e (headless Chromium).
export default defineConfig({
  test: {
    projects: [
      { test: { name: 'unit', include: ['tests/unit/**/*.test.ts'], environment: 'node' } },
      { test: { name: 'contract', include: ['tests/contract/**/*.test.ts'], environment: 'node', testTimeout: 30_000, hookTimeout: 60_000 } },
      { test: { name: 'cli', include: ['tests/cli/**/*.test.ts'], environment: 'node', testTimeout: 60_000, hookTimeout: 60_000 } },
      // Firebase: the Auth emulator (in-process), rules tests and emulator runs (skip without Java 21).
      { test: { name: 'firebase', include: ['tests/firebase/**/*.test.ts', 'tests/rules/**/*.test.ts'], environment: 'node', testTimeout: 60_000, hookTimeout: 90_000 } },
      {
        extends: './portal/vite.config.ts',
        test: { name: 'portal', include: ['portal/src/**/*.test.{ts,tsx}'], environment: 'jsdom' },
      },
      { test: { name: 'e2e', include: ['tests/e2e/**/*.test.ts'], environment: 'node', testTimeout: 60_000, hookTimeout: 120_000, fileParallelism: false } },
    ],
  },
});
