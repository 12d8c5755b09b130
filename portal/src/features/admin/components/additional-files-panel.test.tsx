import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AppError, ErrorCode } from '@shared/errors.js';
import { parseCameraMetadata } from '@shared/camera-metadata.js';
import { validateCameraMetadataFiles } from '@shared/validation/camera.js';
import type { AdditionalUploadHooks } from '@shared/workflows/index.js';
import { AdditionalFilesPanel, type AdditionalFilesPanelProps } from './additional-files-panel.js';
import { EditModelForm, DeleteModelBox } from './model-management.js';
import type { Model } from '@shared/types.js';
import { cameraEntry } from '../../../../../tests/support/model-fixtures.js';

afterEach(cleanup);

const CAMERA = cameraEntry();

/** The camera handler runs the real shared checks (what the workflow does before writing). */
async function checkCamera(files: Array<{ name: string; text: string }>, hooks: AdditionalUploadHooks) {
  hooks.onStage?.('preparing');
  const one = validateCameraMetadataFiles(files);
  if (!one.ok) throw new AppError(ErrorCode.InvalidArgument, one.message);
  const parsed = parseCameraMetadata(one.value.text);
  if (!parsed.ok) throw new AppError(ErrorCode.InvalidArgument, parsed.message);
  for (const stage of ['uploading', 'processing', 'completed'] as const) hooks.onStage?.(stage);
  return { cameras: parsed.cameras.length };
}

function setup(overrides: Partial<AdditionalFilesPanelProps> = {}) {
  const uploaded: string[] = [];
  render(
    <AdditionalFilesPanel
      onUploadFiles={async (kind, files, hooks) => {
        uploaded.push(`${kind}:${files.map((f) => f.name).join(',')}`);
        for (const stage of ['preparing', 'uploading', 'processing', 'completed'] as const) hooks.onStage?.(stage);
        return { count: files.length, folder: kind === 'thumbnails' ? 'images_thumbnails' : kind };
      }}
      onUploadCameraMetadata={checkCamera}
      resetMs={30}
      {...overrides}
    />,
  );
  return { uploaded };
}

const choose = (...files: File[]) => fireEvent.change(screen.getByLabelText('Files'), { target: { files } });
const upload = () => fireEvent.click(screen.getByRole('button', { name: 'Upload Files' }));

describe('AdditionalFilesPanel', () => {
  it('uploads images with the success message, then resets the stages after the delay', async () => {
    // Fake timers: the reset delay runs only when the test says so (a real 30 ms timer raced the assertions under load).
    vi.useFakeTimers();
    try {
      const { uploaded } = setup();
      choose(new File(['a'], 'a.jpg'), new File(['b'], 'b.jpg'));
      upload();
      await act(() => vi.advanceTimersByTimeAsync(0));
      expect(screen.getByRole('status').textContent).toBe('Successfully uploaded 2 files to images.');
      expect(uploaded).toEqual(['images:a.jpg,b.jpg']);
      expect(screen.getByText('Completed').getAttribute('data-state')).toBe('done');
      await act(() => vi.advanceTimersByTimeAsync(29));
      expect(screen.getByText('Completed').getAttribute('data-state')).toBe('done');
      await act(() => vi.advanceTimersByTimeAsync(1));
      expect(screen.getByText('Completed').getAttribute('data-state')).toBe('pending');
      expect(screen.getByText('Preparing').getAttribute('data-state')).toBe('pending');
    } finally {
      vi.useRealTimers();
    }
  });

  it('checks camera metadata with every message and reports the number of cameras saved', async () => {
    setup();
    fireEvent.click(screen.getByRole('radio', { name: 'Camera Metadata' }));
    expect(screen.getByText(/up to 10MB\. Required fields: id, img_name, position, rotation\./)).toBeTruthy();
    const cases: Array<[File[], string]> = [
      [[new File(['[]'], 'a.json'), new File(['[]'], 'b.json')], 'Only one JSON file can be uploaded for camera metadata'],
      [[new File(['[]'], 'a.txt')], 'Only JSON files are allowed for camera metadata'],
      [[new File(['{'], 'a.json')], 'Invalid JSON file'],
      [[new File(['{}'], 'a.json')], 'Metadata must be in array format'],
      [[new File(['[]'], 'a.json')], 'At least one camera data is required'],
      [[new File([JSON.stringify([{ ...CAMERA, id: 'one' }])], 'a.json')], 'JSON format error: Camera 1: id must be a number'],
    ];
    for (const [files, message] of cases) {
      choose(...files);
      upload();
      expect((await screen.findByText(message)).getAttribute('role')).toBe('alert');
    }
    choose(new File([JSON.stringify([CAMERA, CAMERA, CAMERA])], 'cams.json'));
    upload();
    expect((await screen.findByRole('status')).textContent).toBe(
      'Camera metadata uploaded successfully. 3 camera position information saved.',
    );
  });

  it("shows 'Failed to upload files. Please try again later.' on a storage failure", async () => {
    setup({ onUploadFiles: async () => Promise.reject(new AppError(ErrorCode.Network, 'offline')) });
    choose(new File(['a'], 'a.jpg'));
    upload();
    expect((await screen.findByRole('alert')).textContent).toBe('Failed to upload files. Please try again later.');
  });

  it("Cancel aborts a running upload: 'Upload canceled.', and the Cancel button goes away", async () => {
    let signal: AbortSignal | undefined;
    setup({
      onUploadFiles: (_kind, _files, hooks) => {
        signal = hooks.signal;
        return new Promise((_, reject) =>
          hooks.signal?.addEventListener('abort', () => reject(new AppError(ErrorCode.Canceled, 'The upload was canceled'))),
        );
      },
    });
    expect(screen.queryByRole('button', { name: 'Cancel' })).toBeNull();
    choose(new File(['a'], 'a.jpg'));
    upload();
    fireEvent.click(await screen.findByRole('button', { name: 'Cancel' }));
    expect(signal?.aborted).toBe(true);
    expect((await screen.findByRole('alert')).textContent).toBe('Upload canceled.');
    expect(screen.queryByRole('button', { name: 'Cancel' })).toBeNull();
  });
});

describe('Edit Model and Delete Model', () => {
  const model = { id: 'm1', uuid: 'm1', publicId: 'TWR-1', name: 'Survey', files: {}, metadata: { captureDate: '2025-06-01' } } as Model;

  it('validates the edit with each message and saves valid input', async () => {
    const saved: unknown[] = [];
    let closed = 0;
    render(<EditModelForm model={model} onSave={async (input) => void saved.push(input)} onClose={() => closed++} />);
    const fill = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });
    const save = () => fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    fill('Model Name', ' ');
    save();
    expect(screen.getByRole('alert').textContent).toBe('Model name is required');
    fill('Model Name', 'Survey 2');
    fill('Public ID', '');
    save();
    expect(screen.getByRole('alert').textContent).toBe('Public ID is required');
    fill('Public ID', 'TWR 1');
    save();
    expect(screen.getByRole('alert').textContent).toBe('Public ID can only contain letters, numbers, hyphens, and underscores');
    fill('Public ID', 'TWR-1_b');
    fill('Capture Date', '2025-02-30');
    save();
    expect(screen.getByRole('alert').textContent).toBe('Please enter a valid date');
    expect(saved).toEqual([]);
    fill('Capture Date', '2025-02-28');
    save();
    await act(() => Promise.resolve());
    expect(saved).toEqual([{ name: 'Survey 2', publicId: 'TWR-1_b', captureDate: '2025-02-28' }]);
    expect(closed).toBe(1);
  });

  it("refuses a mismatched name ('Model name doesn't match. Deletion canceled.') and reports a failure", async () => {
    const typedNames: string[] = [];
    render(
      <DeleteModelBox
        model={model}
        onClose={() => undefined}
        onDelete={async (typed) => {
          typedNames.push(typed);
          throw new Error('storage down');
        }}
      />,
    );
    fireEvent.change(screen.getByPlaceholderText('Type model name here...'), { target: { value: 'Surv' } });
    fireEvent.click(screen.getByRole('button', { name: 'Delete Model' }));
    expect(screen.getByRole('alert').textContent).toBe("Model name doesn't match. Deletion canceled.");
    expect(typedNames).toEqual([]);
    fireEvent.change(screen.getByPlaceholderText('Type model name here...'), { target: { value: ' Survey ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Delete Model' }));
    expect((await screen.findByText('Failed to delete model: storage down')).getAttribute('role')).toBe('alert');
    expect(typedNames).toEqual([' Survey ']);
  });
});
