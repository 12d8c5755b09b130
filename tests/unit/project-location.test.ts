/**
 * Latitude −90..90 and longitude −180..180 for every writer — the project form's
 * validator (portal form, `catalog projects create/update` and the shared workflows), the content
 * rule of the embedded and memory backends, and `catalog import` (refused before anything is written).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryBackend, createMemoryBackendAs } from '@shared/adapters/memory/index.js';
import { createMemoryStore } from '@shared/adapters/memory/store.js';
import { AppError, ErrorCode } from '@shared/errors.js';
import { FormMessages } from '@shared/messages.js';
import { checkDocumentContent } from '@shared/rules/document-rules.js';
import { createProject, updateProject } from '@shared/workflows/projects.js';
import { locationCoordinatesProblem, validateProjectForm } from '@shared/validation/project-form.js';
import { exportCatalog } from '../../cli/src/lib/catalog-export.js';
import { importCatalog } from '../../cli/src/lib/catalog-import.js';
import { projectLocationProblems } from '../../cli/src/lib/catalog-import-plan.js';

const LAT = 'Latitude must be between -90 and 90';
const LNG = 'Longitude must be between -180 and 180';

describe('validateProjectForm: coordinate ranges', () => {
  it.each([
    ['95', '0', LAT],
    ['-90.0001', '0', LAT],
    [90.5, 0, LAT],
    ['0', '-200', LNG],
    ['0', '180.01', LNG],
    ['45', 181, LNG],
    ['95', '-200', LAT],
  ])('lat %s lng %s → %s', (lat, lng, message) => {
    expect(validateProjectForm({ name: 'P', lat, lng })).toEqual({ ok: false, message });
  });

  it('accepts the bounds, values inside and empty coordinates', () => {
    for (const [lat, lng] of [
      ['90', '180'],
      ['-90', '-180'],
      ['0', '0'],
      ['43.4643', '-80.5204'],
      ['', ''],
    ]) {
      const result = validateProjectForm({ name: 'P', lat, lng });
      expect(result.ok, `${lat}, ${lng}`).toBe(true);
    }
  });

  it('keeps the number messages first: not a number is not reported as out of range', () => {
    expect(validateProjectForm({ name: 'P', lat: 'north', lng: '500' })).toEqual({
      ok: false,
      message: FormMessages.projectLatitudeInvalid,
    });
    expect(FormMessages.projectLatitudeRange).toBe(LAT);
    expect(FormMessages.projectLongitudeRange).toBe(LNG);
  });
});

describe('locationCoordinatesProblem (stored documents)', () => {
  it('passes absent, null and in-range coordinates, names the first broken rule', () => {
    expect(locationCoordinatesProblem(null)).toBeNull();
    expect(locationCoordinatesProblem({ address: 'x' })).toBeNull();
    expect(locationCoordinatesProblem({ lat: null, lng: null })).toBeNull();
    expect(locationCoordinatesProblem({ lat: -90, lng: 180 })).toBeNull();
    expect(locationCoordinatesProblem({ lat: 95, lng: -200 })).toBe(LAT);
    expect(locationCoordinatesProblem({ lat: 45, lng: -200 })).toBe(LNG);
    expect(locationCoordinatesProblem({ lat: '45', lng: 0 })).toBe(FormMessages.projectLatitudeInvalid);
    expect(locationCoordinatesProblem({ lat: 0, lng: Number.NaN })).toBe(FormMessages.projectLongitudeInvalid);
  });
});

describe('the content rule of the backends we run (shared/rules/document-rules.ts)', () => {
  const change = (after: Record<string, unknown> | null, before: Record<string, unknown> | null = null) =>
    ({ op: before ? 'update' : 'set', collection: 'projects', id: 'p', before, after }) as const;

  it('refuses a project write that sets an out-of-range coordinate, with the message', () => {
    expect(() => checkDocumentContent(change({ name: 'x', location: { lat: 95, lng: 0 } }))).toThrow(LAT);
    expect(() =>
      checkDocumentContent(change({ name: 'x', location: { lat: 0, lng: -200 } }, { name: 'x', location: { lat: 0, lng: 0 } })),
    ).toThrow(LNG);
    try {
      checkDocumentContent(change({ name: 'x', location: { lat: 95, lng: 0 } }));
    } catch (error) {
      expect(error).toBeInstanceOf(AppError);
      expect((error as AppError).code).toBe(ErrorCode.InvalidArgument);
    }
  });

  it('lets other fields of a project stored before the rule change, and passes good coordinates', () => {
    const old = { name: 'x', location: { lat: 95, lng: -200 } };
    expect(() => checkDocumentContent(change({ ...old, description: 'new' }, old))).not.toThrow();
    expect(() => checkDocumentContent(change({ name: 'x', location: { lat: 43.47, lng: -80.54 } }))).not.toThrow();
  });

  it('the memory backend refuses it and writes nothing; the shared create/update workflows refuse it', async () => {
    const admin = createMemoryBackendAs('admin');
    await expect(admin.catalog.set('projects', 'bad', { name: 'Bad', location: { lat: 95, lng: -200 } })).rejects.toThrow(LAT);
    expect(await admin.catalog.get('projects', 'bad')).toBeNull();
    await expect(createProject(admin.catalog, { name: 'Bad', lat: '45', lng: '-200' })).rejects.toThrow(LNG);
    expect(await admin.catalog.query('projects')).toEqual([]);
    const id = await createProject(admin.catalog, { name: 'Good', lat: '45', lng: '-80' });
    await expect(updateProject(admin.catalog, id, { name: 'Good', lat: '-91', lng: '-80' })).rejects.toThrow(LAT);
    expect((await admin.catalog.get('projects', id))?.location).toMatchObject({ lat: 45, lng: -80 });
  });
});

describe('catalog import: location ranges checked before anything is written', () => {
  const dirs: string[] = [];
  afterEach(async () => {
    for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
  });

  it('projectLocationProblems names each project that breaks the rule', () => {
    expect(
      projectLocationProblems([
        { id: 'a', location: { lat: 95, lng: -200 } },
        { id: 'b', location: { lat: 1, lng: 2 } },
        { id: 'c', location: null },
        { id: 'd', location: { lat: 0, lng: 181 } },
      ]),
    ).toEqual([`project a: location {"lat":95,"lng":-200}: ${LAT}`, `project d: location {"lat":0,"lng":181}: ${LNG}`]);
  });

  it('refuses an export with an out-of-range project and leaves the target empty', async () => {
    // The source was written before the rule (seeded directly into the store, past the rules).
    const store = createMemoryStore({
      documents: {
        projects: [
          { id: 'good', name: 'Good', location: { lat: 43.47, lng: -80.54, address: null, mapUrl: null } },
          { id: 'stretched', name: 'Stretched', location: { lat: 95, lng: -200, address: null, mapUrl: null } },
        ],
      },
    });
    const source = createMemoryBackend({ store, service: true });
    const dir = await mkdtemp(join(tmpdir(), 'location-export-'));
    dirs.push(dir);
    await exportCatalog(source, join(dir, 'export'), { source: 'memory' });
    const target = createMemoryBackend({ service: true });
    const attempt = importCatalog(target, join(dir, 'export'));
    await expect(attempt).rejects.toThrow(/out of range.*nothing was imported[\s\S]*project stretched: location \{"lat":95,"lng":-200\}/);
    expect(await target.catalog.query('projects')).toEqual([]);
  });
});
