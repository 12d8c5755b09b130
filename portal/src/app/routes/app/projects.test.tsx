import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { MemoryRouter, useLocation } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { summarizeProjects } from '@shared/projects.js';
import type { Model, Project } from '@shared/types.js';
import { createTestBackend, MemoryApp, modelFiles } from '../../../components/testing/memory-app.js';
import { ProjectListView } from '../../../features/projects/components/project-list.js';
import ProjectsRoute from './projects.js';
import { BackendProvider } from '../../../lib/backend-context.js';
import { emulateLayout, restoreLayout } from '../../../components/testing/layout.js';

/** The router's current path and query, for assertions on `?view=`. */
function LocationProbe() {
  const location = useLocation();
  return <p data-testid="location">{`${location.pathname}${location.search}`}</p>;
}

afterEach(cleanup);

const projects: Project[] = [
  {
    id: 'b',
    name: 'Bridge',
    structure_id: 'BRG-002',
    description: 'd',
    slug: 'bridge',
    reference_model_id: 'm1',
    location: { lat: 43.4, lng: -80.5, address: 'River Rd' },
  },
  { id: 't', name: 'Tower', structure_id: 'TWR-001', description: 'd', slug: 'tower' },
];
const models: Model[] = [
  { id: 'm1', uuid: 'm1', publicId: 'B-1', name: 'b1', projectId: 'b', files: { thumbnails: ['models/m1/images_thumbnails/t.png'] } },
  { id: 'm2', uuid: 'm2', publicId: 'B-2', name: 'b2', projectId: 'b', files: {} },
];

function renderView(list: Project[], isAdmin: boolean) {
  return render(
    <BackendProvider backend={createTestBackend('user', { files: modelFiles(models) }).backend}>
      <MemoryRouter>
        <ProjectListView projects={list} summaries={summarizeProjects(list, models)} isAdmin={isAdmin} />
      </MemoryRouter>
    </BackendProvider>,
  );
}

describe('ProjectListView', () => {
  it("shows 'No Projects Yet', with 'Create First Project' to /admin/projects for admins only", () => {
    const { unmount } = renderView([], false);
    expect(screen.getByText('No Projects Yet')).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Create First Project' })).toBeNull();
    unmount();
    renderView([], true);
    expect(screen.getByRole('link', { name: 'Create First Project' }).getAttribute('href')).toBe('/admin/projects');
  });

  it('switches between the card grid and the table view, both in the given order', () => {
    renderView(projects, false);
    expect(screen.getAllByTestId('project-card').map((c) => within(c).getByRole('heading').textContent)).toEqual(['Bridge', 'Tower']);
    fireEvent.click(screen.getByRole('button', { name: 'Table View' }));
    const rows = screen.getAllByTestId('project-row');
    expect(rows.map((r) => r.querySelector('td')?.textContent)).toEqual(['BRG-002', 'TWR-001']);
    expect(within(rows[0] as HTMLElement).getByText('Has Reference')).toBeTruthy();
    expect(within(rows[0] as HTMLElement).getByText(/Multi-Temporal/)).toBeTruthy();
    expect(within(rows[1] as HTMLElement).getByText('No Reference')).toBeTruthy();
    expect(
      within(rows[1] as HTMLElement)
        .getByRole('link', { name: 'View Details' })
        .getAttribute('href'),
    ).toBe('/projects/t');
    fireEvent.click(screen.getByRole('button', { name: 'Card Grid' }));
    expect(screen.getAllByTestId('project-card')).toHaveLength(2);
  });
});

describe('/projects route states', () => {
  it("shows 'Login Required / Please sign in to access projects.' without a role", async () => {
    const test = createTestBackend(null);
    render(
      <MemoryApp backend={test.backend} path="/projects" pattern="/projects">
        <ProjectsRoute />
      </MemoryApp>,
    );
    expect(await screen.findByText('Login Required')).toBeTruthy();
    expect(screen.getByText('Please sign in to access projects.')).toBeTruthy();
  });

  it('loads, then shows the live list sorted by structure_id with the reference thumbnail', async () => {
    const test = createTestBackend('user', { models });
    const release = test.hold('projects');
    render(
      <MemoryApp backend={test.backend} path="/projects" pattern="/projects">
        <ProjectsRoute />
      </MemoryApp>,
    );
    expect(await screen.findByText('Loading projects...')).toBeTruthy();
    for (const { id, ...data } of [...projects].reverse()) test.store.writeDocument('projects', id, data);
    release();
    await screen.findAllByTestId('project-card');
    expect(screen.getAllByTestId('project-card').map((c) => within(c).getByRole('heading').textContent)).toEqual(['Bridge', 'Tower']);
    expect(await screen.findByRole('img', { name: 'Bridge' })).toBeTruthy();
    expect(screen.getByRole('img', { name: 'Bridge' }).getAttribute('src')).toBe('http://files.test/models/m1/images_thumbnails/t.png');
    expect(screen.getByText('No thumbnail')).toBeTruthy();
    test.store.writeDocument('projects', 'a', { name: 'Antenna', structure_id: 'ANT-009', description: '', slug: 'a' });
    await screen.findByRole('heading', { name: 'Antenna' });
    expect(screen.getAllByTestId('project-card').map((c) => within(c).getByRole('heading').textContent)).toEqual([
      'Antenna',
      'Bridge',
      'Tower',
    ]);
  });

  it("shows 'Failed to load projects list.' when the live list fails", async () => {
    const test = createTestBackend('user');
    test.hold('projects');
    render(
      <MemoryApp backend={test.backend} path="/projects" pattern="/projects">
        <ProjectsRoute />
      </MemoryApp>,
    );
    await screen.findByText('Loading projects...');
    const original = console.error;
    console.error = () => undefined;
    test.fail('projects', new Error('down'));
    expect(await screen.findByText('Failed to load projects list.')).toBeTruthy();
    console.error = original;
  });
});

describe('/projects on a large catalog', () => {
  const many: Project[] = Array.from({ length: 400 }, (_, i) => ({
    id: `p${i}`,
    name: `Project ${i}`,
    structure_id: `STR-${String(i).padStart(4, '0')}`,
    description: 'd',
    slug: `p-${i}`,
  }));
  beforeEach(() => emulateLayout(900));
  afterEach(restoreLayout);

  function renderAt(path: string) {
    const test = createTestBackend('user', { projects: many });
    render(
      <MemoryApp backend={test.backend} path={path} pattern="/projects">
        <ProjectsRoute />
        <LocationProbe />
      </MemoryApp>,
    );
  }

  it('renders only the cards near the viewport, in structure_id order', async () => {
    renderAt('/projects');
    const cards = await screen.findAllByTestId('project-card');
    expect(cards.length).toBeGreaterThan(0);
    expect(cards.length).toBeLessThan(20);
    expect(within(cards[0] as HTMLElement).getByRole('heading').textContent).toBe('Project 0');
    expect(parseFloat(screen.getByTestId('project-grid').style.height)).toBeGreaterThan(400 * 200);
  });

  it("is titled 'Projects'; the table's 'View Details' links are described by their project, the focused row and the next one rendered", async () => {
    renderAt('/projects?view=table');
    const rows = await screen.findAllByTestId('project-row');
    expect(document.title).toMatch(/^Projects · /);
    const link = within(rows[3] as HTMLElement).getByRole('link', { name: 'View Details' });
    expect(document.getElementById(link.getAttribute('aria-describedby') ?? '')?.textContent).toBe('Project 3');
    const lastRendered = rows.length - 1;
    expect(screen.queryByText(`Project ${lastRendered + 1}`)).toBeNull();
    act(() =>
      within(rows[lastRendered] as HTMLElement)
        .getByRole('link')
        .focus(),
    );
    expect(screen.getByText(`Project ${lastRendered + 1}`)).toBeTruthy();
    expect(screen.getByTestId('project-table').getAttribute('aria-label')).toBe('Projects');
  });

  it('opens the table view at ?view=table, bounded too, and the switch keeps the URL in step', async () => {
    renderAt('/projects?view=table');
    const rows = await screen.findAllByTestId('project-row');
    expect(rows.length).toBeLessThan(60);
    expect(rows.map((r) => r.querySelector('td')?.textContent).slice(0, 3)).toEqual(['STR-0000', 'STR-0001', 'STR-0002']);
    expect(
      within(screen.getByTestId('project-table'))
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Structure ID', 'Name', 'Models', 'Reference', 'Location', 'Actions']);
    expect(screen.getByRole('button', { name: 'Table View' }).getAttribute('aria-pressed')).toBe('true');
    fireEvent.click(screen.getByRole('button', { name: 'Card Grid' }));
    expect(screen.getByTestId('location').textContent).toBe('/projects');
    expect(await screen.findAllByTestId('project-card')).not.toHaveLength(0);
    fireEvent.click(screen.getByRole('button', { name: 'Table View' }));
    expect(screen.getByTestId('location').textContent).toBe('/projects?view=table');
  });
});
