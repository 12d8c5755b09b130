import { cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, describe, expect, it } from 'vitest';
import type { Model } from '@shared/types.js';
import { ProjectModelCard, type ProjectModelCardProps } from './project-model-card.js';

afterEach(cleanup);

const reference: Model = {
  id: 'm1',
  uuid: 'm1',
  publicId: 'TWR-001-2024',
  name: 'Spring survey',
  isReference: true,
  files: { splatPath: 'models/m1/model.ply', splatSize: 2 * 1024 * 1024, glbPath: 'models/m1/model.glb', glbSize: 256 * 1024 },
  metadata: { captureDate: '2024-05-01', annotationsCount: 3 },
};
const later: Model = {
  id: 'm2',
  uuid: 'm2',
  publicId: 'TWR-001-2025',
  name: 'Autumn survey',
  modelType: 'mesh',
  files: { glbPath: 'models/m2/model.glb', glbSize: 1024 },
};

function renderCard(props: Partial<ProjectModelCardProps> & Pick<ProjectModelCardProps, 'model'>) {
  const all: ProjectModelCardProps = {
    isReference: false,
    reference: null,
    projectHasReference: false,
    linkState: 'ready',
    referenceLinkState: 'ready',
    viewerUrl: 'https://viewer.example',
    isAdmin: false,
    ...props,
  };
  return render(
    <MemoryRouter>
      <ProjectModelCard {...all} />
    </MemoryRouter>,
  );
}

describe('ProjectModelCard', () => {
  it('shows the reference badge, type label, capture date, annotations and total size', () => {
    renderCard({ model: reference, isReference: true, projectHasReference: true });
    expect(screen.getByText('Reference Model')).toBeTruthy();
    expect(screen.getByText('TWR-001-2024')).toBeTruthy();
    expect(screen.getByTestId('model-type').textContent).toBe('Hybrid');
    expect(screen.getByText('May 1, 2024')).toBeTruthy();
    expect(screen.getByText('3')).toBeTruthy();
    expect(screen.getByTestId('model-size').textContent).toBe('2.25 MB');
    const view = screen.getByRole('link', { name: 'View Model' });
    expect(view.getAttribute('href')).toBe('https://viewer.example/?id=TWR-001-2024');
    expect(view.getAttribute('target')).toBe('_blank');
    expect(screen.queryByRole('button', { name: 'Compare' })).toBeNull();
  });

  it("ends with a closed 'File checks' disclosure of the model's report", () => {
    renderCard({ model: later });
    const details = screen.getByTestId('file-checks');
    expect(details.querySelector('summary')?.textContent).toBe('File checks');
    expect(details.textContent).toContain('No file checks stored for this model.');
    cleanup();
    renderCard({
      model: {
        ...later,
        validation: {
          version: 1,
          checkedAt: '2026-11-23T10:00:00.000Z',
          checker: 'catalog content checks 1',
          splat: null,
          glb: null,
          cameraMetadata: { fileName: 'cameras.json', size: 10, verdict: 'ok', problem: null, warnings: [], cameras: 304, withPhoto: 5 },
          photos: null,
          notes: [],
        },
      },
    });
    expect(screen.getByTestId('file-check-cameras').textContent).toContain('304 cameras, 5 with a photo');
  });

  it("shows a disabled 'Preparing...' until the viewing link is ready", () => {
    renderCard({ model: later, linkState: 'preparing' });
    const preparing = screen.getByRole('button', { name: 'Preparing...' }) as HTMLButtonElement;
    expect(preparing.disabled).toBe(true);
    expect(screen.queryByRole('link', { name: 'View Model' })).toBeNull();
    expect(screen.getByTestId('model-type').textContent).toBe('Mesh');
  });

  it('offers Compare for non-reference models only when a reference exists, enabled once both links are ready', () => {
    const { unmount } = renderCard({ model: later, reference, projectHasReference: true, referenceLinkState: 'preparing' });
    expect((screen.getByRole('button', { name: 'Compare' }) as HTMLButtonElement).disabled).toBe(true);
    unmount();
    renderCard({ model: later, reference, projectHasReference: true });
    expect((screen.getByRole('button', { name: 'Compare' }) as HTMLButtonElement).disabled).toBe(false);
    expect(screen.queryByText('Unable to load reference model information.')).toBeNull();
  });

  it('says the reference is unavailable when its link failed', () => {
    renderCard({ model: later, reference, projectHasReference: true, referenceLinkState: 'failed' });
    expect(screen.getByText('Unable to load reference model information.')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Compare' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it("shows the admin 'Manage' link only to admins", () => {
    const { unmount } = renderCard({ model: later });
    expect(screen.queryByRole('link', { name: 'Manage' })).toBeNull();
    unmount();
    renderCard({ model: later, isAdmin: true });
    expect(screen.getByRole('link', { name: 'Manage' }).getAttribute('href')).toBe('/admin/model-management?modelId=m2');
  });
});
