/**
 * Test helper for component tests (not shipped): project and model records as the catalog stores
 * them, so that a test states only the fields it is about instead of re-declaring whole literals.
 */
import type { Model, Project } from '@shared/types.js';

/**
 * A project record: by default North Ridge Telecom Tower (structure ID TWR-001), id `p1`, slug
 * `twr`, an empty description, no reference model and no location.
 * @param fields fields that replace or add to the defaults
 * @returns a new record
 */
export function makeProject(fields: Partial<Project> = {}): Project {
  return { id: 'p1', name: 'North Ridge Telecom Tower', structure_id: 'TWR-001', description: '', slug: 'twr', ...fields };
}

/**
 * A model record with `id` as its id and its uuid and no files; nothing else (no project, no
 * metadata) unless `fields` gives it.
 * @param id the document id, also the uuid (so its files are under `models/{id}/`)
 * @param fields the Public ID and name, and any field that replaces or adds to the defaults
 * @returns a new record
 */
export function makeModel(id: string, fields: Pick<Model, 'publicId' | 'name'> & Partial<Model>): Model {
  return { id, uuid: id, files: {}, ...fields };
}
