import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { Model, Project } from '@shared/types.js';
import ModelsRoute from './models.js';
import { createTestBackend, MemoryApp, type TestBackend } from '../../../components/testing/memory-app.js';
import { makeModel } from '../../../components/testing/fixtures.js';

afterEach(cleanup);

const models: Model[] = [
  makeModel('b', { publicId: 'B-2', name: 'Second', files: { glbPath: 'models/b/model.glb' } }),
  makeModel('h', { publicId: 'A-9', name: 'Draft', visible: false, files: { splatPath: 'models/h/model.ply' } }),
  makeModel('a', {
    publicId: 'A-1',
    name: 'First',
    files: { splatPath: 'models/a/model.ply', thumbnails: ['models/a/images_thumbnails/t.png'] },
  }),
];

function renderModels(test: TestBackend) {
  return render(
    <MemoryApp backend={test.backend} path="/models" pattern="/models">
      <ModelsRoute />
    </MemoryApp>,
  );
}

describe('/models', () => {
  it("is titled 'Models'; the count is a polite status, the alert region is there before any error, rows' controls are described by their model", async () => {
    renderModels(createTestBackend('admin', { models }));
    const count = await screen.findByText('3 models found');
    expect(document.title).toMatch(/^Models · /);
    expect(count.getAttribute('role')).toBe('status');
    expect(screen.getAllByRole('alert').some((region) => region.textContent === '')).toBe(true);
    expect(screen.getByRole('list', { name: 'Models' })).toBeTruthy();
    const row = screen.getAllByTestId('model-row').find((r) => r.textContent?.includes('A-1')) as HTMLElement;
    const hide = within(row).getByRole('button', { name: 'Hide' });
    const ids = (hide.getAttribute('aria-describedby') ?? '').split(' ');
    expect(ids.map((id) => document.getElementById(id)?.textContent)).toEqual(['A-1', 'First']);
    fireEvent.change(screen.getByLabelText('Search models'), { target: { value: 'Second' } });
    expect(screen.getByRole('status').textContent).toBe('1 model found');
  });

  it("shows 'Login Required / Please sign in to access the model catalog.' without a role", async () => {
    renderModels(createTestBackend(null));
    expect(await screen.findByText('Login Required')).toBeTruthy();
    expect(screen.getByText('Please sign in to access the model catalog.')).toBeTruthy();
  });

  it("shows 'Loading models...', then the empty state", async () => {
    const test = createTestBackend('user');
    const release = test.hold('models');
    renderModels(test);
    expect(await screen.findByText('Loading models...')).toBeTruthy();
    release();
    expect(await screen.findByText('No Models Available')).toBeTruthy();
    expect(screen.getByText('There are no 3D models in the catalog yet.')).toBeTruthy();
    expect(screen.getByText('0 models found')).toBeTruthy();
  });

  it('never shows hidden models, the banner, the upload panel or Hide/Show to a user', async () => {
    renderModels(createTestBackend('user', { models }));
    expect(await screen.findByRole('heading', { name: 'Infrastructure Inspection 3D Models' })).toBeTruthy();
    expect(await screen.findByText('2 models found')).toBeTruthy();
    expect(screen.queryByText('A-9')).toBeNull();
    expect(screen.queryByRole('heading', { name: 'Upload Model' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Hide' })).toBeNull();
    expect(screen.queryByText(/Admin panel/)).toBeNull();
  });

  it('shows admins every model by publicId, hidden ones badged, with the banner and the upload panel', async () => {
    renderModels(createTestBackend('admin', { models }));
    expect(await screen.findByText('3 models found')).toBeTruthy();
    expect(screen.getAllByTestId('model-row').map((r) => r.querySelector('.badge.mono')?.textContent)).toEqual(['A-1', 'A-9', 'B-2']);
    expect(screen.getByText('Hidden')).toBeTruthy();
    expect(screen.getByText('To delete models or manage their files, use the Admin panel (Model Management).')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Upload Model' })).toBeTruthy();
    expect(screen.getAllByRole('button', { name: 'Hide' })).toHaveLength(2);
    expect(screen.getByRole('button', { name: 'Show' })).toBeTruthy();
    expect((await screen.findByRole('img', { name: 'First' })).getAttribute('src')).toBe(
      'http://files.test/models/a/images_thumbnails/t.png',
    );
  });
});

describe("/models search, project filter and each row's project", () => {
  const projects: Project[] = [
    { id: 'pt', name: 'North Ridge Tower', structure_id: 'TWR-001', description: '', slug: 't' },
    { id: 'pb', name: 'Grand River Footbridge', structure_id: 'BRG-002', description: '', slug: 'b' },
  ];
  const catalog: Model[] = [
    makeModel('t1', { publicId: 'T-1', name: 'Spring survey', projectId: 'pt' }),
    makeModel('t2', { publicId: 'T-2', name: 'Autumn survey', projectId: 'pt' }),
    makeModel('b1', { publicId: 'B-1', name: 'Deck scan', projectId: 'pb' }),
  ];
  const publicIds = () => screen.queryAllByTestId('model-row').map((r) => r.querySelector('.badge.mono')?.textContent);

  it('finds models by publicId, name, project name or structure ID, and filters by project', async () => {
    renderModels(createTestBackend('user', { projects, models: catalog }));
    expect(await screen.findByText('3 models found')).toBeTruthy();
    const row = screen.getAllByTestId('model-row')[0] as HTMLElement;
    expect(within(row).getByRole('link', { name: 'Grand River Footbridge' }).getAttribute('href')).toBe('/projects/pb');
    const search = screen.getByLabelText('Search models');
    fireEvent.change(search, { target: { value: 'autumn' } });
    expect(publicIds()).toEqual(['T-2']);
    expect(screen.getByText('1 model found')).toBeTruthy();
    fireEvent.change(search, { target: { value: 'brg-002' } });
    expect(publicIds()).toEqual(['B-1']);
    fireEvent.change(search, { target: { value: 'north' } });
    expect(publicIds()).toEqual(['T-1', 'T-2']);
    fireEvent.change(search, { target: { value: 't-1' } });
    expect(publicIds()).toEqual(['T-1']);
    fireEvent.change(search, { target: { value: '' } });
    const filter = screen.getByLabelText('Filter by project');
    expect(
      within(filter)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['All projects', 'BRG-002 — Grand River Footbridge', 'TWR-001 — North Ridge Tower']);
    fireEvent.change(filter, { target: { value: 'pt' } });
    expect(publicIds()).toEqual(['T-1', 'T-2']);
    fireEvent.change(search, { target: { value: 'spring' } });
    expect(publicIds()).toEqual(['T-1']);
    fireEvent.change(search, { target: { value: 'deck' } });
    expect(publicIds()).toEqual([]);
    expect(screen.getByText('No models match the search.')).toBeTruthy();
    expect(screen.getByText('0 models found')).toBeTruthy();
  });
});
