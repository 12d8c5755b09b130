// The order in which Vitest hands test files to its workers: longest first across every project
// (Vitest's own order runs project after project, so the browser tests' long files began a
// quarter of the way in and the run ended on them). A file's length is its last duration in
// Vitest's cache where there is one, else the one recorded in test-durations.json (a run of the
// whole suite on the 2-core machine, files of 5 s or more), else an estimate from its size.
import { readFileSync, statSync } from 'node:fs';
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** Seconds of a whole-suite run, by file path from the repository root. */
const RECORDED: Readonly<Record<string, number>> = JSON.parse(readFileSync(new URL('./test-durations.json', import.meta.url), 'utf8'));

/** Seconds a KB of test file takes, by project, for files not recorded (all under 5 s there). */
const SECONDS_PER_KB: Readonly<Record<string, number>> = { e2e: 1, firebase: 0.5, cli: 0.5, contract: 0.1, portal: 0.1, unit: 0.1 };

/** Longest first: cached duration, else recorded, else estimated (all in ms). */
export default class LongestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const cache = this.ctx.cache;
    const length = new Map<TestSpecification, number>();
    for (const file of files) {
      const path = relative(this.ctx.config.root, file.moduleId);
      const cached = cache.getFileTestResults(`${file.project.name}:${path}`);
      const recorded = RECORDED[path];
      // The size is read only for a file that neither the cache nor the record knows.
      const estimate = () => (statSync(file.moduleId).size / 1024) * (SECONDS_PER_KB[file.project.name] ?? 1) * 1000;
      length.set(file, cached && !cached.failed ? cached.duration : recorded !== undefined ? recorded * 1000 : estimate());
    }
    return [...files].sort((a, b) => (length.get(b) ?? 0) - (length.get(a) ?? 0));
  }
}
