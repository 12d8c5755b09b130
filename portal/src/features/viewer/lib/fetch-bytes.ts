/**
 * Downloads a model file with progress (bytes received of the Content-Length), so the viewer can
 * show a progress bar while a large splat streams in.
 */

/** Progress of one download, in bytes; `total` is null when the server sends no length. */
export interface DownloadProgress {
  loaded: number;
  total: number | null;
}

/**
 * Fetches `url` into memory, reporting progress as chunks arrive.
 * @param onProgress called after each chunk
 * @param signal aborts the download
 * @returns the bytes
 * @throws Error "HTTP {status}" for a refused or missing file, or the network error
 */
export async function fetchBytes(url: string, onProgress: (progress: DownloadProgress) => void, signal?: AbortSignal): Promise<Uint8Array> {
  const response = await fetch(url, { signal });
  if (!response.ok)
    throw new Error(
      response.status === 404
        ? 'the file is missing (HTTP 404)'
        : response.status === 401 || response.status === 403
          ? `access refused (HTTP ${response.status})`
          : `HTTP ${response.status}`,
    );
  const length = Number(response.headers.get('content-length'));
  const total = Number.isFinite(length) && length > 0 ? length : null;
  if (!response.body) {
    const bytes = new Uint8Array(await response.arrayBuffer());
    onProgress({ loaded: bytes.length, total: bytes.length });
    return bytes;
  }
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let loaded = 0;
  onProgress({ loaded, total });
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    loaded += value.length;
    onProgress({ loaded, total });
  }
  const bytes = new Uint8Array(loaded);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.length;
  }
  return bytes;
}
