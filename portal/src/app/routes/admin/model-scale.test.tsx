// Model Management's 'Units per metre' (`metadata.unitsPerMetre`): the Edit Model field
// (optional, a positive number, the validator's message tied to the field), saved with
// setUnitsPerMetre only when changed, and shown in the model's information.
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { AnnotationMessages } from '@shared/annotations.js';
import { ModelMessages } from '@shared/messages.js';
import type { Model } from '@shared/types.js';
import { createTestBackend, MemoryApp } from '../../../components/testing/memory-app.js';
import { EditModelForm, type ScaleChange } from '../../../features/admin/components/model-management.js';
import AdminRoute from './admin.js';

afterEach(cleanup);

const model = {
  id: 'm1',
  uuid: 'm1',
  publicId: 'TWR-1',
  name: 'Survey',
  projectId: 'p1',
  files: {},
  metadata: { captureDate: '2025-06-01' },
} as Model;

function fill(label: string, value: string) {
  fireEvent.change(screen.getByLabelText(label), { target: { value } });
}

describe("Edit Model: 'Units per metre'", () => {
  it('is optional, refuses what is not a positive number with the message tied to the field, and hands over only a change', async () => {
    const saved: Array<[unknown, ScaleChange | undefined]> = [];
    render(<EditModelForm model={model} onSave={async (input, scale) => void saved.push([input, scale])} onClose={() => undefined} />);
    const field = screen.getByLabelText('Units per metre') as HTMLInputElement;
    expect(field.value).toBe('');
    for (const bad of ['0', '-2', 'ten', 'Infinity']) {
      fill('Units per metre', bad);
      fireEvent.click(screen.getByRole('button', { name: 'Save' }));
      const alert = screen.getByRole('alert');
      expect(alert.textContent).toBe(AnnotationMessages.unitsPerMetreInvalid);
      expect(field.getAttribute('aria-invalid')).toBe('true');
      expect(document.getElementById(field.getAttribute('aria-describedby') ?? '')?.textContent).toBe(
        AnnotationMessages.unitsPerMetreInvalid,
      );
      expect(document.activeElement).toBe(field);
      expect(screen.getByLabelText('Model Name').hasAttribute('aria-invalid')).toBe(false);
    }
    expect(saved).toEqual([]);
    // a broken rule of the other Edit Model fields is reported first and marks only its field
    fill('Model Name', ' ');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(screen.getByRole('alert').textContent).toBe('Model name is required');
    expect(field.hasAttribute('aria-invalid')).toBe(false);
    fill('Model Name', 'Survey');
    // empty: unknown, unchanged from the model's none: no scale change
    fill('Units per metre', ' ');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await act(() => Promise.resolve());
    expect(saved).toEqual([[{ name: 'Survey', publicId: 'TWR-1', captureDate: '2025-06-01' }, undefined]]);
    expect(field.hasAttribute('aria-invalid')).toBe(false);
  });

  it('shows the stored scale and hands over a new one, or null when cleared', async () => {
    const scaled = { ...model, metadata: { ...model.metadata, unitsPerMetre: 2.5 } } as Model;
    const saved: Array<ScaleChange | undefined> = [];
    const { unmount } = render(
      <EditModelForm model={scaled} onSave={async (_input, scale) => void saved.push(scale)} onClose={() => undefined} />,
    );
    expect((screen.getByLabelText('Units per metre') as HTMLInputElement).value).toBe('2.5');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await act(() => Promise.resolve());
    fill('Units per metre', ' 1000 ');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await act(() => Promise.resolve());
    fill('Units per metre', '');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await act(() => Promise.resolve());
    expect(saved).toEqual([undefined, { unitsPerMetre: 1000 }, { unitsPerMetre: null }]);
    unmount();
  });
});

describe("Model Management saves and shows 'Units per metre'", () => {
  it('writes metadata.unitsPerMetre through setUnitsPerMetre and shows it in Model Information', async () => {
    const test = createTestBackend('admin', { models: [model] });
    render(
      <MemoryApp backend={test.backend} path="/admin/model-management?modelId=m1" pattern="/admin/*">
        <AdminRoute />
      </MemoryApp>,
    );
    const info = await screen.findByRole('region', { name: 'Model Information' });
    const factOf = (term: string) => {
      const dt = within(info).getByText(term, { selector: 'dt' });
      return dt.nextElementSibling?.textContent;
    };
    expect(factOf('Units per metre')).toBe('Not set');
    fireEvent.click(screen.getByRole('button', { name: 'Edit Model' }));
    fill('Units per metre', '-1');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(screen.getByRole('alert').textContent).toBe(AnnotationMessages.unitsPerMetreInvalid);
    expect((await test.backend.catalog.get('models', 'm1'))?.metadata?.unitsPerMetre).toBeUndefined();
    fill('Units per metre', '3.28084');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByText(ModelMessages.modelUpdated);
    expect((await test.backend.catalog.get('models', 'm1'))?.metadata?.unitsPerMetre).toBe(3.28084);
    await waitFor(() => expect(factOf('Units per metre')).toBe('3.28084'));
    // the other fields were saved as they were
    expect((await test.backend.catalog.get('models', 'm1'))?.name).toBe('Survey');
  });
});
