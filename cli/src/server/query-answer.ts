/**
 * How the embedded backend sends a query's answer (`routes.query`): `{"docs":[…]}` around the
 * stored JSON text of each document, as kept by the document store, and for a large answer its
 * compressed copies, made once per answer and encoding whoever asks (every open portal reads the
 * same large query again after each write).
 */
import { promisify } from 'node:util';
import { brotliCompress, constants as zlibConstants } from 'node:zlib';
import negotiate from '@fastify/accept-negotiator';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { QueryText } from './documents/query-cache.js';
import { GzipRows } from './gzip-rows.js';

const brotliAsync = promisify(brotliCompress);

/** Query answers at least this long (bytes) are compressed once and kept; smaller ones by @fastify/compress per reply. */
const CACHED_COMPRESSION_MIN_BYTES = 64 * 1024;

/**
 * Brotli quality of kept query answers: the whole answer is compressed again after each write,
 * and the first request after a write has to stay within 50 ms. On the 10,000-model answer
 * (6.5 MB) quality 1 takes about 6 ms for 252 kB, quality 4 (@fastify/compress's) 33 ms for 226 kB.
 */
const BROTLI_QUALITY = 1;

/**
 * The encoding a large query answer goes out in: by the q-values of `Accept-Encoding`
 * (@fastify/accept-negotiator), gzip first among equals — browsers send `gzip, deflate, br, zstd`,
 * and gzip is kept per run of rows (`GzipRows`): after a write only the runs holding changed rows
 * are compressed again (a few ms for the 10,000-model answer), for about 35 % more bytes than brotli.
 * @param header the request's Accept-Encoding header
 * @returns 'gzip', 'br' or null (send uncompressed)
 */
export function preferredEncoding(header: string | string[] | undefined): 'br' | 'gzip' | null {
  const text = Array.isArray(header) ? header.join(',') : (header ?? '');
  return text === '' ? null : negotiate(text, ['gzip', 'br']);
}

/** What is kept per query answer: its reply body and its compressed copies (made once, on first demand). */
interface AnswerForms {
  body: Buffer;
  br?: Promise<Buffer>;
  gzip?: Promise<Buffer>;
}

const DOCS_OPEN = Buffer.from('{"docs":[');
const DOCS_CLOSE = Buffer.from(']}');
const COMMA = Buffer.from(',');

/** The reply body of a query answer, `{"docs":[…]}`, in one copy of its rows. */
function answerBody(answer: QueryText): Buffer {
  const parts: Buffer[] = [DOCS_OPEN];
  for (const row of answer.rows) {
    if (parts.length > 1) parts.push(COMMA);
    parts.push(row);
  }
  parts.push(DOCS_CLOSE);
  return Buffer.concat(parts, DOCS_OPEN.length + answer.bytes + Math.max(0, answer.rows.length - 1) + DOCS_CLOSE.length);
}

/**
 * Sends a query's answer (`{"docs": …}` around the stored JSON text). Large answers go out
 * compressed when the client accepts br or gzip, compressed once per answer and encoding
 * (brotli at BROTLI_QUALITY; gzip level 1 from the kept runs of `gzipRows`) whoever asks: every
 * open portal re-reads the 10,000-model query after each write. Content-Encoding is set here, so
 * @fastify/compress passes them through; small answers are left to it.
 * @param forms the kept forms, by answer (entries go when `DocumentStore` drops the answer)
 * @param gzipRows the gzip runs kept across answers
 */
async function sendQueryAnswer(
  request: FastifyRequest,
  reply: FastifyReply,
  answer: QueryText,
  forms: WeakMap<QueryText, AnswerForms>,
  gzipRows: GzipRows,
): Promise<FastifyReply> {
  let kept = forms.get(answer);
  if (!kept) {
    kept = { body: answerBody(answer) };
    forms.set(answer, kept);
  }
  void reply.type('application/json; charset=utf-8');
  const encoding = kept.body.length >= CACHED_COMPRESSION_MIN_BYTES ? preferredEncoding(request.headers['accept-encoding']) : null;
  if (encoding === null) return reply.send(kept.body);
  const entry = kept;
  let compressed = entry[encoding];
  if (!compressed) {
    compressed =
      encoding === 'br'
        ? brotliAsync(entry.body, {
            params: {
              [zlibConstants.BROTLI_PARAM_MODE]: zlibConstants.BROTLI_MODE_TEXT,
              [zlibConstants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY,
              [zlibConstants.BROTLI_PARAM_SIZE_HINT]: Buffer.byteLength(entry.body),
            },
          })
        : gzipRows.gzip(answer.rows, entry.body);
    entry[encoding] = compressed;
    compressed.catch(() => delete entry[encoding]);
  }
  const bytes = await compressed;
  void reply.header('content-encoding', encoding).header('vary', 'accept-encoding').header('content-length', bytes.length);
  return reply.send(bytes);
}

/** Sends one query answer as the reply to `request`; resolves with the reply once sent. */
export type QueryAnswerSender = (request: FastifyRequest, reply: FastifyReply, answer: QueryText) => Promise<FastifyReply>;

/**
 * A sender of query answers with its own kept forms: each answer's body and compressed copies
 * (kept while the document store keeps the answer) and the gzip runs shared across answers.
 * @returns the sender; one per server
 */
export function queryAnswerSender(): QueryAnswerSender {
  const forms = new WeakMap<QueryText, AnswerForms>();
  const gzipRows = new GzipRows(DOCS_OPEN, COMMA, DOCS_CLOSE);
  return (request, reply, answer) => sendQueryAnswer(request, reply, answer, forms, gzipRows);
}
