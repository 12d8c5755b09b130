/**
 * Project rules: the badge by model count (multi-temporal / initial
 * assessment), Featured Projects, counts for the catalog home and the map, the description
 * preview, reference-model facts and the add-model and compare controls that depend on them.
 */
import {
  DESCRIPTION_PREVIEW_LENGTH,
  FEATURED_PROJECTS_MAX,
  FEATURED_PROJECTS_MIN_MODELS,
  INITIAL_ASSESSMENT_MODELS,
  MARKER_COLORS,
  MULTI_TEMPORAL_MIN_MODELS,
} from './constants.js';
import { projectHasModels } from './messages.js';
import { sortModelsByPublicId } from './order.js';
import type { ProjectSummary } from './ports/catalog.js';
import type { ModelData, ProjectData, ProjectLocation } from './types.js';

/**
 * A project's one-line label in pickers and tooltips (model list: filter, upload
 * panel, row title): 'TWR-001 — North Ridge Tower', or the name alone without a structure ID.
 */
export function projectLabel(project: Pick<ProjectData, 'name' | 'structure_id'>): string {
  return project.structure_id ? `${project.structure_id} — ${project.name}` : project.name;
}

/**
 * Model counts per project id, from the models the caller can see (a non-admin's exclude hidden
 * ones), for the project badge, the featured rule and the map stats.
 * @param models models with their projectId (those without one are not counted)
 * @returns project id → number of models
 */
export function countModelsByProject(models: readonly Pick<ModelData, 'projectId'>[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const model of models) {
    if (model.projectId) counts.set(model.projectId, (counts.get(model.projectId) ?? 0) + 1);
  }
  return counts;
}

/** Model counts per project id: a Map, a plain record, or a function. Missing ids count 0. */
export type ModelCounts = ReadonlyMap<string, number> | Readonly<Record<string, number>> | ((projectId: string) => number);

/** The number of models of `projectId` in `counts` (0 when unknown). */
export function modelCountOf(counts: ModelCounts, projectId: string): number {
  const n =
    typeof counts === 'function'
      ? counts(projectId)
      : counts instanceof Map
        ? counts.get(projectId)
        : (counts as Record<string, number>)[projectId];
  return typeof n === 'number' && Number.isFinite(n) && n > 0 ? n : 0;
}

/**
 * The project summaries ({@link ProjectSummary}) of `projects` from a list of models: what the
 * backends without a query language compute (the in-memory backend), and the rule the others
 * implement: a project's count is its models in `models`, and its reference thumbnail is
 * {@link thumbnailPathOf} of {@link findReferenceModel} among them in publicId order.
 * @param projects the projects the caller may read, with their ids
 * @param models the models the caller may read (hidden ones already left out for a non-admin)
 * @returns one summary per project, ordered by project id (code units)
 */
export function summarizeProjects(
  projects: readonly (Pick<ProjectData, 'reference_model_id'> & { id: string })[],
  models: readonly (Pick<ModelData, 'projectId' | 'isReference' | 'files' | 'publicId'> & { id: string })[],
): ProjectSummary[] {
  const byProject = new Map<string, (typeof models)[number][]>();
  for (const model of sortModelsByPublicId(models)) {
    if (typeof model.projectId !== 'string') continue;
    const list = byProject.get(model.projectId);
    if (list) list.push(model);
    else byProject.set(model.projectId, [model]);
  }
  return [...projects]
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .map((project) => {
      const own = byProject.get(project.id) ?? [];
      const reference = findReferenceModel(project, own);
      return { projectId: project.id, modelCount: own.length, referenceThumbnailPath: reference ? thumbnailPathOf(reference) : null };
    });
}

/**
 * Model counts per project id from project summaries, for {@link featuredProjects},
 * {@link catalogStats}, {@link mapStats} and the badges.
 * @param summaries the summaries the backend answered (`CatalogPort.projectSummaries`)
 * @returns project id → model count
 */
export function summaryCounts(summaries: readonly Pick<ProjectSummary, 'projectId' | 'modelCount'>[]): Map<string, number> {
  return new Map(summaries.map((s) => [s.projectId, s.modelCount]));
}

// ---------------------------------------------------------------------------------------------
// Project badge by model count
// ---------------------------------------------------------------------------------------------

/** The project badge, by model count. */
export type ProjectBadge = 'multi-temporal' | 'initial-assessment';

/** Display labels of the badges (as the map stat cards name them). */
export const PROJECT_BADGE_LABELS: Readonly<Record<ProjectBadge, string>> = {
  'multi-temporal': 'Multi-Temporal',
  'initial-assessment': 'Initial Assessment',
};

/**
 * The badge for a project with `modelCount` models: 2 or more is multi-temporal, exactly 1 is
 * initial assessment, 0 shows no badge (null).
 */
export function projectBadge(modelCount: number): ProjectBadge | null {
  if (modelCount >= MULTI_TEMPORAL_MIN_MODELS) return 'multi-temporal';
  if (modelCount === INITIAL_ASSESSMENT_MODELS) return 'initial-assessment';
  return null;
}

/** True when a project with `modelCount` models is multi-temporal (2 or more). */
export function isMultiTemporal(modelCount: number): boolean {
  return modelCount >= MULTI_TEMPORAL_MIN_MODELS;
}

/** The marker colour of a located project without models: neutral, neither badge's colour. */
export const NO_MODELS_MARKER_COLOR = 'grey';

/** A project marker's colour name: the two badge colours, or grey for no badge. */
export type ProjectMarkerColor = (typeof MARKER_COLORS)['multiTemporal' | 'initialAssessment'] | typeof NO_MODELS_MARKER_COLOR;

/**
 * The map marker colour of a project, following the badge exactly ({@link projectBadge}): 2 or
 * more models blue, exactly 1 green, 0 (no badge) grey — a project without models is not an
 * initial assessment, so the
 * marker, the map's stat cards ({@link mapStats}) and the project badge agree. `modelCount` is
 * the same count they use: the models the viewer can see ({@link countModelsByProject} of the
 * viewer's model list — hidden ones excluded for non-admins, included for admins, as project
 * detail lists them).
 * @param modelCount the project's model count (negative or non-finite counts as 0)
 * @returns 'blue' | 'green' | 'grey'
 */
export function projectMarkerColor(modelCount: number): ProjectMarkerColor {
  const badge = projectBadge(modelCount);
  if (badge === 'multi-temporal') return MARKER_COLORS.multiTemporal;
  return badge === 'initial-assessment' ? MARKER_COLORS.initialAssessment : NO_MODELS_MARKER_COLOR;
}

// ---------------------------------------------------------------------------------------------
// Catalog home
// ---------------------------------------------------------------------------------------------

/**
 * Featured Projects: the first 4 projects, in the given order, that have 2
 * or more models.
 * @param projects projects in display order (e.g. sorted by structure_id)
 * @param counts model counts per project id
 */
export function featuredProjects<T extends { id: string }>(projects: readonly T[], counts: ModelCounts): T[] {
  return projects.filter((p) => modelCountOf(counts, p.id) >= FEATURED_PROJECTS_MIN_MODELS).slice(0, FEATURED_PROJECTS_MAX);
}

/** Catalog home counts: Total Projects and Multi-Temporal Projects. */
export function catalogStats(
  projects: readonly { id: string }[],
  counts: ModelCounts,
): { totalProjects: number; multiTemporalProjects: number } {
  return {
    totalProjects: projects.length,
    multiTemporalProjects: projects.filter((p) => isMultiTemporal(modelCountOf(counts, p.id))).length,
  };
}

// ---------------------------------------------------------------------------------------------
// Project list
// ---------------------------------------------------------------------------------------------

/**
 * The description preview: the first 120 characters followed by '...' when
 * the text is longer; the text unchanged otherwise; '' for a missing description.
 * @param description the project's description
 * @param max characters kept (default 120)
 */
export function truncateDescription(description: string | null | undefined, max: number = DESCRIPTION_PREVIEW_LENGTH): string {
  const value = description ?? '';
  return value.length > max ? `${value.slice(0, max)}...` : value;
}

/** True when the project has a reference model (reference_model_id set). */
export function hasReferenceModel(project: Pick<ProjectData, 'reference_model_id'>): boolean {
  return typeof project.reference_model_id === 'string' && project.reference_model_id !== '';
}

/** The project-card badge: 'Has Reference' or 'No Reference'. */
export function referenceBadgeLabel(project: Pick<ProjectData, 'reference_model_id'>): 'Has Reference' | 'No Reference' {
  return hasReferenceModel(project) ? 'Has Reference' : 'No Reference';
}

/**
 * The project's reference model among `models`: the one whose id is the project's
 * reference_model_id, else one flagged `isReference`; null when none.
 */
export function findReferenceModel<T extends Pick<ModelData, 'isReference'> & { id: string }>(
  project: Pick<ProjectData, 'reference_model_id'>,
  models: readonly T[],
): T | null {
  if (hasReferenceModel(project)) {
    const byId = models.find((m) => m.id === project.reference_model_id);
    if (byId) return byId;
  }
  return models.find((m) => m.isReference === true) ?? null;
}

/** The thumbnail of a model (the first of files.thumbnails), as a storage path, or null. */
export function thumbnailPathOf(model: Pick<ModelData, 'files'>): string | null {
  const first = model.files?.thumbnails?.[0];
  return typeof first === 'string' && first !== '' ? first : null;
}

// ---------------------------------------------------------------------------------------------
// Project map
// ---------------------------------------------------------------------------------------------

/** A location with numeric lat and lng. */
export type MappedLocation = ProjectLocation & { lat: number; lng: number };

/** True when the project's location has numeric (finite) lat and lng. */
export function hasMapLocation<T extends Pick<ProjectData, 'location'>>(project: T): project is T & { location: MappedLocation } {
  const loc = project.location;
  return (
    loc !== null &&
    loc !== undefined &&
    typeof loc.lat === 'number' &&
    Number.isFinite(loc.lat) &&
    typeof loc.lng === 'number' &&
    Number.isFinite(loc.lng)
  );
}

/** The projects the map shows: those with numeric lat and lng, in input order. */
export function projectsOnMap<T extends Pick<ProjectData, 'location'>>(projects: readonly T[]): Array<T & { location: MappedLocation }> {
  return projects.filter(hasMapLocation);
}

/**
 * The three stat cards of the project map: Projects with Location, and among them
 * Multi-Temporal (2+ models) and Initial Assessment (exactly 1).
 */
export function mapStats(
  projects: readonly (Pick<ProjectData, 'location'> & { id: string })[],
  counts: ModelCounts,
): { withLocation: number; multiTemporal: number; initialAssessment: number } {
  const located = projectsOnMap(projects);
  const badges = located.map((p) => projectBadge(modelCountOf(counts, p.id)));
  return {
    withLocation: located.length,
    multiTemporal: badges.filter((b) => b === 'multi-temporal').length,
    initialAssessment: badges.filter((b) => b === 'initial-assessment').length,
  };
}

// ---------------------------------------------------------------------------------------------
// Project detail and Add model: the reference model on add, the delete guard
// ---------------------------------------------------------------------------------------------

/** The admin add-model link label: 'Add Reference Model' when the project has no models. */
export function addModelLinkLabel(modelCount: number): 'Add Reference Model' | 'Add Model' {
  return modelCount > 0 ? 'Add Model' : 'Add Reference Model';
}

/**
 * The 'Set as Reference Model' checkbox: disabled when the project already has a reference,
 * preselected when it has none.
 */
export function referenceCheckboxState(project: Pick<ProjectData, 'reference_model_id'>): { disabled: boolean; checked: boolean } {
  const has = hasReferenceModel(project);
  return { disabled: has, checked: !has };
}

/** Input of {@link compareButtonState}. */
export interface CompareButtonInput {
  /** The row's model is the project's reference. */
  isReference: boolean;
  /** The project has a reference model. */
  hasReference: boolean;
  /** The row's viewing link is ready. */
  modelLinkReady: boolean;
  /** The reference model's viewing link is ready. */
  referenceLinkReady: boolean;
}

/**
 * The Compare button of project detail: shown only for non-reference models when a reference
 * model exists; enabled only when both models' viewing links are ready.
 */
export function compareButtonState(input: CompareButtonInput): { visible: boolean; enabled: boolean } {
  const visible = !input.isReference && input.hasReference;
  return { visible, enabled: visible && input.modelLinkReady && input.referenceLinkReady };
}

/**
 * The delete guard: a project with associated models cannot be deleted.
 * @returns ok, or the catalogue's message 'Cannot delete this project because it has N associated
 *   models. Please delete these models first.'
 */
export function checkProjectDeletable(modelCount: number): { ok: true } | { ok: false; message: string } {
  return modelCount > 0 ? { ok: false, message: projectHasModels(modelCount) } : { ok: true };
}
