// Vite config of the portal: root portal/, build to portal/dist, the dev server
// proxies the embedded backend's API (/v1) to `catalog serve` on 127.0.0.1:8787.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

const portalDir = fileURLToPath(new URL('.', import.meta.url));
const repoDir = fileURLToPath(new URL('..', import.meta.url));
// Vitest projects extend this file with include globs relative to the repository root, so the
// portal root applies to the dev server and the build only.
const isVitest = process.env.VITEST !== undefined;

export default defineConfig({
  root: isVitest ? undefined : portalDir,
  plugins: [react()],
  // `@shared/…` is the repository's shared/ (tsconfig.json paths; the CLI's esbuild and tsx read those).
  resolve: { alias: { '@shared': fileURLToPath(new URL('../shared', import.meta.url)) } },
  build: {
    outDir: fileURLToPath(new URL('./dist', import.meta.url)),
    emptyOutDir: true,
  },
  server: {
    fs: { allow: [repoDir] },
    proxy: {
      '/v1': { target: 'http://127.0.0.1:8787', changeOrigin: false },
    },
  },
});
