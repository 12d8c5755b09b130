/**
 * Search: the catalog search is a case-insensitive substring match on structure_id, name and
 * description; the searchable lists match their own fields (project management: name, structure id,
 * slug; model management: publicId, name; the files table: path; model list: publicId, name, and
 * the model's project's name and structure ID). An empty or blank term matches all. Filters return
 * a new array in the input's order.
 */
import type { FileEntry, ModelData, ProjectData } from './types.js';

/** The term as matched: trimmed and lower-cased; '' means "match everything". */
export function normaliseSearchTerm(term: string | null | undefined): string {
  return (term ?? '').trim().toLowerCase();
}

/**
 * True when any of `fields` contains `term` (case-insensitive substring). Non-string fields
 * never match; a blank term matches everything.
 */
export function matchesAny(fields: readonly unknown[], term: string | null | undefined): boolean {
  const needle = normaliseSearchTerm(term);
  if (needle === '') return true;
  return fields.some((field) => typeof field === 'string' && field.toLowerCase().includes(needle));
}

type CatalogSearchable = Pick<ProjectData, 'structure_id' | 'name' | 'description'>;

/** Catalog search: structure_id, name or description contains the term (case-insensitive). */
export function matchesProjectSearch(project: CatalogSearchable, term: string | null | undefined): boolean {
  return matchesAny([project.structure_id, project.name, project.description], term);
}

/** The projects matching the catalog search (catalog home, project list), in input order. */
export function searchProjects<T extends CatalogSearchable>(projects: readonly T[], term: string | null | undefined): T[] {
  return projects.filter((p) => matchesProjectSearch(p, term));
}

type ManagementSearchable = Pick<ProjectData, 'structure_id' | 'name' | 'slug'>;

/** Project-management list search: name, structure id or slug contains the term. */
export function searchProjectsForManagement<T extends ManagementSearchable>(projects: readonly T[], term: string | null | undefined): T[] {
  return projects.filter((p) => matchesAny([p.name, p.structure_id, p.slug], term));
}

/** Model-management list search: publicId or name contains the term. */
export function searchModels<T extends Pick<ModelData, 'publicId' | 'name'>>(models: readonly T[], term: string | null | undefined): T[] {
  return models.filter((m) => matchesAny([m.publicId, m.name], term));
}

/**
 * The model list's search: publicId or name of the model, or name or structure ID of
 * its project, contains the term (case-insensitive); optionally only the models of one project.
 * @param models the models, in display order
 * @param term the search box's text (blank: no search)
 * @param projectOf the project of a projectId (undefined when unknown: only the model's own fields match)
 * @param projectId when a string, only models whose projectId is exactly it; null or undefined: every project
 * @returns the matching models, in input order
 */
export function searchModelsWithProjects<T extends Pick<ModelData, 'publicId' | 'name' | 'projectId'>>(
  models: readonly T[],
  term: string | null | undefined,
  projectOf: (projectId: string) => Pick<ProjectData, 'name' | 'structure_id'> | undefined,
  projectId?: string | null,
): T[] {
  return models.filter((m) => {
    if (typeof projectId === 'string' && m.projectId !== projectId) return false;
    const project = typeof m.projectId === 'string' ? projectOf(m.projectId) : undefined;
    return matchesAny([m.publicId, m.name, project?.name, project?.structure_id], term);
  });
}

/** Files-table search: the storage path contains the term. */
export function searchFileEntries<T extends Pick<FileEntry, 'path'>>(entries: readonly T[], term: string | null | undefined): T[] {
  return entries.filter((e) => matchesAny([e.path], term));
}
