import { describe, expect, it } from 'vitest';
import {
  matchesProjectSearch,
  searchFileEntries,
  searchModels,
  searchModelsWithProjects,
  searchProjects,
  searchProjectsForManagement,
} from '@shared/search.js';
import type { Project } from '@shared/types.js';

const projects: Project[] = [
  { id: '1', name: 'North Tower', structure_id: 'TWR-001', description: 'Lattice tower by the river', slug: 'north-tower' },
  { id: '2', name: 'South Bridge', structure_id: 'BRG-007', description: 'Steel girder corrosion survey', slug: 'south-bridge' },
  { id: '3', name: 'Depot', structure_id: '', description: '', slug: 'main-depot' },
];

describe('search: case-insensitive substring on structure_id, name, description', () => {
  it('matches each field case-insensitively', () => {
    expect(searchProjects(projects, 'twr').map((p) => p.id)).toEqual(['1']);
    expect(searchProjects(projects, 'BRIDGE').map((p) => p.id)).toEqual(['2']);
    expect(searchProjects(projects, 'corrosion').map((p) => p.id)).toEqual(['2']);
    expect(searchProjects(projects, 'o').map((p) => p.id)).toEqual(['1', '2', '3']);
  });

  it('empty (or blank) term matches all', () => {
    expect(searchProjects(projects, '')).toHaveLength(3);
    expect(searchProjects(projects, '   ')).toHaveLength(3);
    expect(searchProjects(projects, undefined)).toHaveLength(3);
  });

  it('does not search the slug in the catalog search', () => {
    expect(searchProjects(projects, 'main-depot')).toEqual([]);
    expect(matchesProjectSearch(projects[0]!, 'nothing')).toBe(false);
  });

  it('project management also searches the slug, not the description', () => {
    expect(searchProjectsForManagement(projects, 'MAIN-DEP').map((p) => p.id)).toEqual(['3']);
    expect(searchProjectsForManagement(projects, 'river')).toEqual([]);
  });

  it('model management searches publicId and name; the files table the path', () => {
    const models = [
      { publicId: 'TWR-001-2024', name: 'Spring flight' },
      { publicId: 'BRG-007-2023', name: 'Autumn' },
    ];
    expect(searchModels(models, 'spring')).toEqual([models[0]]);
    expect(searchModels(models, 'brg')).toEqual([models[1]]);
    const files = [{ path: 'models/u/images/IMG_001.jpg' }, { path: 'models/u/assets/report.pdf' }];
    expect(searchFileEntries(files, 'img_')).toEqual([files[0]]);
  });
});

describe("the model list's search: publicId, name, project name or structure ID; one project", () => {
  const list = [
    { publicId: 'TWR-2024', name: 'Spring survey', projectId: '1' },
    { publicId: 'BRG-2025', name: 'Deck scan', projectId: '2' },
    { publicId: 'X-1', name: 'Loose model', projectId: null },
  ];
  const projectOf = (id: string) => projects.find((p) => p.id === id);
  it('matches the model and its project, case-insensitively; blank matches all', () => {
    expect(searchModelsWithProjects(list, '', projectOf)).toEqual(list);
    expect(searchModelsWithProjects(list, 'deck', projectOf)).toEqual([list[1]]);
    expect(searchModelsWithProjects(list, 'twr-2024', projectOf)).toEqual([list[0]]);
    expect(searchModelsWithProjects(list, 'south bridge', projectOf)).toEqual([list[1]]);
    expect(searchModelsWithProjects(list, 'TWR-001', projectOf)).toEqual([list[0]]);
    expect(searchModelsWithProjects(list, 'loose', projectOf)).toEqual([list[2]]);
  });
  it('keeps only the chosen project when one is given', () => {
    expect(searchModelsWithProjects(list, '', projectOf, '2')).toEqual([list[1]]);
    expect(searchModelsWithProjects(list, 'spring', projectOf, '2')).toEqual([]);
    expect(searchModelsWithProjects(list, '', projectOf, null)).toEqual(list);
  });
});
