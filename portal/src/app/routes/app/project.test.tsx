import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { Component, type ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AppError, ErrorCode } from '@shared/errors.js';
import type { Model, Project } from '@shared/types.js';
import ProjectRoute from './project.js';
import { createTestBackend, MemoryApp, type TestBackend } from '../../../components/testing/memory-app.js';
import { makeModel, makeProject } from '../../../components/testing/fixtures.js';

afterEach(cleanup);

/** Catches what the page throws to its route's error screen. */
class Catch extends Component<{ children: ReactNode; onError: (error: unknown) => void }, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  override componentDidCatch(error: unknown) {
    this.props.onError(error);
  }
  override render() {
    return this.state.failed ? <p>route error screen</p> : this.props.children;
  }
}

const located: Project = {
  id: 'p1',
  name: 'North Ridge Tower',
  structure_id: 'TWR-001',
  description: 'Lattice tower.',
  slug: 'north-ridge',
  reference_model_id: 'ref',
  created_at: '2024-03-05T10:00:00Z',
  location: { lat: 43.47, lng: -80.54, address: 'North Ridge Rd' },
};
const bare = makeProject({ id: 'p2', name: 'Bare Mast', structure_id: 'MST-003', slug: 'bare' });
const models: Model[] = [
  makeModel('late', {
    publicId: 'TWR-C',
    name: 'Late',
    projectId: 'p1',
    files: { glbPath: 'models/late/model.glb' },
    metadata: { captureDate: '2025-06-01' },
  }),
  makeModel('ref', {
    publicId: 'TWR-Z',
    name: 'Reference',
    projectId: 'p1',
    isReference: true,
    files: { splatPath: 'models/ref/model.ply' },
    metadata: { captureDate: '2026-01-01' },
  }),
  makeModel('early', {
    publicId: 'TWR-A',
    name: 'Early',
    projectId: 'p1',
    files: { glbPath: 'models/early/model.glb' },
    metadata: { captureDate: '2024-05-01' },
  }),
];

function renderProject(test: TestBackend, id: string) {
  return render(
    <MemoryApp backend={test.backend} path={`/projects/${id}`} pattern="/projects/:projectId">
      <ProjectRoute />
    </MemoryApp>,
  );
}

describe('/projects/{projectId}', () => {
  it("shows 'Authentication Required / Please log in to view project details.' when signed out", async () => {
    renderProject(createTestBackend(null), 'p1');
    expect(await screen.findByText('Authentication Required')).toBeTruthy();
    expect(screen.getByText('Please log in to view project details.')).toBeTruthy();
  });

  it("shows 'Loading project details...' then 'Project Not Found'", async () => {
    const test = createTestBackend('user', { projects: [located] });
    const release = test.hold('models');
    renderProject(test, 'missing');
    expect(await screen.findByText('Loading project details...')).toBeTruthy();
    release();
    expect(await screen.findByText('Project Not Found')).toBeTruthy();
    expect(screen.getByText('The requested project could not be found.')).toBeTruthy();
    // the screen's one heading is its h1, and its title
    expect(screen.getByRole('heading', { level: 1, name: 'Project Not Found' })).toBeTruthy();
    expect(document.title).toMatch(/^Project Not Found · /);
  });

  it("says 'Failed to load project: …' when the project cannot be read, not 'Project Not Found'", async () => {
    const test = createTestBackend('user', { projects: [located], models });
    test.fail('projects', new AppError(ErrorCode.Internal, 'HTTP 500'));
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      renderProject(test, 'p1');
      expect((await screen.findByRole('alert')).textContent).toBe('Failed to load project: HTTP 500');
    } finally {
      quiet.mockRestore();
    }
    expect(screen.queryByText('Project Not Found')).toBeNull();
    expect(screen.getByRole('heading', { level: 1, name: 'Project Unavailable' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to Projects' }).getAttribute('href')).toBe('/projects');
  });

  it('shows the fields, the location with map link and 200px zoom-14 map, and the sorted models', async () => {
    renderProject(createTestBackend('user', { projects: [located], models }), 'p1');
    expect(await screen.findByRole('heading', { name: 'North Ridge Tower', level: 1 })).toBeTruthy();
    expect(screen.getByRole('navigation', { name: 'Breadcrumb' }).querySelector('a')?.getAttribute('href')).toBe('/projects');
    expect(screen.getByText('TWR-001')).toBeTruthy();
    expect(screen.getByText('Lattice tower.')).toBeTruthy();
    expect(screen.getByText('Mar 5, 2024')).toBeTruthy();
    expect(screen.getByText('43.47, -80.54')).toBeTruthy();
    expect(screen.getByText('North Ridge Rd')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'View on Google Maps' }).getAttribute('target')).toBe('_blank');
    // without a Maps key the embedded map is the key-less map (the plain grid here: jsdom has no WebGL) at zoom 14, 200 px high
    const embed = screen.getByRole('region', { name: 'Project location map' });
    expect(embed.getAttribute('data-zoom')).toBe('14');
    expect(embed.style.height).toBe('200px');
    expect(screen.getByRole('heading', { name: '3D Models (3)' })).toBeTruthy();
    const order = screen.getAllByTestId('project-model').map((m) => within(m).getByRole('heading').textContent);
    expect(order).toEqual(['Reference', 'Early', 'Late']);
    expect(within(screen.getAllByTestId('project-model')[0] as HTMLElement).getByText('Reference Model')).toBeTruthy();
    // users get no admin links
    expect(screen.queryByRole('link', { name: 'Project Management' })).toBeNull();
    expect(screen.queryByRole('link', { name: 'Add Model' })).toBeNull();
    expect(screen.queryByRole('link', { name: 'Manage' })).toBeNull();
    // links resolve: View Model and Compare become ready
    expect((await screen.findAllByRole('link', { name: 'View Model' })).length).toBe(3);
    expect(screen.getAllByRole('button', { name: 'Compare' }).every((b) => !(b as HTMLButtonElement).disabled)).toBe(true);
  });

  it("keeps Compare disabled and says 'Unable to load reference model information.' when the reference link fails", async () => {
    const original = console.error;
    console.error = () => undefined;
    const test = createTestBackend('user', { projects: [located], models });
    test.failingLinks.add('models/ref/model.ply');
    renderProject(test, 'p1');
    expect((await screen.findAllByText('Unable to load reference model information.')).length).toBe(2);
    expect(screen.getAllByRole('button', { name: 'Compare' }).every((b) => (b as HTMLButtonElement).disabled)).toBe(true);
    console.error = original;
  });

  it('gives admins Project Management, Add Reference Model (no models) and no-location text', async () => {
    renderProject(createTestBackend('admin', { projects: [bare], models: [] }), 'p2');
    expect(await screen.findByRole('heading', { name: 'Bare Mast', level: 1 })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Project Management' }).getAttribute('href')).toBe('/admin/project-management?projectId=p2');
    expect(screen.getByRole('link', { name: 'Add Reference Model' }).getAttribute('href')).toBe('/projects/p2/add-model');
    expect(screen.getByText('No location data available for this project')).toBeTruthy();
    expect(screen.getByRole('heading', { name: '3D Models (0)' })).toBeTruthy();
  });
});

describe('/projects/{projectId} with many models, hidden ones marked', () => {
  const many: Model[] = Array.from({ length: 60 }, (_, i) => ({
    id: `m${i}`,
    uuid: `m${i}`,
    publicId: `TWR-${String(i).padStart(3, '0')}`,
    name: `Survey ${i}`,
    projectId: 'p1',
    files: { glbPath: `models/m${i}/model.glb` },
    metadata: { captureDate: `2025-01-${String((i % 28) + 1).padStart(2, '0')}` },
  }));

  it('shows 24 cards a page and resolves only their viewing links; Next shows the following ones', async () => {
    const test = createTestBackend('user', { projects: [{ ...located, reference_model_id: null }], models: many });
    const asked: string[] = [];
    const files = test.backend.files;
    const counted = new Proxy(files, {
      get(target, key) {
        if (key === 'getDownloadUrl')
          return (path: string) => {
            asked.push(path);
            return target.getDownloadUrl(path);
          };
        const value: unknown = Reflect.get(target, key);
        return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
      },
    });
    render(
      <MemoryApp backend={{ ...test.backend, files: counted }} path="/projects/p1" pattern="/projects/:projectId">
        <ProjectRoute />
      </MemoryApp>,
    );
    expect(await screen.findByRole('heading', { name: '3D Models (60)' })).toBeTruthy();
    expect(screen.getAllByText('Showing 1–24 of 60 · Page 1 of 3')).toHaveLength(2);
    const firstPage = screen.getAllByTestId('project-model').map((card) => within(card).getByRole('heading').textContent);
    expect(firstPage).toHaveLength(24);
    await waitFor(() => expect(screen.getAllByRole('link', { name: 'View Model' })).toHaveLength(24));
    expect(new Set(asked).size).toBe(24);
    fireEvent.click(screen.getAllByRole('button', { name: 'Next' })[0] as HTMLElement);
    expect(screen.getAllByText('Showing 25–48 of 60 · Page 2 of 3')).toHaveLength(2);
    const secondPage = screen.getAllByTestId('project-model').map((card) => within(card).getByRole('heading').textContent);
    expect(secondPage).toHaveLength(24);
    expect(secondPage.some((name) => firstPage.includes(name))).toBe(false);
    await waitFor(() => expect(new Set(asked).size).toBe(48));
    fireEvent.click(screen.getAllByRole('button', { name: 'Next' })[0] as HTMLElement);
    expect(screen.getAllByTestId('project-model')).toHaveLength(12);
    expect((screen.getAllByRole('button', { name: 'Next' })[0] as HTMLButtonElement).disabled).toBe(true);
  });

  it("is titled with the project's name; the pager announces the page and hands focus over at either end", async () => {
    renderProject(createTestBackend('user', { projects: [{ ...located, reference_model_id: null }], models: many }), 'p1');
    expect(await screen.findByRole('heading', { level: 1, name: 'North Ridge Tower' })).toBeTruthy();
    // the title is set by an effect after the heading renders
    await waitFor(() => expect(document.title).toMatch(/^North Ridge Tower · /));
    const breadcrumb = screen.getByRole('navigation', { name: 'Breadcrumb' });
    expect(within(breadcrumb).getByText('North Ridge Tower').getAttribute('aria-current')).toBe('page');
    // the models arrive after the project (their own live read): wait for the pager
    const top = await screen.findByRole('navigation', { name: 'Model pages' });
    const bottom = screen.getByRole('navigation', { name: 'Model pages (end of list)' });
    expect(within(top).getByRole('status').textContent).toBe('Showing 1–24 of 60 · Page 1 of 3');
    expect(within(bottom).queryByRole('status')).toBeNull(); // announced once
    const next = within(bottom).getByRole('button', { name: 'Next' });
    next.focus();
    fireEvent.click(next);
    expect(within(top).getByRole('status').textContent).toBe('Showing 25–48 of 60 · Page 2 of 3');
    expect(document.activeElement).toBe(next);
    fireEvent.click(next);
    // Next is disabled on the last page: focus moves to Previous instead of being dropped
    expect((next as HTMLButtonElement).disabled).toBe(true);
    expect(document.activeElement).toBe(within(bottom).getByRole('button', { name: 'Previous' }));
    const previous = within(bottom).getByRole('button', { name: 'Previous' });
    fireEvent.click(previous);
    fireEvent.click(previous);
    expect(document.activeElement).toBe(next);
    // each card's controls are described by its model's name and publicId
    const card = screen.getAllByTestId('project-model')[0] as HTMLElement;
    const name = within(card).getByRole('heading', { level: 3 }).textContent ?? '';
    const view = card.querySelector('.actions a, .actions button') as HTMLElement; // 'View Model' (or 'Preparing...')
    const describedBy = view.getAttribute('aria-describedby') ?? '';
    expect(describedBy.split(' ').map((id) => document.getElementById(id)?.textContent)).toEqual([
      name,
      expect.stringMatching(/^TWR-\d{3}$/),
    ]);
  });

  it("marks a hidden model 'Hidden' for admins; users never see it", async () => {
    const withHidden: Model[] = [
      ...models,
      { ...(models[0] as Model), id: 'draft', uuid: 'draft', publicId: 'TWR-D', name: 'Draft', visible: false },
    ];
    renderProject(createTestBackend('admin', { projects: [located], models: withHidden }), 'p1');
    const draft = (await screen.findByRole('heading', { name: 'Draft' })).closest('article') as HTMLElement;
    expect(within(draft).getByText('Hidden')).toBeTruthy();
    const late = screen.getByRole('heading', { name: 'Late' }).closest('article') as HTMLElement;
    expect(within(late).queryByText('Hidden')).toBeNull();
    expect(screen.queryByTestId('model-page')).toBeNull();
    cleanup();
    renderProject(createTestBackend('user', { projects: [located], models: withHidden }), 'p1');
    expect(await screen.findByRole('heading', { name: '3D Models (3)' })).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Draft' })).toBeNull();
    expect(screen.queryByText('Hidden')).toBeNull();
  });

  it("hands an unreachable server to the route's error screen instead of saying 'Project Not Found'", async () => {
    const test = createTestBackend('user', { projects: [located], models });
    test.fail('projects', new AppError(ErrorCode.Network, 'Cannot reach the catalog server: fetch failed'));
    const caught: unknown[] = [];
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      render(
        <MemoryApp backend={test.backend} path="/projects/p1" pattern="/projects/:projectId">
          <Catch onError={(error) => caught.push(error)}>
            <ProjectRoute />
          </Catch>
        </MemoryApp>,
      );
      await screen.findByText('route error screen');
    } finally {
      quiet.mockRestore();
    }
    expect(screen.queryByText('Project Not Found')).toBeNull();
    expect(caught.some((error) => error instanceof AppError && error.code === ErrorCode.Network)).toBe(true);
  });
});
