import { afterEach, describe, expect, it, vi } from 'vitest';
import { fetchBytes, type DownloadProgress } from './fetch-bytes.js';

/** A response streaming `chunks`, with or without a Content-Length. */
function streamed(chunks: Uint8Array[], { length = true, status = 200 }: { length?: boolean; status?: number } = {}): Response {
  const total = chunks.reduce((sum, c) => sum + c.length, 0);
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
  return new Response(body, { status, headers: length ? { 'content-length': String(total) } : {} });
}

afterEach(() => vi.unstubAllGlobals());

describe('fetchBytes', () => {
  it('joins the chunks and reports bytes received of the Content-Length after each', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => streamed([new Uint8Array([1, 2, 3]), new Uint8Array([4, 5])])),
    );
    const seen: DownloadProgress[] = [];
    const bytes = await fetchBytes('http://files.test/a', (p) => seen.push(p));
    expect([...bytes]).toEqual([1, 2, 3, 4, 5]);
    expect(seen).toEqual([
      { loaded: 0, total: 5 },
      { loaded: 3, total: 5 },
      { loaded: 5, total: 5 },
    ]);
  });

  it('reports a null total without a Content-Length', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => streamed([new Uint8Array([9])], { length: false })),
    );
    const seen: DownloadProgress[] = [];
    await fetchBytes('http://files.test/a', (p) => seen.push(p));
    expect(seen.at(-1)).toEqual({ loaded: 1, total: null });
  });

  it('says why a download was refused', async () => {
    for (const [status, message] of [
      [404, 'the file is missing (HTTP 404)'],
      [403, 'access refused (HTTP 403)'],
      [401, 'access refused (HTTP 401)'],
      [500, 'HTTP 500'],
    ] as const) {
      vi.stubGlobal(
        'fetch',
        vi.fn(async () => streamed([], { status })),
      );
      await expect(fetchBytes('http://files.test/a', () => undefined)).rejects.toThrow(message);
    }
  });
});
