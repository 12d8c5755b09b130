/**
 * The catalog's orderings and the sort options of the management lists. Every function
 * returns a new array and leaves its input untouched; ties keep a stable, deterministic order.
 */
import { toDate } from './format.js';
import type { ModelData, ProjectData } from './types.js';

/**
 * Natural, case- and accent-insensitive comparison in a fixed locale ('en'), so 'T2' < 'T10'
 * and results do not depend on the machine's locale.
 */
const naturalCollator = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });

/** Natural text comparison ('T2' before 'T10', case-insensitive). */
export function compareNatural(a: string, b: string): number {
  return naturalCollator.compare(a, b);
}

/**
 * Code-unit comparison, as the document database orders strings ('B' before 'a', 'M10' before 'M2').
 * @returns negative, zero or positive, for `Array.prototype.sort`
 */
export function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Compares two possibly missing values with `compare`; missing (null/undefined) sorts last. */
function missingLast<T>(a: T | null | undefined, b: T | null | undefined, compare: (x: T, y: T) => number): number {
  const aMissing = a === null || a === undefined;
  const bMissing = b === null || b === undefined;
  if (aMissing || bMissing) return aMissing === bMissing ? 0 : aMissing ? 1 : -1;
  return compare(a, b);
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value : null;
}

function time(value: unknown): number | null {
  return toDate(value)?.getTime() ?? null;
}

function finiteNumber(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

type WithOptionalId = { id?: string };

/** Last-resort tie-break: the document id, so equal keys keep one order everywhere. */
function byId(a: WithOptionalId, b: WithOptionalId): number {
  return compareCodeUnits(a.id ?? '', b.id ?? '');
}

// ---------------------------------------------------------------------------------------------
// Project detail
// ---------------------------------------------------------------------------------------------

type DetailSortable = Pick<ModelData, 'isReference' | 'metadata' | 'created_at' | 'name'> & WithOptionalId;

/**
 * The project-detail model order: the reference model first, then by
 * metadata.captureDate, then metadata.displayOrder, then created_at, then name, each ascending
 * (oldest first) with missing or unparseable values last.
 *
 * @param models the project's models
 * @param referenceModelId the project's reference_model_id; a model is the reference when its id
 *   equals it or when it has `isReference: true`
 * @returns a new, sorted array
 */
export function sortProjectDetailModels<T extends DetailSortable>(models: readonly T[], referenceModelId?: string | null): T[] {
  const isRef = (m: T) => m.isReference === true || (!!referenceModelId && m.id === referenceModelId);
  return [...models].sort(
    (a, b) =>
      Number(isRef(b)) - Number(isRef(a)) ||
      missingLast(time(a.metadata?.captureDate), time(b.metadata?.captureDate), (x, y) => x - y) ||
      missingLast(finiteNumber(a.metadata?.displayOrder), finiteNumber(b.metadata?.displayOrder), (x, y) => x - y) ||
      missingLast(time(a.created_at), time(b.created_at), (x, y) => x - y) ||
      missingLast(text(a.name), text(b.name), compareNatural) ||
      byId(a, b),
  );
}

// ---------------------------------------------------------------------------------------------
// Catalog orderings
// ---------------------------------------------------------------------------------------------

type ProjectSortable = Pick<ProjectData, 'structure_id' | 'name' | 'created_at'> & WithOptionalId;

/**
 * Projects by structure_id, natural order ('T2' before 'T10',
 * case-insensitive); projects without a structure_id last; ties by name, then id.
 */
export function sortProjectsByStructureId<T extends ProjectSortable>(projects: readonly T[]): T[] {
  return [...projects].sort(
    (a, b) =>
      missingLast(text(a.structure_id), text(b.structure_id), compareNatural) ||
      missingLast(text(a.name), text(b.name), compareNatural) ||
      byId(a, b),
  );
}

type ModelSortable = Pick<ModelData, 'publicId' | 'name' | 'created_at'> & WithOptionalId;

/**
 * Models by publicId ascending, in the document database's order:
 * plain code-unit comparison ('B' before 'a', 'M10' before 'M2'), as Firestore's orderBy does.
 * An empty or missing publicId sorts first, as the catalog port orders missing fields
 * (`shared/ports/catalog.ts` OrderClause). Ties by id.
 */
export function sortModelsByPublicId<T extends Pick<ModelData, 'publicId'> & WithOptionalId>(models: readonly T[]): T[] {
  return [...models].sort((a, b) => compareCodeUnits(a.publicId ?? '', b.publicId ?? '') || byId(a, b));
}

/** Newest first by created_at; missing dates last; ties by id. */
export function sortByCreatedAtDesc<T extends Pick<ModelData, 'created_at'> & WithOptionalId>(items: readonly T[]): T[] {
  return [...items].sort((a, b) => missingLast(time(a.created_at), time(b.created_at), (x, y) => y - x) || byId(a, b));
}

// ---------------------------------------------------------------------------------------------
// Management list sort options (ID, Name, Latest)
// ---------------------------------------------------------------------------------------------

/** Sort options of the project- and model-management lists. Default 'id'. */
export type ListSort = 'id' | 'name' | 'latest';

/**
 * The model-management list order: 'id' by publicId (natural), 'name' by name (natural),
 * 'latest' by created_at newest first. Missing values last; ties by id.
 */
export function sortModelsBy<T extends ModelSortable>(models: readonly T[], sort: ListSort = 'id'): T[] {
  return [...models].sort((a, b) => {
    if (sort === 'latest') return missingLast(time(a.created_at), time(b.created_at), (x, y) => y - x) || byId(a, b);
    const [first, second] = sort === 'name' ? (['name', 'publicId'] as const) : (['publicId', 'name'] as const);
    return (
      missingLast(text(a[first]), text(b[first]), compareNatural) ||
      missingLast(text(a[second]), text(b[second]), compareNatural) ||
      byId(a, b)
    );
  });
}

/**
 * The project-management list order: 'id' by structure_id (natural, the default), 'name' by
 * name (natural), 'latest' by created_at newest first. Missing values last; ties by id.
 */
export function sortProjectsBy<T extends ProjectSortable>(projects: readonly T[], sort: ListSort = 'id'): T[] {
  if (sort === 'id') return sortProjectsByStructureId(projects);
  return [...projects].sort((a, b) => {
    if (sort === 'latest') return missingLast(time(a.created_at), time(b.created_at), (x, y) => y - x) || byId(a, b);
    return (
      missingLast(text(a.name), text(b.name), compareNatural) ||
      missingLast(text(a.structure_id), text(b.structure_id), compareNatural) ||
      byId(a, b)
    );
  });
}
