import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { Model } from '@shared/types.js';
import { ModelRowView } from './model-row.js';
import { makeModel } from '../../../components/testing/fixtures.js';

afterEach(cleanup);

const splat = makeModel('a', { publicId: 'A-001', name: 'Tower splat', files: { splatPath: 'models/a/model.ply' } });
const hidden = makeModel('b', { publicId: 'B-001', name: 'Hidden mesh', visible: false, files: { glbPath: 'models/b/model.glb' } });

describe('ModelRowView', () => {
  it('shows publicId, name, kind and a View 3D link to the viewer in a new tab', () => {
    render(<ModelRowView model={splat} thumbnailUrl={null} linkReady viewerUrl="https://viewer.example/" isAdmin={false} />);
    expect(screen.getByText('A-001')).toBeTruthy();
    expect(screen.getByText('Tower splat')).toBeTruthy();
    expect(screen.getByText('3D Gaussian Splat')).toBeTruthy();
    const link = screen.getByRole('link', { name: 'View 3D' });
    expect(link.getAttribute('href')).toBe('https://viewer.example/?id=A-001');
    expect(link.getAttribute('target')).toBe('_blank');
  });

  it("reads 'Preparing...' (disabled) until the link resolves", () => {
    render(<ModelRowView model={splat} thumbnailUrl={null} linkReady={false} viewerUrl="https://viewer.example" isAdmin={false} />);
    expect((screen.getByRole('button', { name: 'Preparing...' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it("gives admins Hide/Show and marks hidden rows 'Hidden'", () => {
    const toggled: string[] = [];
    const { unmount } = render(
      <ModelRowView
        model={hidden}
        thumbnailUrl={null}
        linkReady
        viewerUrl="https://v"
        isAdmin
        onToggleVisibility={(m) => toggled.push(m.id)}
      />,
    );
    expect(screen.getByText('Hidden')).toBeTruthy();
    expect(screen.getByText('GLB Model')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Show' }));
    expect(toggled).toEqual(['b']);
    unmount();
    render(
      <ModelRowView
        model={splat}
        thumbnailUrl={null}
        linkReady
        viewerUrl="https://v"
        isAdmin={false}
        onToggleVisibility={() => undefined}
      />,
    );
    expect(screen.queryByRole('button', { name: 'Hide' })).toBeNull();
    expect(screen.queryByText('Hidden')).toBeNull();
  });

  it("names a hybrid 'Hybrid' as its project page does", () => {
    const hybrid: Model = { ...splat, files: { splatPath: 'models/a/model.ply', glbPath: 'models/a/model.glb' } };
    render(<ModelRowView model={hybrid} thumbnailUrl={null} linkReady viewerUrl="https://v" isAdmin={false} />);
    expect(screen.getByText('3D Gaussian Splat · Hybrid')).toBeTruthy();
  });

  it("says 'No 3D file' on a disabled button, never 'Preparing...', for a model without a 3D file", () => {
    const bare = makeModel('c', { publicId: 'C-001', name: 'Photos only', files: { images: ['models/c/images/a.jpg'] } });
    render(<ModelRowView model={bare} thumbnailUrl={null} linkReady={false} viewerUrl="https://v" isAdmin={false} />);
    expect((screen.getByRole('button', { name: 'No 3D file' }) as HTMLButtonElement).disabled).toBe(true);
    expect(screen.queryByText('Preparing...')).toBeNull();
  });
});
