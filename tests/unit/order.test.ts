import { describe, expect, it } from 'vitest';
import {
  compareNatural,
  sortByCreatedAtDesc,
  sortModelsBy,
  sortModelsByPublicId,
  sortProjectDetailModels,
  sortProjectsBy,
  sortProjectsByStructureId,
} from '@shared/order.js';
import type { Model, Project } from '@shared/types.js';

function model(id: string, extra: Partial<Model> = {}): Model {
  return { id, uuid: id, publicId: id, name: id, files: {}, ...extra };
}

function project(id: string, extra: Partial<Project> = {}): Project {
  return { id, name: id, structure_id: '', description: '', slug: id, ...extra };
}

const ids = (list: { id: string }[]) => list.map((x) => x.id);

describe('sortProjectDetailModels (reference, captureDate, displayOrder, created_at, name)', () => {
  it('puts the reference model first, by isReference or by the project reference_model_id', () => {
    const models = [model('a', { metadata: { captureDate: '2020-01-01' } }), model('ref', { isReference: true })];
    expect(ids(sortProjectDetailModels(models))).toEqual(['ref', 'a']);
    const byProject = [model('a', { metadata: { captureDate: '2020-01-01' } }), model('r')];
    expect(ids(sortProjectDetailModels(byProject, 'r'))).toEqual(['r', 'a']);
  });

  it('then orders by captureDate ascending, missing last', () => {
    const models = [
      model('none'),
      model('2024', { metadata: { captureDate: '2024-05-01' } }),
      model('2022', { metadata: { captureDate: '2022-05-01' } }),
      model('ts', { metadata: { captureDate: '2023-01-01T10:00:00Z' } }),
    ];
    expect(ids(sortProjectDetailModels(models))).toEqual(['2022', 'ts', '2024', 'none']);
  });

  it('then by displayOrder, then created_at, then name; missing values last', () => {
    const date = { captureDate: '2024-01-01' };
    const models = [
      model('n-b', { name: 'b', metadata: { ...date, displayOrder: 1 }, created_at: '2024-01-02T00:00:00Z' }),
      model('n-a', { name: 'a', metadata: { ...date, displayOrder: 1 }, created_at: '2024-01-02T00:00:00Z' }),
      model('early', { name: 'z', metadata: { ...date, displayOrder: 1 }, created_at: '2024-01-01T00:00:00Z' }),
      model('no-created', { name: 'a', metadata: { ...date, displayOrder: 1 } }),
      model('order0', { name: 'z', metadata: { ...date, displayOrder: 0 } }),
      model('no-order', { name: 'a', metadata: { ...date } }),
    ];
    expect(ids(sortProjectDetailModels(models))).toEqual(['order0', 'early', 'n-a', 'n-b', 'no-created', 'no-order']);
  });

  it('treats an unparseable captureDate as missing and does not mutate its input', () => {
    const models = [model('bad', { metadata: { captureDate: 'soon' } }), model('ok', { metadata: { captureDate: '2021-01-01' } })];
    const copy = [...models];
    expect(ids(sortProjectDetailModels(models))).toEqual(['ok', 'bad']);
    expect(models).toEqual(copy);
  });
});

describe('projects by structure_id (natural order)', () => {
  it('orders naturally and case-insensitively, missing structure ids last', () => {
    const projects = [
      project('p10', { structure_id: 'T10' }),
      project('none'),
      project('p2', { structure_id: 't2' }),
      project('p1', { structure_id: 'T1' }),
      project('a', { structure_id: 'A-7' }),
    ];
    expect(ids(sortProjectsByStructureId(projects))).toEqual(['a', 'p1', 'p2', 'p10', 'none']);
  });

  it('compareNatural puts 2 before 10', () => {
    expect(compareNatural('Tower 2', 'Tower 10')).toBeLessThan(0);
    expect(compareNatural('abc', 'ABC')).toBe(0);
  });
});

describe('models by publicId ascending', () => {
  it('uses the database order (code units)', () => {
    const models = [model('x', { publicId: 'M2' }), model('y', { publicId: 'M10' }), model('z', { publicId: 'B1' })];
    expect(sortModelsByPublicId(models).map((m) => m.publicId)).toEqual(['B1', 'M10', 'M2']);
  });
});

describe('created_at descending (newest first)', () => {
  it('puts the newest first and missing dates last', () => {
    const list = [
      model('old', { created_at: '2020-01-01T00:00:00Z' }),
      model('none'),
      model('new', { created_at: '2025-01-01T00:00:00Z' }),
    ];
    expect(ids(sortByCreatedAtDesc(list))).toEqual(['new', 'old', 'none']);
  });
});

describe('management list sorts (ID, Name, Latest; default ID)', () => {
  const models = [
    model('1', { publicId: 'M10', name: 'alpha', created_at: '2024-01-01T00:00:00Z' }),
    model('2', { publicId: 'M2', name: 'Charlie', created_at: '2025-01-01T00:00:00Z' }),
    model('3', { publicId: 'M1', name: 'bravo' }),
  ];
  it('sorts models by id (natural), name and latest', () => {
    expect(ids(sortModelsBy(models))).toEqual(['3', '2', '1']);
    expect(ids(sortModelsBy(models, 'name'))).toEqual(['1', '3', '2']);
    expect(ids(sortModelsBy(models, 'latest'))).toEqual(['2', '1', '3']);
  });

  const projects = [
    project('a', { structure_id: 'S10', name: 'Zulu', created_at: '2023-01-01T00:00:00Z' }),
    project('b', { structure_id: 'S9', name: 'alpha', created_at: '2025-01-01T00:00:00Z' }),
  ];
  it('sorts projects by structure id (default), name and latest', () => {
    expect(ids(sortProjectsBy(projects))).toEqual(['b', 'a']);
    expect(ids(sortProjectsBy(projects, 'name'))).toEqual(['b', 'a']);
    expect(ids(sortProjectsBy(projects, 'latest'))).toEqual(['b', 'a']);
    expect(ids(sortProjectsBy([...projects].reverse(), 'id'))).toEqual(['b', 'a']);
  });
});
