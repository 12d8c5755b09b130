// The gzip of large query answers on catalog serve (cli/src/server/gzip-rows.ts), kept per run of
// rows: whatever the rows and however they change between answers (a row rewritten, rows added
// or removed, reordered, a row repeated in another answer), the bytes gunzip (zlib, as a browser
// does) to exactly the answer's text.
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { GzipRows } from '../../cli/src/server/gzip-rows.js';

const OPEN = Buffer.from('{"docs":[');
const SEPARATOR = Buffer.from(',');
const CLOSE = Buffer.from(']}');

/** The answer's text as the server builds it. */
function bodyOf(rows: readonly Buffer[]): Buffer {
  return Buffer.concat([OPEN, ...rows.flatMap((row, i) => (i === 0 ? [row] : [SEPARATOR, row])), CLOSE]);
}

const row = (i: number, note = ''): Buffer =>
  Buffer.from(JSON.stringify({ name: `Survey ${i} of the footbridge ${note}`, place: 'Brücke über den Fluss', id: `model-${i}` }));

async function expectRoundTrip(gzip: GzipRows, rows: readonly Buffer[]): Promise<Buffer> {
  const body = bodyOf(rows);
  const packed = await gzip.gzip(rows, body);
  expect(gunzipSync(packed).equals(body)).toBe(true);
  return packed;
}

describe('GzipRows', () => {
  it('gzips no rows, one row and many rows to the answer text', async () => {
    const gzip = new GzipRows(OPEN, SEPARATOR, CLOSE);
    await expectRoundTrip(gzip, []);
    await expectRoundTrip(gzip, [row(1)]);
    const many = Array.from({ length: 5000 }, (_, i) => row(i));
    const packed = await expectRoundTrip(gzip, many);
    expect(packed.length).toBeLessThan(bodyOf(many).length / 5);
    expect(JSON.parse(gunzipSync(packed).toString('utf8'))).toEqual({ docs: many.map((r) => JSON.parse(r.toString('utf8'))) });
  });

  it('stays exact when rows are rewritten, added, removed or reordered between answers', async () => {
    const gzip = new GzipRows(OPEN, SEPARATOR, CLOSE);
    let rows = Array.from({ length: 3000 }, (_, i) => row(i));
    await expectRoundTrip(gzip, rows);
    // a row rewritten (a new Buffer, as the store hands out for a written document)
    rows = rows.map((r, i) => (i === 1234 ? row(i, 'renamed') : r));
    await expectRoundTrip(gzip, rows);
    // the first row rewritten, and rows added at the start, in the middle and at the end
    rows = [row(-1), row(0, 'first renamed'), ...rows.slice(1, 1500), row(10_001), ...rows.slice(1500), row(10_002)];
    await expectRoundTrip(gzip, rows);
    // rows removed (the first, a stretch in the middle) and the rest reversed
    rows = rows.slice(1, 700).concat(rows.slice(900));
    await expectRoundTrip(gzip, rows);
    await expectRoundTrip(gzip, [...rows].reverse());
    // another answer (a filtered query) over some of the same rows, then the first one again
    await expectRoundTrip(
      gzip,
      rows.filter((_, i) => i % 3 === 0),
    );
    await expectRoundTrip(gzip, rows);
  });

  it('gives the same bytes for the same rows (kept runs), and the answer text with multi-byte characters', async () => {
    const gzip = new GzipRows(OPEN, SEPARATOR, CLOSE);
    const rows = Array.from({ length: 2000 }, (_, i) => row(i, '— ✓'));
    const first = await expectRoundTrip(gzip, rows);
    const again = await expectRoundTrip(gzip, [...rows]);
    expect(again.equals(first)).toBe(true);
  });
});
