/**
 * Test helper for component tests (not shipped): an in-memory stand-in for the backend ports the
 * browsing screens read (identity state, live `subscribe`, `get`, download links), with
 * controllable collections so a test can show the loading, empty, error and live states. Like the
 * real backends it hides hidden models from non-admins (shared `visibleModelsFor`); it does not
 * order (the screens' hooks sort with shared/order). Only what the screens call is implemented;
 * anything else throws.
 */
import type { ReactNode } from 'react';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import type { AuthUser, Backend } from '@shared/ports/index.js';
import { visibleModelsFor } from '@shared/roles.js';
import type { Model, Role } from '@shared/types.js';
import { AppProvider } from '../../app/provider.js';

type Docs = Array<object & { id: string }>;
type Listener = { where?: Array<[string, string, unknown]>; onNext: (docs: Docs) => void; onError?: (error: Error) => void };

export interface StubBackend {
  backend: Backend;
  /** Replace a collection's documents (null: not yet loaded) and notify live listeners. */
  setDocs: (collection: 'projects' | 'models', docs: Docs | null) => void;
  /** Fail the live listeners of a collection, and every later subscriber until the next setDocs (so a test need not race the subscribing effect). */
  fail: (collection: 'projects' | 'models', error: Error) => void;
  /** Paths whose download link fails (the rest resolve to `http://files.test/{path}`). */
  failingLinks: Set<string>;
}

/** A stub signed in as `role` (null: signed out). Collections start empty unless given. */
export function createStubBackend(role: Role | null, initial: { projects?: Docs | null; models?: Docs | null } = {}): StubBackend {
  const user: AuthUser | null = role ? { uid: `${role}-uid`, email: `${role}@demo.lab` } : null;
  const data: Record<string, Docs | null> = { projects: initial.projects === undefined ? [] : initial.projects, models: initial.models === undefined ? [] : initial.models };
  const listeners: Record<string, Set<Listener>> = { projects: new Set(), models: new Set() };
  /** A failed collection stays failed for later subscribers too (as a denied Firestore query does), until setDocs. */
  const failures: Record<string, Error | undefined> = {};
  const failingLinks = new Set<string>();
  /** What the caller may read (the port hides hidden models from non-admins, §6), then the query's filters. */
  const readable = (collection: string, docs: Docs, where?: Array<[string, string, unknown]>): Docs => {
    const visible: Docs = collection === 'models' ? visibleModelsFor(role, docs as Array<Model & { id: string }>) : docs;
    return visible.filter((d) =>
      (where ?? []).every(([field, op, value]) => {
        const actual = (d as Record<string, unknown>)[field];
        return op === '==' ? actual === value : actual !== value;
      }),
    );
  };
  const notify = (collection: string) => {
    const docs = data[collection];
    if (docs === null || docs === undefined) return;
    for (const l of listeners[collection] ?? []) l.onNext(readable(collection, docs, l.where));
  };
  const unsupported = () => {
    throw new Error('not implemented by the stub backend');
  };
  const backend = {
    kind: 'local',
    capabilities: { lookupUsers: false, atomicBatches: true, resumableUploads: false, fileStorage: true },
    close: async () => undefined,
    identity: {
      onAuthStateChanged(listener: (u: AuthUser | null) => void) {
        queueMicrotask(() => listener(user));
        return () => undefined;
      },
      currentUser: () => user,
      signIn: unsupported,
      signOut: async () => undefined,
      createAccount: unsupported,
    },
    catalog: {
      async get(collection: string, id: string) {
        if (collection === 'users') return user && id === user.uid ? { id, uid: id, email: user.email, role } : null;
        if (collection === 'admins') return null;
        return readable(collection, data[collection] ?? []).find((d) => d.id === id) ?? null;
      },
      async query(collection: string, query?: { where?: Array<[string, string, unknown]> }) {
        return readable(collection, data[collection] ?? [], query?.where);
      },
      subscribe(collection: string, query: { where?: Array<[string, string, unknown]> } | undefined, onNext: (docs: Docs) => void, onError?: (e: Error) => void) {
        const listener: Listener = { where: query?.where, onNext, onError };
        listeners[collection]?.add(listener);
        const docs = data[collection];
        const failure = failures[collection];
        if (failure) queueMicrotask(() => onError?.(failure));
        else if (docs !== null && docs !== undefined) queueMicrotask(() => onNext(readable(collection, docs, query?.where)));
        return () => listeners[collection]?.delete(listener);
      },
      count: unsupported,
      add: unsupported,
      set: unsupported,
      update: unsupported,
      delete: unsupported,
      batch: unsupported,
    },
    files: {
      async getDownloadUrl(path: string) {
        if (failingLinks.has(path)) throw new Error(`no link for ${path}`);
        return `http://files.test/${path}`;
      },
      upload: unsupported,
      list: unsupported,
      getMetadata: unsupported,
      delete: unsupported,
    },
  } as unknown as Backend;
  return {
    backend,
    failingLinks,
    setDocs(collection, docs) {
      failures[collection] = undefined;
      data[collection] = docs;
      notify(collection);
    },
    fail(collection, error) {
      failures[collection] = error;
      for (const l of listeners[collection] ?? []) l.onError?.(error);
    },
  };
}

/** Renders `element` at `path` (pattern `pattern`) inside the app providers with the stub backend. */
export function StubApp({ stub, path, pattern, children }: { stub: StubBackend; path: string; pattern: string; children: ReactNode }) {
  return (
    <AppProvider backend={stub.backend} config={{ viewerUrl: 'https://viewer.test', mapsApiKey: null, toolViewerUrls: { splatViewer: null, dualViewer: null } }}>
      <MemoryRouter initialEntries={[path]}>
        <Routes>
          <Route path={pattern} element={children} />
          <Route path="*" element={<p>elsewhere</p>} />
        </Routes>
      </MemoryRouter>
    </AppProvider>
  );
}
