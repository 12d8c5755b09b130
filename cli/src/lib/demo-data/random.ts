/**
 * The demo data's source of randomness: a seeded generator, so the same call writes the same
 * bytes on every run (the seed command's files, benchmarks and test fixtures rely on it).
 */

/**
 * A small deterministic pseudo-random generator (mulberry32), for demo data and benchmarks that
 * must give the same bytes on every run.
 * @param seed any 32-bit integer (other numbers are taken modulo 2³²)
 * @returns a function giving the next value in [0, 1) on each call
 */
export function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
