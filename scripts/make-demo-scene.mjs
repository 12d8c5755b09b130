#!/usr/bin/env node
// The landing page's demo scene, `node scripts/make-demo-scene.mjs`: two small Gaussian-splat captures of a
// made-up lattice telecom tower, written to portal/public/demo/ as SPZ (the format the viewer
// loads for every web-sized splat), with the CLI's compressSplatFile. The 2025 capture differs
// from the 2024 one as a re-inspection would find it: a broken cross-brace on one face with its
// partner bent outward, rust on a leg, and a new panel antenna. Generated (no real site), seeded,
// so every run writes the same files; about 9,000 Gaussians each, under 150 kB together.
//
// Frame: 3DGS training output is y-down and the viewer turns splats 180° about x by default, so
// the scene is built y-up and written as (x, -y, -z).
import { mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { register } from 'tsx/esm/api';

const root = fileURLToPath(new URL('..', import.meta.url));
register({ tsconfig: join(root, 'tsconfig.json') }); // the CLI's TypeScript sources and their @shared/… paths
const { compressSplatFile } = await import(pathToFileURL(join(root, 'cli/src/lib/web-splat.ts')).href);
// the demo data's seeded generator, so the files are the same on every run
const { random } = await import(pathToFileURL(join(root, 'cli/src/lib/demo-data/random.ts')).href);

const OUT = join(root, 'portal/public/demo');
/** Tower height, half-widths at the base and the top, panels between horizontal members. */
const HEIGHT = 30;
const BASE = 3.5;
const TOP = 1.0;
const PANELS = 10;
/** Spacing of the Gaussians along a member, and a member's radius. */
const STEP = 0.14;
const RADIUS = 0.06;

/** The scene of one capture: its Gaussians as { p: [x,y,z] (y-up), s: [sx,sy,sz], q: [w,x,y,z], c: [r,g,b,a] }. */
function scene(year) {
  const rand = random(year);
  const jitter = (amount) => (rand() - 0.5) * 2 * amount;
  const out = [];
  const steel = (shade = 0) => {
    const g = 160 + shade + jitter(10);
    return [g, g + 4, g + 9, 235];
  };
  const rust = () => [150 + jitter(15), 78 + jitter(10), 40 + jitter(8), 240];

  /** Gaussians along a straight member from a to b, each stretched along it. */
  function member(a, b, colour = steel, radius = RADIUS) {
    const d = [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
    const length = Math.hypot(...d);
    const n = Math.max(2, Math.round(length / STEP));
    const u = d.map((v) => v / length);
    // the rotation taking x onto the member's direction (file frame: y and z negated)
    const f = [u[0], -u[1], -u[2]];
    let q = [1 + f[0], 0, -f[2], f[1]];
    const norm = Math.hypot(...q);
    q = norm < 1e-6 ? [0, 0, 0, 1] : q.map((v) => v / norm);
    for (let i = 0; i <= n; i += 1) {
      const t = i / n;
      out.push({
        p: [a[0] + d[0] * t + jitter(0.01), a[1] + d[1] * t + jitter(0.01), a[2] + d[2] * t + jitter(0.01)],
        s: [(length / n) * 0.75, radius, radius],
        q,
        c: colour(t),
      });
    }
  }

  /** A flat disc of Gaussians (ground, pads, dishes) facing the axis `normal` (0: x, 1: y, 2: z). */
  function patch(centre, radius, count, colour, size, normal = 1) {
    for (let i = 0; i < count; i += 1) {
      const r = radius * Math.sqrt(rand());
      const a = rand() * Math.PI * 2;
      const [u, v] = [0, 1, 2].filter((axis) => axis !== normal);
      const p = [...centre];
      p[u] += r * Math.cos(a);
      p[v] += r * Math.sin(a);
      const s = [size, size, size];
      s[normal] = size * 0.08;
      out.push({ p, s, q: [1, 0, 0, 0], c: colour() });
    }
  }

  const half = (y) => BASE + (TOP - BASE) * (y / HEIGHT);
  const corner = (y, sx, sz) => [sx * half(y), y, sz * half(y)];
  const corners = [
    [1, 1],
    [-1, 1],
    [-1, -1],
    [1, -1],
  ];
  const level = (k) => (HEIGHT * k) / PANELS;

  // the ground, a gravel pad and four concrete footings
  patch([0, -0.05, 0], 14, 1600, () => [70 + jitter(18), 96 + jitter(20), 52 + jitter(12), 210], 0.45);
  patch(
    [0, 0, 0],
    5.5,
    500,
    () => {
      const g = 128 + jitter(14);
      return [g, g - 3, g - 8, 235];
    },
    0.3,
  );
  for (const [sx, sz] of corners) patch([sx * BASE, 0.05, sz * BASE], 0.6, 40, () => [185 + jitter(6), 183, 178, 245], 0.14);

  // legs: rust on one leg's lower panels in 2025
  for (const [sx, sz] of corners) {
    const rusty = year >= 2025 && sx === 1 && sz === 1;
    member(corner(0, sx, sz), corner(HEIGHT, sx, sz), (t) => (rusty && t > 0.12 && t < 0.26 ? rust() : steel(-8)), RADIUS * 1.4);
  }
  // horizontals and cross-braces on each face
  for (let k = 0; k <= PANELS; k += 1) {
    const y = level(k);
    for (let c = 0; c < 4; c += 1) {
      const [ax, az] = corners[c];
      const [bx, bz] = corners[(c + 1) % 4];
      member(corner(y, ax, az), corner(y, bx, bz));
      if (k === PANELS) continue;
      const y1 = level(k + 1);
      const face = c === 0; // the +z face
      const broken = year >= 2025 && face && k === 3;
      // one diagonal: gone in 2025 (a stub at each end)
      if (broken) {
        const a = corner(y, ax, az);
        const b = corner(y1, bx, bz);
        const stub = (from, to) =>
          member(
            from,
            from.map((v, i) => v + (to[i] - v) * 0.18),
          );
        stub(a, b);
        stub(b, a);
      } else member(corner(y, ax, az), corner(y1, bx, bz));
      // the other diagonal: bent outward at its middle in 2025
      const a = corner(y, bx, bz);
      const b = corner(y1, ax, az);
      if (broken) {
        const mid = a.map((v, i) => (v + b[i]) / 2);
        mid[2] += 0.45;
        member(a, mid);
        member(mid, b);
      } else member(a, b);
    }
  }

  // the top: a platform frame, the mast with aviation bands, panel antennas, two dishes
  for (let c = 0; c < 4; c += 1) {
    const [ax, az] = corners[c];
    const [bx, bz] = corners[(c + 1) % 4];
    member([ax * 1.8, HEIGHT, az * 1.8], [bx * 1.8, HEIGHT, bz * 1.8]);
    member([ax * 1.8, HEIGHT + 1, az * 1.8], [bx * 1.8, HEIGHT + 1, bz * 1.8], steel, RADIUS * 0.7);
  }
  member([0, HEIGHT, 0], [0, HEIGHT + 7, 0], (t) => (Math.floor(t * 7) % 2 === 0 ? [205, 40, 35, 245] : [240, 240, 236, 245]), 0.09);
  const antenna = (x, y, z) => {
    for (let i = 0; i < 5; i += 1) member([x, y, z + (i - 2) * 0.07], [x, y + 1.8, z + (i - 2) * 0.07], () => [228, 228, 222, 245], 0.08);
  };
  antenna(1.5, HEIGHT - 2.6, 0);
  antenna(-1.5, HEIGHT - 2.6, 0);
  antenna(0, HEIGHT - 2.6, 1.5);
  if (year >= 2025) antenna(0, HEIGHT - 8.5, 2.2); // new equipment
  patch([0, 22, half(22) + 0.35], 0.7, 90, () => [238, 238, 232, 245], 0.12, 2);
  patch([half(17) + 0.35, 17, 0], 0.55, 70, () => [238, 238, 232, 245], 0.12, 0);
  return out;
}

/** The 32-byte `.splat` records of a scene, in the file frame (y and z negated). */
function splatBytes(gaussians) {
  const buffer = Buffer.alloc(gaussians.length * 32);
  gaussians.forEach(({ p, s, q, c }, i) => {
    const o = i * 32;
    buffer.writeFloatLE(p[0], o);
    buffer.writeFloatLE(-p[1], o + 4);
    buffer.writeFloatLE(-p[2], o + 8);
    s.forEach((v, k) => buffer.writeFloatLE(v, o + 12 + k * 4));
    c.forEach((v, k) => buffer.writeUInt8(Math.max(0, Math.min(255, Math.round(v))), o + 24 + k));
    q.forEach((v, k) => buffer.writeUInt8(Math.max(0, Math.min(255, Math.round(v * 128 + 128))), o + 28 + k));
  });
  return buffer;
}

const work = await mkdtemp(join(tmpdir(), 'catalog-demo-scene-'));
try {
  await mkdir(OUT, { recursive: true });
  for (const year of [2024, 2025]) {
    const gaussians = scene(year);
    const source = join(work, `tower-${year}.splat`);
    await writeFile(source, splatBytes(gaussians));
    const output = join(OUT, `tower-${year}.spz`);
    await compressSplatFile(source, output, `tower-${year}.splat`);
    console.log(`${output}: ${gaussians.length} Gaussians, ${(await stat(output)).size} bytes`);
  }
} finally {
  await rm(work, { recursive: true, force: true });
}
