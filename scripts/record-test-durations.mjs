#!/usr/bin/env node
// Records how long each test file took in a whole-suite run, for the order in which
// tests/support/sequencer.ts hands files to the workers on a fresh clone (longest first).
//
//   npx vitest run --reporter=json --outputFile=/tmp/vitest.json
//   node scripts/record-test-durations.mjs /tmp/vitest.json
//
// Writes tests/support/test-durations.json: seconds by file path, files of 5 s or more.
import { readFileSync, writeFileSync } from 'node:fs';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const MIN_SECONDS = 5;
const root = fileURLToPath(new URL('..', import.meta.url));
const report = process.argv[2];
if (!report) {
  console.error('usage: node scripts/record-test-durations.mjs <vitest JSON report>');
  process.exit(2);
}
const { testResults } = JSON.parse(readFileSync(report, 'utf8'));
const seconds = testResults
  .map((file) => [relative(root, file.name), Math.round((file.endTime - file.startTime) / 1000)])
  .filter(([, s]) => s >= MIN_SECONDS)
  .sort((a, b) => b[1] - a[1]);
const out = new URL('../tests/support/test-durations.json', import.meta.url);
writeFileSync(out, `${JSON.stringify(Object.fromEntries(seconds), null, 2)}\n`);
console.log(`${seconds.length} files of ${MIN_SECONDS} s or more written to ${fileURLToPath(out)}`);
