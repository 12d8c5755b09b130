/**
 * What the adapters share that needs no SDK: the Firestore value conversions of the
 * two Firebase adapters (the portal's web SDK one and the CLI's firebase-admin one) with the SDK's
 * own pieces passed in (its server-time transform, its timestamp test), the checked parts of a
 * port query both turn into SDK calls, the listener types of `subscribe`, and the assembly of a
 * {@link Backend} from its ports. Firebase imports stay in the adapters (ESLint forbids them here).
 */
import { AppError, ErrorCode } from '../errors.js';
import { validateDocumentData, validateFieldPath, validateUpdateData } from '../field-path.js';
import type { ToDateLike } from '../format.js';
import type { FilterValue, Query, WithId } from '../ports/catalog.js';
import { isServerTimestamp } from '../ports/catalog.js';
import type { Backend, BackendCapabilities, ServerJobsPort } from '../ports/index.js';
import type { CollectionName, CollectionTypes } from '../types.js';

/** `subscribe`'s result listener: the query's documents, each time they change. */
export type DocsListener<C extends CollectionName> = (docs: WithId<CollectionTypes[C]>[]) => void;

/** `subscribe`'s error listener: the subscription has ended. */
export type ErrorListener = (error: Error) => void;

/** True for a plain object (`{…}`, not an array, a Date, a class instance or null). */
function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value) && Object.getPrototypeOf(value) === Object.prototype;
}

/**
 * Write data for a Firestore SDK: checked by the shared rule (`shared/field-path.ts`: no
 * `__proto__`, `constructor` or `prototype` key or path segment, nesting bounded), then every
 * SERVER_TIMESTAMP sentinel in plain objects (any depth) replaced by the SDK's server-time transform;
 * arrays and other values are kept as they are.
 * @param data write data of a port call
 * @param kind 'update' when the keys are field paths (`update`, a batch's update op), else 'document'
 * @param serverTimestamp makes the SDK's transform (`serverTimestamp()`, `FieldValue.serverTimestamp()`)
 * @returns a new object for the SDK
 * @throws AppError `invalid-argument` (the shared rule's message)
 */
export function toFirestoreData(
  data: Record<string, unknown>,
  kind: 'document' | 'update',
  serverTimestamp: () => unknown,
): Record<string, unknown> {
  if (kind === 'update') validateUpdateData(data);
  else validateDocumentData(data);
  const convert = (values: Record<string, unknown>): Record<string, unknown> => {
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(values)) {
      out[key] = isServerTimestamp(value) ? serverTimestamp() : isPlainObject(value) ? convert(value) : value;
    }
    return out;
  };
  return convert(data);
}

/**
 * Read data of a Firestore SDK in the ports' form: every Timestamp (any depth, arrays included)
 * becomes its ISO 8601 string; everything else is copied as it is.
 * @param value `snapshot.data()` or any value in it
 * @param isTimestamp tells the SDK's Timestamps apart (`instanceof Timestamp`, or a `toDate` test
 *   when several copies of the SDK may be loaded)
 * @returns a new value
 */
export function fromFirestoreData(value: unknown, isTimestamp: (value: unknown) => value is ToDateLike): unknown {
  if (isTimestamp(value)) return value.toDate().toISOString();
  if (Array.isArray(value)) return value.map((item) => fromFirestoreData(item, isTimestamp));
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(value)) out[key] = fromFirestoreData(inner, isTimestamp);
    return out;
  }
  return value;
}

/** A port query's parts, checked, in the order an SDK query applies them. */
export interface CheckedQuery {
  where: Array<[field: string, op: '==' | '!=', value: FilterValue]>;
  orderBy: Array<[field: string, direction: 'asc' | 'desc']>;
  /** A whole number ≥ 1, or undefined for no limit. */
  limit: number | undefined;
}

/**
 * Checks a port query for an SDK: each field path by the shared rule, the limit a whole number
 * of at least 1; an ordering without a direction is ascending.
 * @param query the port query; undefined means the whole collection
 * @returns its filters, orderings and limit
 * @throws AppError `invalid-argument` (a field path that is not dotted identifiers, `Invalid limit …`)
 */
export function checkQuery(query: Query | undefined): CheckedQuery {
  type Where = CheckedQuery['where'][number];
  type OrderBy = CheckedQuery['orderBy'][number];
  const where = (query?.where ?? []).map(([field, op, value]): Where => [validateFieldPath(field), op, value]);
  const orderBy = (query?.orderBy ?? []).map(([field, direction]): OrderBy => [validateFieldPath(field), direction ?? 'asc']);
  const limit = query?.limit;
  if (limit !== undefined && (!Number.isInteger(limit) || limit < 1)) {
    throw new AppError(ErrorCode.InvalidArgument, `Invalid limit ${limit}`);
  }
  return { where, orderBy, limit };
}

/**
 * The server-jobs port of a backend without a server of this product (Firebase, the in-memory
 * backend): no server computes anything by itself, so every job reads as null; there a change map
 * is computed by `catalog models changes`.
 */
export const NO_SERVER_JOBS: ServerJobsPort = Object.freeze({
  changeMapJob: async () => null,
  subscribeChangeMapJob: (_modelId: string, onNext: (job: null) => void) => {
    let stopped = false;
    // as a live subscription does: the first value comes after the call returns
    void Promise.resolve().then(() => {
      if (!stopped) onNext(null);
    });
    return () => {
      stopped = true;
    };
  },
});

/**
 * A {@link Backend} from its ports (adapters as factories).
 * @param kind the backend's short name
 * @param ports its identity, catalog and file-store ports, and its server jobs (default
 *   {@link NO_SERVER_JOBS}: a backend without a server of this product)
 * @param capabilities what it can do
 * @param close releases its connections and listeners
 */
export function assembleBackend(
  kind: Backend['kind'],
  ports: Pick<Backend, 'identity' | 'catalog' | 'files'> & { jobs?: ServerJobsPort },
  capabilities: BackendCapabilities,
  close: () => Promise<void>,
): Backend {
  return {
    kind,
    identity: ports.identity,
    catalog: ports.catalog,
    files: ports.files,
    jobs: ports.jobs ?? NO_SERVER_JOBS,
    capabilities,
    close,
  };
}
