/**
 * The landing page's demo scene: two small captures of a made-up lattice tower (2024 and 2025)
 * that ship with the portal as static files (portal/public/demo/, made by
 * scripts/make-demo-scene.mjs), not catalog data. The viewer shows them through a read-only
 * backend of their own, so the demo needs no sign-in and never reads the catalog: its two model
 * records and one project live here, its files are the static ones, and every write is refused.
 */
import { NO_SERVER_JOBS } from '@shared/adapters/common.js';
import { AppError, ErrorCode } from '@shared/errors.js';
import type { Backend, CatalogPort, FileStorePort, Query, WithId } from '@shared/ports/index.js';
import type { CollectionName, CollectionTypes, Model, Project } from '@shared/types.js';

/** The publicIds the demo opens: the later capture, and the earlier one as its reference. */
export const DEMO_SCENE = { capture: 'DEMO-TOWER-2025', reference: 'DEMO-TOWER-2024' } as const;

/** Storage paths of the demo files: served by the portal itself, under its base URL. */
const DEMO_FOLDER = 'demo/';

const PROJECT: Project = {
  id: 'demo-tower',
  name: 'Demo Lattice Tower',
  structure_id: 'DEMO-001',
  description: 'A generated lattice telecom tower, captured twice, to try the viewer without an account.',
  slug: 'demo-lattice-tower',
  reference_model_id: 'demo-tower-2024',
  location: null,
};

/** One capture of the demo tower (the splat's size is the shipped file's, for the info panel). */
function capture(year: 2024 | 2025, splatSize: number, reference: boolean): Model {
  return {
    id: `demo-tower-${year}`,
    uuid: `demo-tower-${year}`,
    publicId: `DEMO-TOWER-${year}`,
    name: `Demo Lattice Tower ${year}`,
    projectId: PROJECT.id,
    isReference: reference,
    modelType: 'splat',
    visible: true,
    files: { splatPath: `${DEMO_FOLDER}tower-${year}.spz`, splatSize },
    metadata: { captureDate: `${year}-06-01`, displayOrder: 0, annotationsCount: 0 },
  };
}

const DOCUMENTS: Partial<Record<CollectionName, ReadonlyArray<{ id: string }>>> = {
  projects: [PROJECT],
  models: [capture(2024, 68_954, true), capture(2025, 69_424, false)],
};

/** A dotted field of a document (`files.splatPath`). */
function fieldOf(doc: object, path: string): unknown {
  return path
    .split('.')
    .reduce<unknown>((value, key) => (value && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined), doc);
}

/** The demo documents of a collection that match `query` (equality filters, order, limit). */
function select<C extends CollectionName>(collection: C, query?: Query): WithId<CollectionTypes[C]>[] {
  let docs = [...(DOCUMENTS[collection] ?? [])];
  for (const [field, op, value] of query?.where ?? []) {
    docs = docs.filter((doc) => (fieldOf(doc, field) === value) === (op === '=='));
  }
  for (const [field, direction = 'asc'] of [...(query?.orderBy ?? [])].reverse()) {
    const sign = direction === 'asc' ? 1 : -1;
    docs.sort((a, b) => sign * String(fieldOf(a, field) ?? '').localeCompare(String(fieldOf(b, field) ?? '')));
  }
  return docs.slice(0, query?.limit ?? docs.length) as unknown as WithId<CollectionTypes[C]>[];
}

const readOnly = (): Promise<never> => Promise.reject(new AppError(ErrorCode.PermissionDenied, 'The demo scene is read-only.'));

const catalog: CatalogPort = {
  get: async (collection, id) => select(collection).find((doc) => doc.id === id) ?? null,
  query: async (collection, query) => select(collection, query),
  count: async (collection, query) => select(collection, query).length,
  add: readOnly,
  set: readOnly,
  update: readOnly,
  delete: readOnly,
  batch: readOnly,
  transaction: readOnly,
  projectSummaries: async () => [{ projectId: PROJECT.id, modelCount: 2, referenceThumbnailPath: null }],
  subscribeProjectSummaries: (onNext) => {
    queueMicrotask(() => onNext([{ projectId: PROJECT.id, modelCount: 2, referenceThumbnailPath: null }]));
    return () => undefined;
  },
  // nothing changes: the first answer is the only one
  subscribe: (collection, query, onNext) => {
    let active = true;
    queueMicrotask(() => active && onNext(select(collection, query ?? undefined)));
    return () => {
      active = false;
    };
  },
};

/**
 * The demo's file store: a demo file's link is its URL on the portal; nothing else is stored.
 * @param base the portal's base URL (`import.meta.env.BASE_URL`)
 */
function demoFiles(base: string): FileStorePort {
  const notFound = (path: string) => Promise.reject(new AppError(ErrorCode.ObjectNotFound, `No demo file at ${path}`));
  return {
    upload: readOnly,
    list: async () => ({ items: [], prefixes: [] }),
    getMetadata: notFound,
    delete: readOnly,
    getDownloadUrl: (path) => (path.startsWith(DEMO_FOLDER) && !path.includes('..') ? Promise.resolve(`${base}${path}`) : notFound(path)),
  };
}

/**
 * The read-only backend of the demo scene: the demo's records and static files. Identity and
 * capabilities are the app's (every backend has them; the demo uses neither); no server jobs.
 * @param app the app's backend, for its identity and capabilities
 * @param base the portal's base URL, ending in '/'
 */
export function createDemoBackend(app: Backend, base: string): Backend {
  return {
    kind: app.kind,
    identity: app.identity,
    catalog,
    files: demoFiles(base),
    jobs: NO_SERVER_JOBS,
    capabilities: { ...app.capabilities, fileStorage: true },
    close: async () => undefined,
  };
}
