import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, describe, expect, it } from 'vitest';
import { AppError, ErrorCode } from '@shared/errors.js';
import { mapsSearchLink } from '@shared/links.js';
import { projectHasModels } from '@shared/messages.js';
import type { Model, Project } from '@shared/types.js';
import { ProjectPanel, type ProjectPanelProps } from './project-management.js';

afterEach(cleanup);

const bare = { id: 'p-bare', name: 'Bare Mast', created_at: '2025-01-02T03:04:05Z' } as Project;
const full = {
  id: 'p-full',
  name: 'North Tower',
  structure_id: 'TWR-001',
  description: 'Lattice tower',
  slug: 'north-tower',
  reference_model_id: 'm1',
  location: { lat: 43.47, lng: -80.54, address: 'North Ridge', mapUrl: null },
  created_at: '2025-01-02T03:04:05Z',
  last_updated: '2025-02-02T03:04:05Z',
} as Project;
const models = [
  { id: 'm1', publicId: 'A', name: 'A', isReference: true, files: {} } as Model,
  { id: 'm2', publicId: 'B', name: 'B', files: {} } as Model,
];

function renderPanel(overrides: Partial<ProjectPanelProps> = {}) {
  let selectedId: string | null = overrides.selectedId ?? null;
  const calls: string[] = [];
  const props: ProjectPanelProps = {
    projects: [full, bare],
    selectedId,
    onSelect: (id) => {
      selectedId = id;
      calls.push(`select:${id}`);
      view.rerender(
        <MemoryRouter>
          <ProjectPanel {...props} selectedId={selectedId} />
        </MemoryRouter>,
      );
    },
    models,
    onUpdate: async () => undefined,
    onDelete: async () => 'x',
    onSetReference: async () => undefined,
    ...overrides,
  };
  const view = render(
    <MemoryRouter>
      <ProjectPanel {...props} />
    </MemoryRouter>,
  );
  return { calls };
}

describe('ProjectPanel', () => {
  it('shows the no-selection text, then the read view with every fallback and the map link rule', () => {
    renderPanel();
    expect(screen.getByText('No Project Selected')).toBeTruthy();
    expect(screen.getByText('Please select a project from the list to view and manage its details.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: /^Bare Mast/ }));
    const info = screen.getByRole('region', { name: 'Project Information' });
    for (const text of ['Not set', 'No description']) expect(within(info).getAllByText(text).length).toBeGreaterThan(0);
    expect(within(info).getAllByText('Not specified')).toHaveLength(3); // slug, location, map link
    expect(within(info).queryByText('Coordinates')).toBeNull();
    expect(within(info).queryByText('Last Updated')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: /^North Tower/ }));
    const link = screen.getByRole('link', { name: 'View on Google Maps' });
    expect(link.getAttribute('href')).toBe(mapsSearchLink(43.47, -80.54));
    expect(link.getAttribute('target')).toBe('_blank');
    expect(screen.getByText('43.47, -80.54')).toBeTruthy();
    expect(screen.getByText('Set')).toBeTruthy();
    expect(screen.getByText('Last Updated')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Project Management - North Tower' })).toBeTruthy();
  });

  it('searches by name, structure id and slug and sorts by ID (default), Name, Latest', () => {
    renderPanel();
    const names = () => screen.getAllByText(/^(Bare Mast|North Tower)$/).map((el) => el.textContent);
    expect(names()).toEqual(['North Tower', 'Bare Mast']); // structure_id; missing last
    fireEvent.click(screen.getByRole('button', { name: 'Name' }));
    expect(names()).toEqual(['Bare Mast', 'North Tower']);
    fireEvent.change(screen.getByLabelText('Search projects'), { target: { value: 'north-t' } });
    expect(names()).toEqual(['North Tower']);
  });

  it('a project with models: Delete Project says at once that it cannot be deleted, with nothing to type', () => {
    renderPanel({ selectedId: 'p-full' });
    fireEvent.click(screen.getByRole('button', { name: 'Delete Project' }));
    const box = screen.getByRole('alertdialog', { name: 'Delete Project' });
    expect(within(box).getByText(projectHasModels(2))).toBeTruthy();
    expect(screen.queryByPlaceholderText('Type project name here...')).toBeNull();
    // the models stay in sight: they are what the admin deletes first
    expect(screen.getByRole('region', { name: 'Project Models' })).toBeTruthy();
    fireEvent.click(within(box).getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });

  it('while the models are still being read, Delete Project waits for them before offering to type the name', () => {
    renderPanel({ selectedId: 'p-full', models: [], modelsReady: false });
    fireEvent.click(screen.getByRole('button', { name: 'Delete Project' }));
    expect(screen.queryByPlaceholderText('Type project name here...')).toBeNull();
    expect(screen.getByRole('alertdialog', { name: 'Delete Project' })).toBeTruthy();
  });

  it('delete flow: typed name (trimmed) enables the button, models hidden while open, Cancel closes', async () => {
    renderPanel({ selectedId: 'p-full', models: [] });
    expect(screen.getByRole('region', { name: 'Project Models' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Delete Project' }));
    expect(screen.queryByRole('region', { name: 'Project Models' })).toBeNull();
    expect(screen.getByText('Please type North Tower to confirm:')).toBeTruthy();
    expect(screen.getByText('This action cannot be undone. The project will be permanently deleted.')).toBeTruthy();
    const button = screen.getByRole('button', { name: 'Delete Permanently' }) as HTMLButtonElement;
    expect(button.disabled).toBe(true);
    fireEvent.change(screen.getByPlaceholderText('Type project name here...'), { target: { value: 'North' } });
    expect(button.disabled).toBe(true);
    fireEvent.change(screen.getByPlaceholderText('Type project name here...'), { target: { value: '  North Tower ' } });
    expect(button.disabled).toBe(false);
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Delete Project' }));
    expect((screen.getByPlaceholderText('Type project name here...') as HTMLInputElement).value).toBe('');
  });

  it('shows the guard message in red and keeps the selection; a success is green and clears the selection', async () => {
    const outcomes: Array<() => Promise<string>> = [
      () => Promise.reject(new AppError(ErrorCode.FailedPrecondition, projectHasModels(2))),
      () => Promise.reject(new Error('disk on fire')),
      () => Promise.resolve('North Tower'),
    ];
    // no models known to the panel: the delete itself is refused (models added meanwhile elsewhere)
    const { calls } = renderPanel({ selectedId: 'p-full', models: [], onDelete: () => outcomes.shift()!() });
    const attempt = () => {
      fireEvent.click(screen.getByRole('button', { name: 'Delete Project' }));
      fireEvent.change(screen.getByPlaceholderText('Type project name here...'), { target: { value: 'North Tower' } });
      fireEvent.click(screen.getByRole('button', { name: 'Delete Permanently' }));
    };
    attempt();
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Cannot delete this project because it has 2 associated models. Please delete these models first.',
    );
    attempt();
    expect((await screen.findByText('Failed to delete project: disk on fire')).className).toContain('alert-error');
    attempt();
    expect((await screen.findByText('Project "North Tower" has been deleted successfully.')).className).toContain('alert-success');
    expect(calls.at(-1)).toBe('select:null');
    expect(screen.getByText('No Project Selected')).toBeTruthy();
  });

  it('sets another model as the reference with the success and failure messages', async () => {
    const results = [() => Promise.resolve(), () => Promise.reject(new Error('x'))];
    const chosen: string[] = [];
    renderPanel({ selectedId: 'p-full', onSetReference: (_p, m) => (chosen.push(m), results.shift()!()) });
    const table = screen.getByRole('region', { name: 'Project Models' });
    expect(within(table).getByText('Reference Model').className).toContain('badge');
    expect(screen.getByRole('link', { name: 'Add Model' }).getAttribute('href')).toBe('/admin/models/add/p-full');
    fireEvent.click(screen.getByRole('button', { name: 'Set as Reference for B' }));
    expect((await screen.findByRole('status')).textContent).toBe('Reference model has been updated successfully.');
    fireEvent.click(screen.getByRole('button', { name: 'Set as Reference for B' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Failed to update the reference model.');
    expect(chosen).toEqual(['m2', 'm2']);
  });

  it('toggles edit mode with Edit Project / Cancel; saving leaves edit mode with the message', async () => {
    const updates: unknown[] = [];
    renderPanel({ selectedId: 'p-full', onUpdate: async (id, input) => void updates.push([id, input.name]) });
    fireEvent.click(screen.getByRole('button', { name: 'Edit Project' }));
    expect((screen.getByLabelText('Project Name') as HTMLInputElement).value).toBe('North Tower');
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByLabelText('Project Name')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Edit Project' }));
    fireEvent.change(screen.getByLabelText('Project Name'), { target: { value: 'North Tower 2' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect((await screen.findByText('Project information updated successfully.')).className).toContain('alert-success');
    expect(screen.queryByLabelText('Project Name')).toBeNull();
    expect(updates).toEqual([['p-full', 'North Tower 2']]);
  });
});
