/**
 * Gzip of a large JSON answer made of rows (a query's documents), kept per run of rows so that
 * after a write only the runs holding changed rows are compressed again: the first request for
 * the 10,000-model answer after a write then costs a CRC over the answer and one or two small
 * deflates instead of compressing 6.5 MB.
 *
 * A gzip member's deflate stream may be cut into pieces that each end on a full flush (byte
 * aligned, no final block, no reference to earlier data), as pigz does: each run of rows is
 * deflated on its own, the pieces are concatenated, an empty final block ends the stream and the
 * trailer holds the CRC-32 and length of the whole text.
 */
import { promisify } from 'node:util';
import { constants as zlibConstants, crc32, deflateRaw, deflateRawSync } from 'node:zlib';

const deflateRawAsync = promisify(deflateRaw);

/** Rows per run on average; a run is cut after a row whose id's hash is 0 modulo this. */
const RUN_ROWS = 256;
/** Most rows in a run (an unlucky stretch of ids without a cut). */
const RUN_ROWS_MAX = 4 * RUN_ROWS;
/** Bytes of a row's end hashed to place cuts: the `"id":"…"}` member the answer's rows end with. */
const CUT_HASH_BYTES = 16;

/** gzip header: deflate, no flags, no time, extra flags 0, operating system unknown. */
const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]);
/** An empty final deflate block (fixed Huffman codes), which ends the stream. */
const FINAL_BLOCK = Buffer.from([3, 0]);

/** A run of rows and its deflated text (separator before each row but the answer's first). */
interface Run {
  rows: readonly Buffer[];
  leadingSeparator: boolean;
  deflated: Promise<Buffer>;
}

/** Deflates one piece of the stream: level 1, ended by a full flush so that pieces can follow it. */
function deflatePiece(bytes: Buffer): Promise<Buffer> {
  return deflateRawAsync(bytes, { level: 1, finishFlush: zlibConstants.Z_FULL_FLUSH });
}

/**
 * Whether a run is cut after this row: from the hash of its last bytes (the id for query rows),
 * so that cuts stay where they are when other rows are written, added or removed.
 */
function cutAfter(row: Buffer): boolean {
  let hash = 0x811c9dc5;
  for (let i = Math.max(0, row.length - CUT_HASH_BYTES); i < row.length; i++) {
    hash = Math.imul(hash ^ (row[i] ?? 0), 0x01000193);
  }
  hash = Math.imul(hash ^ (hash >>> 16), 0x45d9f3b);
  return (hash ^ (hash >>> 16)) % RUN_ROWS === 0;
}

/**
 * Gzips `open + rows joined by separator + close`, reusing the deflated runs of rows of earlier
 * answers: a run is reused when it holds the same row objects (Buffers) in the same order, which
 * is what the document store hands out for rows not written since.
 */
export class GzipRows {
  /** Runs by their first row (the last run made with that first row). */
  private readonly runs = new WeakMap<Buffer, Run>();
  private readonly head: Buffer;
  private readonly tail: Buffer;

  /**
   * @param open the bytes before the rows, e.g. `{"docs":[`
   * @param separator the bytes between two rows, e.g. `,`
   * @param close the bytes after the rows, e.g. `]}`
   */
  constructor(
    open: Buffer,
    private readonly separator: Buffer,
    close: Buffer,
  ) {
    this.head = deflateRawSync(open, { level: 1, finishFlush: zlibConstants.Z_FULL_FLUSH });
    this.tail = deflateRawSync(close, { level: 1, finishFlush: zlibConstants.Z_FULL_FLUSH });
  }

  /**
   * The gzip file (one member) of an answer.
   * @param rows the answer's rows, in order; a row must not change once passed (a changed
   *   document is a new Buffer)
   * @param body the whole uncompressed text, `open + rows joined by separator + close` (its
   *   CRC-32 and length go in the trailer)
   * @returns the gzip bytes, which gunzip to `body`
   * @throws whatever zlib throws (out of memory)
   */
  async gzip(rows: readonly Buffer[], body: Buffer): Promise<Buffer> {
    const pieces: Promise<Buffer>[] = [];
    let start = 0;
    for (let i = 0; i < rows.length; i++) {
      const row = rows[i] as Buffer;
      if (i + 1 < rows.length && i + 1 - start < RUN_ROWS_MAX && !cutAfter(row)) continue;
      pieces.push(this.run(rows.slice(start, i + 1), start > 0));
      start = i + 1;
    }
    const trailer = Buffer.alloc(8);
    trailer.writeUInt32LE(crc32(body), 0);
    trailer.writeUInt32LE(body.length % 2 ** 32, 4);
    return Buffer.concat([GZIP_HEADER, this.head, ...(await Promise.all(pieces)), this.tail, FINAL_BLOCK, trailer]);
  }

  /** The deflated text of a run of rows: the kept one when it holds the same rows, else made now. */
  private run(rows: readonly Buffer[], leadingSeparator: boolean): Promise<Buffer> {
    const first = rows[0] as Buffer;
    const kept = this.runs.get(first);
    if (
      kept &&
      kept.leadingSeparator === leadingSeparator &&
      kept.rows.length === rows.length &&
      kept.rows.every((row, i) => row === rows[i])
    ) {
      return kept.deflated;
    }
    const parts: Buffer[] = [];
    for (const row of rows) {
      if (leadingSeparator || parts.length > 0) parts.push(this.separator);
      parts.push(row);
    }
    const run: Run = { rows, leadingSeparator, deflated: deflatePiece(Buffer.concat(parts)) };
    this.runs.set(first, run);
    run.deflated.catch(() => {
      if (this.runs.get(first) === run) this.runs.delete(first);
    });
    return run.deflated;
  }
}
