/**
 * Test helper for component tests (not shipped): the real in-memory backend
 * (`@shared/adapters/memory`, held to the backend contract suite like the embedded one) signed in
 * with a role and seeded with projects and models, wrapped in {@link withFaults} for the loading and
 * error states, and {@link MemoryApp} to render a route inside the app's providers with it.
 */
import type { ReactNode } from 'react';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { createMemoryBackendAs, type MemoryFileSeed, type MemoryStore } from '@shared/adapters/memory/index.js';
import type { Backend } from '@shared/ports/index.js';
import type { Model, Project, Role } from '@shared/types.js';
import { AppProvider } from '../../app/provider.js';
import { withFaults, type Faults } from './faulty-backend.js';

/** The host of the test backends' download links: a stored file's link is `http://files.test/{path}`. */
export const FILES_HOST = 'http://files.test';

/** What a test backend starts with. */
export interface TestSeed {
  projects?: Project[];
  models?: Model[];
  /** Stored files besides those the models name (which are seeded anyway). */
  files?: Record<string, MemoryFileSeed>;
}

/** A test backend: the decorated backend and its fault controls, and the memory store it runs on. */
export interface TestBackend extends Faults {
  /** The shared state: `store.writeDocument(…)` / `deleteDocument(…)` change data live, as another client would. */
  store: MemoryStore;
}

/**
 * Documents as the store's seed takes them (id → data): the shared document types are interfaces,
 * which `MemoryDocSeed` (`{id} & Record<string, unknown>`) does not accept as they are.
 */
function byId<T extends { id: string }>(docs: readonly T[]): Record<string, Omit<T, 'id'>> {
  return Object.fromEntries(docs.map(({ id, ...data }) => [id, data]));
}

/**
 * A placeholder file (a few bytes) at every storage path a model names (splat, GLB, camera
 * metadata, images, thumbnails, assets), so that their download links resolve.
 */
export function modelFiles(models: readonly Model[]): Record<string, MemoryFileSeed> {
  const files: Record<string, MemoryFileSeed> = {};
  for (const { files: f } of models) {
    const paths = [f.splatPath, f.glbPath, f.cameraMetadata, ...(f.images ?? []), ...(f.thumbnails ?? []), ...(f.assets ?? [])];
    for (const path of paths) if (path) files[path] = { data: `placeholder of ${path}` };
  }
  return files;
}

/**
 * An in-memory backend for a component test: signed in as `role` (uid `{role}-uid`, email
 * `{role}@demo.lab`, with its `users/{uid}` record) or signed out (null), seeded with the projects,
 * the models and their files; download links are `http://files.test/{path}`.
 * @returns the backend with fault injection ({@link withFaults}) and its store
 */
export function createTestBackend(role: Role | null, seed: TestSeed = {}): TestBackend {
  const models = seed.models ?? [];
  const memory = createMemoryBackendAs(role, {
    uid: role ? `${role}-uid` : undefined,
    email: role ? `${role}@demo.lab` : undefined,
    documents: { projects: byId(seed.projects ?? []), models: byId(models) },
    files: { ...modelFiles(models), ...seed.files },
    downloadUrl: (file) => `${FILES_HOST}/${file.path}`,
  });
  return { ...withFaults(memory), store: memory.store };
}

/** Renders `children` at `path` (route pattern `pattern`) inside the app providers with `backend`; other paths show 'elsewhere'. */
export function MemoryApp({ backend, path, pattern, children }: { backend: Backend; path: string; pattern: string; children: ReactNode }) {
  return (
    <AppProvider
      backend={backend}
      config={{ viewerUrl: 'https://viewer.test', mapsApiKey: null, toolViewerUrls: { splatViewer: null, dualViewer: null } }}
    >
      <MemoryRouter initialEntries={[path]}>
        <Routes>
          <Route path={pattern} element={children} />
          <Route path="*" element={<p>elsewhere</p>} />
        </Routes>
      </MemoryRouter>
    </AppProvider>
  );
}
