import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Project } from '@shared/types.js';
import { emulateLayout, restoreLayout } from '../../../components/testing/layout.js';
import { failure, success } from '../../../lib/resource.js';
import { CatalogHome, CatalogHomeView } from './catalog-home.js';

afterEach(cleanup);

// Browse All renders the rows of cards near the viewport: jsdom has no layout, so it is emulated.
beforeEach(() => emulateLayout(4000));
afterEach(restoreLayout);

const project = (n: number, extra: Partial<Project> = {}): Project => ({
  id: `p${n}`,
  name: `Tower ${n}`,
  structure_id: `TWR-00${n}`,
  description: `Structure number ${n}`,
  slug: `tower-${n}`,
  ...extra,
});
const projects = [1, 2, 3, 4, 5, 6, 7].map((n) => project(n));
// p1 has 1 model, p2..p6 have 2 or 3, p7 none
const counts = new Map([
  ['p1', 1],
  ['p2', 2],
  ['p3', 3],
  ['p4', 2],
  ['p5', 2],
  ['p6', 5],
]);

function renderHome(list = projects, c = counts) {
  return render(
    <MemoryRouter>
      <CatalogHomeView projects={list} counts={c} />
    </MemoryRouter>,
  );
}

const titles = (section: HTMLElement) =>
  within(section)
    .getAllByTestId('catalog-card')
    .map((c) => within(c).getByRole('heading').textContent);

describe('CatalogHomeView', () => {
  it('counts Total Projects and Multi-Temporal Projects (2 or more models)', () => {
    renderHome();
    expect(within(screen.getByTestId('stat-total')).getByText('7')).toBeTruthy();
    expect(screen.getByText('Total Projects')).toBeTruthy();
    expect(within(screen.getByTestId('stat-multi-temporal')).getByText('5')).toBeTruthy();
    expect(screen.getByText('Multi-Temporal Projects')).toBeTruthy();
  });

  it('features at most 4 projects, in order, from those with 2 or more models; cards link to the project', () => {
    renderHome();
    expect(screen.getByRole('heading', { name: 'Featured Projects' })).toBeTruthy();
    expect(titles(screen.getByTestId('featured'))).toEqual(['Tower 2', 'Tower 3', 'Tower 4', 'Tower 5']);
    expect(within(screen.getByTestId('featured')).getAllByRole('link')[0]?.getAttribute('href')).toBe('/projects/p2');
    expect(screen.getByRole('heading', { name: 'Browse All Projects' })).toBeTruthy();
    expect(titles(screen.getByTestId('all-projects'))).toHaveLength(7);
  });

  it('has no Featured Projects when no project has 2 models', () => {
    renderHome(projects, new Map([['p1', 1]]));
    expect(screen.queryByRole('heading', { name: 'Featured Projects' })).toBeNull();
  });

  it('searches structure_id, name and description case-insensitively', () => {
    renderHome([project(1), project(2, { name: 'Harbour Mast' }), project(3, { description: 'Bridge over the RIVER' })]);
    const search = screen.getByLabelText('Search projects');
    fireEvent.change(search, { target: { value: 'twr-001' } });
    expect(titles(screen.getByTestId('all-projects'))).toEqual(['Tower 1']);
    fireEvent.change(search, { target: { value: 'harbour' } });
    expect(titles(screen.getByTestId('all-projects'))).toEqual(['Harbour Mast']);
    fireEvent.change(search, { target: { value: 'river' } });
    expect(titles(screen.getByTestId('all-projects'))).toEqual(['Tower 3']);
    fireEvent.change(search, { target: { value: 'nothing like this' } });
    expect(screen.queryAllByTestId('catalog-card')).toHaveLength(0);
  });

  it('shows the empty state without projects', () => {
    renderHome([], new Map());
    expect(screen.getByText('No Projects Yet')).toBeTruthy();
  });
});

describe('/catalog route states', () => {
  it("shows 'Login Required' without a role, and 'Loading projects...' before the live list", async () => {
    const { createTestBackend, MemoryApp } = await import('../../../components/testing/memory-app.js');
    const { default: CatalogRoute } = await import('../../../app/routes/app/catalog.js');
    const { unmount } = render(
      <MemoryApp backend={createTestBackend(null).backend} path="/catalog" pattern="/catalog">
        <CatalogRoute />
      </MemoryApp>,
    );
    expect(await screen.findByText('Login Required')).toBeTruthy();
    unmount();
    const test = createTestBackend('user');
    const release = test.hold('projects');
    render(
      <MemoryApp backend={test.backend} path="/catalog" pattern="/catalog">
        <CatalogRoute />
      </MemoryApp>,
    );
    expect(await screen.findByText('Loading projects...')).toBeTruthy();
    const { id, ...data } = project(1);
    test.store.writeDocument('projects', id, data);
    release();
    expect(await screen.findByRole('heading', { name: 'Tower 1' })).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Infrastructure Inspection Catalog', level: 1 })).toBeTruthy();
    expect(document.title).toBe('Infrastructure Inspection Catalog · Tower Models Catalog');
  });

  it('counts from the live project summaries: a model added elsewhere features its project, and a hidden one is not counted for a user', async () => {
    const { createTestBackend, MemoryApp } = await import('../../../components/testing/memory-app.js');
    const { default: CatalogRoute } = await import('../../../app/routes/app/catalog.js');
    const model = (id: string, projectId: string, visible = true) => ({
      uuid: id,
      publicId: id.toUpperCase(),
      name: id,
      projectId,
      visible,
      files: {},
    });
    const test = createTestBackend('user', {
      projects: [project(1), project(2)],
      models: [
        { id: 'm1', ...model('m1', 'p1') },
        { id: 'h1', ...model('h1', 'p2', false) },
        { id: 'h2', ...model('h2', 'p2', false) },
      ],
    });
    render(
      <MemoryApp backend={test.backend} path="/catalog" pattern="/catalog">
        <CatalogRoute />
      </MemoryApp>,
    );
    await screen.findByRole('heading', { name: 'Tower 1' });
    expect(within(screen.getByTestId('stat-multi-temporal')).getByText('0')).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Featured Projects' })).toBeNull();
    test.store.writeDocument('models', 'm2', model('m2', 'p1'));
    await screen.findByRole('heading', { name: 'Featured Projects' });
    expect(titles(screen.getByTestId('featured'))).toEqual(['Tower 1']);
    expect(within(screen.getByTestId('stat-multi-temporal')).getByText('1')).toBeTruthy();
    test.store.writeDocument('models', 'm2', model('m2', 'p1', false));
    await waitFor(() => expect(screen.queryByRole('heading', { name: 'Featured Projects' })).toBeNull());
  });

  it('renders only the cards near the viewport of a large catalog, the grid as tall as all of them', () => {
    emulateLayout(800);
    const many = Array.from({ length: 500 }, (_, i) => project(i + 1, { structure_id: `TWR-${String(i + 1).padStart(4, '0')}` }));
    renderHome(many, new Map());
    const shown = titles(screen.getByTestId('all-projects'));
    expect(shown.length).toBeGreaterThan(0);
    expect(shown.length).toBeLessThan(20);
    expect(shown[0]).toBe('Tower 1');
    expect(parseFloat(screen.getByTestId('catalog-grid').style.height)).toBeGreaterThan(500 * 150);
    fireEvent.change(screen.getByLabelText('Search projects'), { target: { value: 'TWR-0499' } });
    expect(titles(screen.getByTestId('all-projects'))).toEqual(['Tower 499']);
  });
});

describe('CatalogHome when the projects cannot be read', () => {
  it("says 'Failed to load projects list.' and shows no count and no empty state", () => {
    const spy = console.error;
    console.error = () => undefined;
    try {
      render(
        <MemoryRouter>
          <CatalogHome projects={failure(new Error('HTTP 500'))} summaries={success([])} />
        </MemoryRouter>,
      );
    } finally {
      console.error = spy;
    }
    expect(screen.getByRole('alert').textContent).toBe('Failed to load projects list.');
    expect(screen.queryByText('Total Projects')).toBeNull();
    expect(screen.queryByText('No Projects Yet')).toBeNull();
  });
});
