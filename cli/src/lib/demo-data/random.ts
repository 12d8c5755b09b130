/**
 * The demo data's source of randomness: a seeded generator, so the same call writes the same
 * bytes on every run (the seed command's files, benchmarks and test fixtures rely on it).
 */
import { seededRandom } from '@shared/seeded-random.js';

/**
 * A small deterministic pseudo-random generator (mulberry32, `@shared/seeded-random.ts`), for demo
 * data and benchmarks that must give the same bytes on every run.
 * @param seed any 32-bit integer (other numbers are taken modulo 2³²)
 * @returns a function giving the next value in [0, 1) on each call
 */
export const random: (seed: number) => () => number = seededRandom;
