import { describe, expect, it } from 'vitest';
import {
  countModelsByProject,
  PROJECT_BADGE_LABELS,
  addModelLinkLabel,
  catalogStats,
  checkProjectDeletable,
  compareButtonState,
  featuredProjects,
  findReferenceModel,
  hasMapLocation,
  mapStats,
  projectBadge,
  projectMarkerColor,
  projectsOnMap,
  referenceBadgeLabel,
  referenceCheckboxState,
  summarizeProjects,
  summaryCounts,
  thumbnailPathOf,
  truncateDescription,
} from '@shared/projects.js';
import type { Project } from '@shared/types.js';

function project(id: string, extra: Partial<Project> = {}): Project {
  return { id, name: id, structure_id: id, description: '', slug: id, ...extra };
}

describe('project badge by model count', () => {
  it('2 or more is multi-temporal, exactly 1 initial assessment, 0 none', () => {
    expect(projectBadge(5)).toBe('multi-temporal');
    expect(projectBadge(2)).toBe('multi-temporal');
    expect(projectBadge(1)).toBe('initial-assessment');
    expect(projectBadge(0)).toBeNull();
    expect(PROJECT_BADGE_LABELS['multi-temporal']).toBe('Multi-Temporal');
    expect(PROJECT_BADGE_LABELS['initial-assessment']).toBe('Initial Assessment');
  });

  it('marker colours: blue multi-temporal, green initial assessment', () => {
    expect(projectMarkerColor(3)).toBe('blue');
    expect(projectMarkerColor(1)).toBe('green');
  });
});

describe('Featured Projects and catalog counts', () => {
  const projects = ['a', 'b', 'c', 'd', 'e', 'f', 'g'].map((id) => project(id));
  const counts = { a: 2, b: 1, c: 3, d: 0, e: 2, f: 4, g: 9 };

  it('takes at most 4, in order, from projects with 2 or more models', () => {
    expect(featuredProjects(projects, counts).map((p) => p.id)).toEqual(['a', 'c', 'e', 'f']);
    expect(
      featuredProjects(
        projects,
        new Map([
          ['b', 1],
          ['d', 2],
        ]),
      ).map((p) => p.id),
    ).toEqual(['d']);
    expect(featuredProjects(projects, () => 0)).toEqual([]);
  });

  it('counts Total Projects and Multi-Temporal Projects', () => {
    expect(catalogStats(projects, counts)).toEqual({ totalProjects: 7, multiTemporalProjects: 5 });
  });
});

describe('description preview (120 characters plus ...)', () => {
  it("cuts only when longer than 120 characters, adding '...'", () => {
    const exact = 'x'.repeat(120);
    expect(truncateDescription(exact)).toBe(exact);
    expect(truncateDescription(`${exact}y`)).toBe(`${exact}...`);
    expect(truncateDescription('short')).toBe('short');
    expect(truncateDescription(null)).toBe('');
  });
});

describe('reference model facts', () => {
  it("labels cards 'Has Reference' / 'No Reference'", () => {
    expect(referenceBadgeLabel(project('p', { reference_model_id: 'm1' }))).toBe('Has Reference');
    expect(referenceBadgeLabel(project('p', { reference_model_id: null }))).toBe('No Reference');
    expect(referenceBadgeLabel(project('p'))).toBe('No Reference');
  });

  it('finds the reference model by reference_model_id, else by isReference', () => {
    const models = [{ id: 'm1' }, { id: 'm2', isReference: true }];
    expect(findReferenceModel(project('p', { reference_model_id: 'm1' }), models)?.id).toBe('m1');
    expect(findReferenceModel(project('p'), models)?.id).toBe('m2');
    expect(findReferenceModel(project('p'), [{ id: 'x' }])).toBeNull();
  });

  it('takes the first thumbnail as the thumbnail', () => {
    expect(thumbnailPathOf({ files: { thumbnails: ['models/u/images_thumbnails/a.jpg', 'b'] } })).toBe('models/u/images_thumbnails/a.jpg');
    expect(thumbnailPathOf({ files: {} })).toBeNull();
  });

  it("reads 'Add Reference Model' when the project has no models", () => {
    expect(addModelLinkLabel(0)).toBe('Add Reference Model');
    expect(addModelLinkLabel(1)).toBe('Add Model');
  });

  it('disables the reference checkbox when a reference exists and preselects it when none does', () => {
    expect(referenceCheckboxState(project('p', { reference_model_id: 'm' }))).toEqual({ disabled: true, checked: false });
    expect(referenceCheckboxState(project('p'))).toEqual({ disabled: false, checked: true });
  });

  it('shows Compare only for non-reference models with a reference, enabled when both links are ready', () => {
    const base = { isReference: false, hasReference: true, modelLinkReady: true, referenceLinkReady: true };
    expect(compareButtonState(base)).toEqual({ visible: true, enabled: true });
    expect(compareButtonState({ ...base, referenceLinkReady: false })).toEqual({ visible: true, enabled: false });
    expect(compareButtonState({ ...base, modelLinkReady: false })).toEqual({ visible: true, enabled: false });
    expect(compareButtonState({ ...base, isReference: true })).toEqual({ visible: false, enabled: false });
    expect(compareButtonState({ ...base, hasReference: false })).toEqual({ visible: false, enabled: false });
  });

  it('refuses to delete a project with models, with the spec message', () => {
    expect(checkProjectDeletable(0)).toEqual({ ok: true });
    expect(checkProjectDeletable(3)).toEqual({
      ok: false,
      message: 'Cannot delete this project because it has 3 associated models. Please delete these models first.',
    });
  });
});

describe('map (only numeric lat and lng)', () => {
  const projects = [
    project('ok', { location: { lat: 43.47, lng: -80.54 } }),
    project('zero', { location: { lat: 0, lng: 0 } }),
    project('null', { location: { lat: null, lng: -80 } }),
    project('text', { location: { lat: '43' as unknown as number, lng: -80 } }),
    project('nan', { location: { lat: Number.NaN, lng: 1 } }),
    project('none'),
  ];

  it('keeps only projects with numeric lat and lng', () => {
    expect(projectsOnMap(projects).map((p) => p.id)).toEqual(['ok', 'zero']);
    expect(hasMapLocation(project('x', { location: null }))).toBe(false);
  });

  it('counts Projects with Location, Multi-Temporal and Initial Assessment among them', () => {
    expect(mapStats(projects, { ok: 2, zero: 1, null: 5 })).toEqual({ withLocation: 2, multiTemporal: 1, initialAssessment: 1 });
  });
});

describe('countModelsByProject', () => {
  it('counts the models of each project and ignores models without one', () => {
    const counts = countModelsByProject([{ projectId: 'a' }, { projectId: 'b' }, { projectId: 'a' }, { projectId: '' }]);
    expect([...counts]).toEqual([
      ['a', 2],
      ['b', 1],
    ]);
  });
});

describe('project summaries (the counts and reference thumbnails of the project screens)', () => {
  const model = (id: string, projectId: string | null, publicId: string, extra: Record<string, unknown> = {}) => ({
    id,
    projectId,
    publicId,
    files: { thumbnails: [`models/${id}/images_thumbnails/t.png`] },
    ...extra,
  });

  it("counts each project's models, takes the named reference's first thumbnail, else the first flagged model's by publicId", () => {
    const summaries = summarizeProjects(
      [project('b', { reference_model_id: 'named' }), project('a'), project('c'), project('d', { reference_model_id: 'elsewhere' })],
      [
        model('named', 'b', 'B-2', { files: { thumbnails: [] } }),
        model('flagged-b', 'b', 'B-1', { isReference: true }),
        model('late', 'a', 'A-9', { isReference: true }),
        model('early', 'a', 'A-1', { isReference: true }),
        model('elsewhere', 'x', 'X-1'),
        model('loose', null, 'N-1'),
      ],
    );
    expect(summaries).toEqual([
      { projectId: 'a', modelCount: 2, referenceThumbnailPath: 'models/early/images_thumbnails/t.png' },
      // the named reference wins even without a thumbnail
      { projectId: 'b', modelCount: 2, referenceThumbnailPath: null },
      { projectId: 'c', modelCount: 0, referenceThumbnailPath: null },
      // a reference_model_id naming another project's model is not the reference
      { projectId: 'd', modelCount: 0, referenceThumbnailPath: null },
    ]);
    expect(summaryCounts(summaries)).toEqual(
      new Map([
        ['a', 2],
        ['b', 2],
        ['c', 0],
        ['d', 0],
      ]),
    );
  });
});
