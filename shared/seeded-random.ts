/**
 * A small seeded pseudo-random generator (mulberry32): the same seed gives the same sequence on
 * every run and platform, for what must come out the same each time (the demo data's bytes, a
 * mesh's surface samples, benchmark inputs). Not for anything secret.
 */

/**
 * A generator of numbers in [0, 1), deterministic for its seed.
 * @param seed any 32-bit integer (other numbers are taken modulo 2³²)
 * @returns a function giving the next value in [0, 1) on each call
 */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
