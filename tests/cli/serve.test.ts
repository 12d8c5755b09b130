// `catalog serve`: starts the embedded server, prints its URL, writes the service key, stops on SIGTERM.
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, describe, expect, it } from 'vitest';
import { cliBin, repoRoot, tempDir } from '../support/paths.js';

const dataDir = tempDir('serve');
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('catalog serve', () => {
  it('serves on a free port, prints the URL as JSON, and stops on SIGTERM with exit 0', async () => {
    const child = execa('node', [cliBin, 'serve', '--port', '0', '--data-dir', dataDir, '--no-portal', '--json'], {
      cwd: repoRoot,
      reject: false,
      stdin: 'ignore',
    });
    const line = await new Promise<string>((resolve, reject) => {
      let buffer = '';
      child.stdout?.on('data', (chunk: Buffer) => {
        buffer += chunk.toString();
        if (buffer.includes('\n')) resolve(buffer.split('\n')[0]);
      });
      child.on('exit', () => reject(new Error(`serve exited early: ${buffer}`)));
      setTimeout(() => reject(new Error('serve did not print its URL')), 30_000);
    });
    const out = JSON.parse(line) as { status: string; result: { url: string; port: number } };
    expect(out.status).toBe('ok');
    expect(out.result.port).toBeGreaterThan(0);
    const config = await (await fetch(`${out.result.url}/v1/config`)).json();
    expect(config).toHaveProperty('viewerUrl');
    const key = JSON.parse(readFileSync(join(dataDir, 'service-key.json'), 'utf8'));
    expect(key).toMatchObject({ type: 'catalog-service-key', url: out.result.url });

    child.kill('SIGTERM');
    const result = await child;
    expect(result.exitCode).toBe(0);
    expect(String(result.stderr)).toContain('stopped');
    expect(existsSync(join(dataDir, 'catalog.db'))).toBe(true);
  });
});
