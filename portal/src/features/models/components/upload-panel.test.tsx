import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { act } from 'react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AppError, ErrorCode } from '@shared/errors.js';
import { validateListUpload } from '@shared/validation/models.js';
import type { Project } from '@shared/types.js';
import { goodModelFile, htmlPageFile } from '../../../components/testing/model-files.js';
import type { ListUploadForm } from '../api/upload-model.js';
import { modelTypeForFiles } from '../api/upload-model.js';
import { UploadPanel } from './upload-panel.js';

afterEach(cleanup);

const projects: Project[] = [
  { id: 'p1', name: 'Tower', structure_id: 'TWR-001', description: '', slug: 't' },
  { id: 'p2', name: 'Bridge', structure_id: 'BRG-002', description: '', slug: 'b' },
];

/** The real validation, then a recorded (or failing) upload. */
function uploader(fail?: Error) {
  const sent: ListUploadForm[] = [];
  const onUpload = async (form: ListUploadForm) => {
    const checked = validateListUpload({
      publicId: form.publicId,
      name: form.name,
      hasSplat: form.splat !== null,
      hasGlb: form.glb !== null,
    });
    if (!checked.ok) throw new AppError(ErrorCode.InvalidArgument, checked.message);
    if (fail) throw fail;
    sent.push(form);
  };
  return { sent, onUpload };
}

/** Real model files by name (the immediate content check accepts them). */
const files = new Map<string, File>();
beforeAll(async () => {
  for (const name of ['scan.ply', 'm.glb']) files.set(name, await goodModelFile(name));
});
const file = (name: string) => files.get(name) as File;
const upload = () => fireEvent.click(screen.getByRole('button', { name: 'Upload' }));

describe('UploadPanel', () => {
  it('accepts .splat/.ply for the splat input and .glb for the GLB input', () => {
    render(<UploadPanel projects={projects} onUpload={async () => undefined} />);
    expect(screen.getByLabelText('Splat file (.splat, .ply)').getAttribute('accept')).toBe('.splat,.ply');
    expect(screen.getByLabelText('GLB file (.glb)').getAttribute('accept')).toBe('.glb');
  });

  it('asks for a file first, then for publicId and name, and uploads nothing', async () => {
    const { sent, onUpload } = uploader();
    render(<UploadPanel projects={projects} onUpload={onUpload} />);
    upload();
    expect((await screen.findByRole('alert')).textContent).toBe('At least one file (splat or glb) is required.');
    fireEvent.change(screen.getByLabelText('GLB file (.glb)'), { target: { files: [file('m.glb')] } });
    fireEvent.change(screen.getByLabelText('publicId'), { target: { value: 'TWR-9' } });
    upload();
    expect((await screen.findByText('Please enter publicId and name.')).getAttribute('role')).toBe('alert');
    expect(sent).toEqual([]);
  });

  it("uploads into the chosen project, says 'Model uploaded successfully!' and clears the form", async () => {
    const { sent, onUpload } = uploader();
    render(<UploadPanel projects={projects} onUpload={onUpload} />);
    fireEvent.change(screen.getByLabelText('Project'), { target: { value: 'p2' } });
    fireEvent.change(screen.getByLabelText('Splat file (.splat, .ply)'), { target: { files: [file('scan.ply')] } });
    fireEvent.change(screen.getByLabelText('publicId'), { target: { value: 'BRG-2025' } });
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'Spring scan' } });
    upload();
    expect(await screen.findByText('Model uploaded successfully!')).toBeTruthy();
    expect(sent.map((f) => [f.projectId, f.publicId, f.name, f.splat?.name, f.glb])).toEqual([
      ['p2', 'BRG-2025', 'Spring scan', 'scan.ply', null],
    ]);
    expect((screen.getByLabelText('publicId') as HTMLInputElement).value).toBe('');
    expect((screen.getByLabelText('Name') as HTMLInputElement).value).toBe('');
  });

  it("shows 'An error occurred during upload.' when the upload fails", async () => {
    const original = console.error;
    console.error = () => undefined;
    const { onUpload } = uploader(new Error('network down'));
    render(<UploadPanel projects={projects} onUpload={onUpload} />);
    fireEvent.change(screen.getByLabelText('GLB file (.glb)'), { target: { files: [file('m.glb')] } });
    fireEvent.change(screen.getByLabelText('publicId'), { target: { value: 'X' } });
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'Y' } });
    upload();
    expect((await screen.findByRole('alert')).textContent).toBe('An error occurred during upload.');
    expect((screen.getByLabelText('publicId') as HTMLInputElement).value).toBe('X');
    console.error = original;
  });

  it("cancels a running upload with 'Cancel': 'Upload canceled.', not an upload error", async () => {
    let seen: AbortSignal | undefined;
    const onUpload = (form: ListUploadForm) =>
      new Promise<void>((_resolve, reject) => {
        seen = form.signal;
        form.signal?.addEventListener('abort', () => reject(new AppError(ErrorCode.Canceled, 'The upload was canceled')));
      });
    render(<UploadPanel projects={projects} onUpload={onUpload} />);
    fireEvent.change(screen.getByLabelText('GLB file (.glb)'), { target: { files: [file('m.glb')] } });
    fireEvent.change(screen.getByLabelText('publicId'), { target: { value: 'X' } });
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'Y' } });
    upload();
    fireEvent.click(await screen.findByRole('button', { name: 'Cancel' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Upload canceled.');
    expect(seen?.aborted).toBe(true);
    expect(screen.queryByText(/An error occurred/)).toBeNull();
    expect(screen.queryByRole('button', { name: 'Cancel' })).toBeNull();
  });

  it("shows a chosen file's content problem under its input at once, and a Public ID clash's message", async () => {
    const { sent, onUpload } = uploader(new AppError(ErrorCode.AlreadyExists, 'Public ID TWR-9 is already used in this project.'));
    render(<UploadPanel projects={projects} onUpload={onUpload} />);
    fireEvent.change(screen.getByLabelText('Splat file (.splat, .ply)'), { target: { files: [htmlPageFile('point_cloud.ply')] } });
    const problem = await screen.findByRole('alert');
    expect(problem.textContent).toBe('This .ply is an HTML page, not a PLY file (point_cloud.ply).');
    expect(screen.getByLabelText('Splat file (.splat, .ply)').getAttribute('aria-describedby')).toBe(problem.id);
    fireEvent.change(screen.getByLabelText('Splat file (.splat, .ply)'), { target: { files: [file('scan.ply')] } });
    await act(() => new Promise((r) => setTimeout(r, 50)));
    expect(screen.queryAllByRole('alert')).toEqual([]);
    fireEvent.change(screen.getByLabelText('publicId'), { target: { value: 'TWR-9' } });
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'Again' } });
    upload();
    expect((await screen.findByRole('alert')).textContent).toBe('Public ID TWR-9 is already used in this project.');
    expect(sent).toEqual([]);
  });

  it('derives the model type from the files', () => {
    expect(modelTypeForFiles(true, true)).toBe('hybrid');
    expect(modelTypeForFiles(true, false)).toBe('splat');
    expect(modelTypeForFiles(false, true)).toBe('mesh');
  });
});
