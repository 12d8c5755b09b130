/**
 * Marker colour (it follows the project's badge): 2+ models blue, exactly 1 green, 0 no
 * badge → grey (never green); the marker, the map's stat cards and the badge use one count, the
 * models the viewer can see.
 */
import { describe, expect, it } from 'vitest';
import { createMemoryBackendAs } from '@shared/adapters/memory/index.js';
import { createMemoryStore } from '@shared/adapters/memory/store.js';
import { countModelsByProject, mapStats, NO_MODELS_MARKER_COLOR, projectBadge, projectMarkerColor } from '@shared/projects.js';

describe('projectMarkerColor', () => {
  it('follows the badge: blue for 2 or more, green for exactly 1, grey for none', () => {
    expect(projectMarkerColor(2)).toBe('blue');
    expect(projectMarkerColor(300)).toBe('blue');
    expect(projectMarkerColor(1)).toBe('green');
    expect(projectMarkerColor(0)).toBe('grey');
    expect(NO_MODELS_MARKER_COLOR).toBe('grey');
    for (const odd of [-1, Number.NaN, 0.5]) expect(projectMarkerColor(odd)).toBe('grey');
    for (let n = 0; n < 5; n++) {
      const badge = projectBadge(n);
      expect(projectMarkerColor(n)).toBe(badge === 'multi-temporal' ? 'blue' : badge === 'initial-assessment' ? 'green' : 'grey');
    }
  });

  it("agrees with the stat cards on the viewer's own counts (a hidden model counts for admins only)", async () => {
    const location = { lat: 43.47, lng: -80.54, address: null, mapUrl: null };
    const store = createMemoryStore({
      documents: {
        projects: [
          { id: 'two', name: 'Two', location },
          { id: 'one-plus-hidden', name: 'One plus hidden', location },
          { id: 'only-hidden', name: 'Only hidden', location },
          { id: 'none', name: 'None', location },
        ],
        models: [
          { id: 'a', publicId: 'A', projectId: 'two', visible: true },
          { id: 'b', publicId: 'B', projectId: 'two', visible: true },
          { id: 'c', publicId: 'C', projectId: 'one-plus-hidden', visible: true },
          { id: 'd', publicId: 'D', projectId: 'one-plus-hidden', visible: false },
          { id: 'e', publicId: 'E', projectId: 'only-hidden', visible: false },
        ],
      },
    });
    const colours = async (role: 'user' | 'admin') => {
      const backend = createMemoryBackendAs(role, { store });
      const projects = await backend.catalog.query('projects');
      const counts = countModelsByProject(await backend.catalog.query('models'));
      const byId = Object.fromEntries(projects.map((p) => [p.id, projectMarkerColor(counts.get(p.id) ?? 0)]));
      const stats = mapStats(projects, counts);
      const values = Object.values(byId);
      expect(stats.multiTemporal).toBe(values.filter((c) => c === 'blue').length);
      expect(stats.initialAssessment).toBe(values.filter((c) => c === 'green').length);
      return byId;
    };
    expect(await colours('user')).toEqual({ two: 'blue', 'one-plus-hidden': 'green', 'only-hidden': 'grey', none: 'grey' });
    expect(await colours('admin')).toEqual({ two: 'blue', 'one-plus-hidden': 'blue', 'only-hidden': 'green', none: 'grey' });
  });
});
