import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AppError, ErrorCode } from '@shared/errors.js';
import type { Project } from '@shared/types.js';
import type { AddModelHooks, AddModelInput } from '@shared/workflows/index.js';
import { goodModelFile, htmlPageFile } from '../../../components/testing/model-files.js';
import { AddModelForm, type AddModelFormProps } from './add-model-form.js';

afterEach(cleanup);

const noRef = { id: 'p1', name: 'Mast' } as Project;
const withRef = { id: 'p2', name: 'Tower', reference_model_id: 'm0' } as Project;

function setup(overrides: Partial<AddModelFormProps> = {}) {
  const calls: Array<{ input: AddModelInput; hooks: AddModelHooks }> = [];
  const done: string[] = [];
  render(
    <AddModelForm
      project={noRef}
      onUpload={async (input, hooks) => void calls.push({ input, hooks })}
      confirmReplace={async () => true}
      onCancel={() => done.push('cancel')}
      onDone={() => done.push('done')}
      doneDelayMs={0}
      {...overrides}
    />,
  );
  return { calls, done };
}

/** Real model files by name (the immediate content check accepts them). */
const files = new Map<string, File>();
beforeAll(async () => {
  for (const name of ['scan.ply', 'scan.splat', 'mesh.glb']) files.set(name, await goodModelFile(name));
});

const pick = (label: string, name: string, file: File = files.get(name) as File) =>
  fireEvent.change(screen.getByLabelText(label), { target: { files: [file] } });
const fill = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });
const submit = () => fireEvent.click(screen.getByRole('button', { name: 'Upload Model' }));

describe('AddModelForm', () => {
  it('preselects the reference checkbox when the project has none, disables it when it has one; pickers accept the spec lists', () => {
    setup();
    const box = screen.getByRole('checkbox', { name: 'Set as Reference Model' }) as HTMLInputElement;
    expect([box.checked, box.disabled]).toEqual([true, false]);
    expect(screen.getByLabelText('Splat File (.splat, .ply)').getAttribute('accept')).toBe('.splat,.ply');
    expect(screen.getByLabelText('GLB File (.glb)').getAttribute('accept')).toBe('.glb');
    expect(screen.getAllByRole('radio').map((r) => r.parentElement?.textContent)).toEqual([
      'Hybrid (Splat + Mesh)',
      'Splat Only',
      'Mesh Only',
    ]);
    cleanup();
    setup({ project: withRef });
    const disabled = screen.getByRole('checkbox', { name: 'Set as Reference Model' }) as HTMLInputElement;
    expect([disabled.checked, disabled.disabled]).toEqual([false, true]);
  });

  it('validates by model type, then Public ID and Model Name, uploading nothing', async () => {
    const { calls } = setup();
    submit();
    expect((await screen.findByRole('alert')).textContent).toBe('Required file types are missing based on the selected model type.');
    fireEvent.click(screen.getByRole('radio', { name: 'Mesh Only' }));
    pick('Splat File (.splat, .ply)', 'scan.ply');
    submit();
    expect(screen.getByRole('alert').textContent).toBe('Required file types are missing based on the selected model type.');
    pick('GLB File (.glb)', 'mesh.glb');
    submit();
    expect(screen.getByRole('alert').textContent).toBe('Please enter Public ID and Model Name.');
    expect(calls).toEqual([]);
  });

  it('shows the four stages and per-file status, then the success message and navigation', async () => {
    let hooks: AddModelHooks = {};
    let finish: () => void = () => undefined;
    const { calls, done } = setup({
      onUpload: (input, h) => {
        hooks = h;
        calls.push({ input, hooks: h });
        return new Promise<void>((r) => (finish = r));
      },
    });
    fill('Public ID', 'M-1');
    fill('Model Name', 'Mast survey');
    fill('Capture Date', '2025-05-01');
    pick('Splat File (.splat, .ply)', 'scan.splat');
    submit();
    expect(calls[0]?.input).toMatchObject({
      projectId: 'p1',
      publicId: 'M-1',
      modelType: 'hybrid',
      captureDate: '2025-05-01',
      setAsReference: true,
    });
    expect(screen.getByRole('button', { name: 'Uploading...' })).toBeTruthy();
    act(() => {
      hooks.onStage?.('preparing');
      hooks.onFile?.('splat', 'waiting');
    });
    expect(screen.getByText('Waiting')).toBeTruthy();
    act(() => {
      hooks.onStage?.('uploading');
      hooks.onFile?.('splat', 'uploading', { bytesTransferred: 50, totalBytes: 200 });
    });
    expect(screen.getByText('Uploading 25%')).toBeTruthy();
    expect(screen.getByText('Uploading').getAttribute('data-state')).toBe('active');
    expect(screen.getByText('Preparing').getAttribute('data-state')).toBe('done');
    act(() => {
      hooks.onFile?.('splat', 'completed');
      hooks.onStage?.('processing');
      hooks.onStage?.('finalizing');
    });
    expect(screen.getByText('Completed')).toBeTruthy();
    await act(async () => finish());
    expect(screen.getByRole('status').textContent).toBe('✅ Model uploaded successfully!');
    expect(screen.getByText('Finalizing').getAttribute('data-state')).toBe('done');
    await act(() => new Promise((r) => setTimeout(r, 5)));
    expect(done).toEqual(['done']);
  });

  it("passes the replace-reference question through (yes and no) and shows 'An error occurred during upload: …'", async () => {
    const answers = [true, false];
    const seen: boolean[] = [];
    const { calls } = setup({
      confirmReplace: async () => answers.shift()!,
      onUpload: async (input, hooks) => {
        calls.push({ input, hooks });
        seen.push(await hooks.confirmReplaceReference!());
        if (seen.length === 2) throw new AppError(ErrorCode.Network, 'connection lost');
      },
    });
    fill('Public ID', 'M-1');
    fill('Model Name', 'Mast survey');
    pick('GLB File (.glb)', 'mesh.glb');
    submit();
    await screen.findByRole('status');
    cleanup();
    setup({
      confirmReplace: async () => answers.shift()!,
      onUpload: async (_input, hooks) => {
        seen.push(await hooks.confirmReplaceReference!());
        throw new AppError(ErrorCode.Network, 'connection lost');
      },
    });
    fill('Public ID', 'M-1');
    fill('Model Name', 'Mast survey');
    pick('GLB File (.glb)', 'mesh.glb');
    submit();
    expect((await screen.findByRole('alert')).textContent).toBe('An error occurred during upload: connection lost');
    expect(seen).toEqual([true, false]);
  });

  it("Cancel goes back when idle and aborts a running upload: 'Upload canceled.', not an error text", async () => {
    let signal: AbortSignal | undefined;
    const { done } = setup({
      onUpload: (_input, hooks) => {
        signal = hooks.signal;
        return new Promise((_, reject) =>
          hooks.signal?.addEventListener('abort', () => reject(new AppError(ErrorCode.Canceled, 'Upload canceled'))),
        );
      },
    });
    fill('Public ID', 'M-1');
    fill('Model Name', 'Mast survey');
    pick('GLB File (.glb)', 'mesh.glb');
    submit();
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(signal?.aborted).toBe(true);
    expect((await screen.findByRole('alert')).textContent).toBe('Upload canceled.');
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(done).toEqual(['cancel']);
  });

  it("shows a chosen file's content problem under its picker at once; the upload still goes to the workflow", async () => {
    const { calls } = setup();
    fill('Public ID', 'M-1');
    fill('Model Name', 'Mast survey');
    pick('GLB File (.glb)', 'html-named.glb', htmlPageFile('html-named.glb'));
    const problem = await screen.findByRole('alert');
    expect(problem.textContent).toBe('This .glb is an HTML page, not a GLB file (html-named.glb).');
    expect(screen.getByLabelText('GLB File (.glb)').getAttribute('aria-describedby')).toBe(problem.id);
    pick('Splat File (.splat, .ply)', 'scan.ply');
    await act(() => new Promise((r) => setTimeout(r, 20)));
    expect(screen.getAllByRole('alert')).toHaveLength(1);
    pick('GLB File (.glb)', 'mesh.glb');
    await act(() => new Promise((r) => setTimeout(r, 50)));
    expect(screen.queryAllByRole('alert')).toEqual([]);
    submit();
    expect(calls.map((c) => c.input.files.glb?.name)).toEqual(['mesh.glb']);
  });
});

describe('AddModelForm for keyboard and screen readers', () => {
  const invalid = () =>
    [...document.querySelectorAll('[aria-invalid="true"]')].map((el) => (el as HTMLInputElement).labels?.[0]?.textContent ?? el.id);

  it('marks the fields a refusal is about aria-invalid, described by the message, and focuses the first', async () => {
    setup();
    fireEvent.click(screen.getByRole('radio', { name: 'Mesh Only' }));
    submit();
    await screen.findByRole('alert');
    expect(invalid()).toEqual(['GLB File (.glb)']);
    const glb = screen.getByLabelText('GLB File (.glb)');
    expect(document.activeElement).toBe(glb);
    const message = document.getElementById(glb.getAttribute('aria-describedby') ?? '');
    expect(message?.textContent).toBe('Required file types are missing based on the selected model type.');
    pick('GLB File (.glb)', 'mesh.glb');
    fill('Model Name', 'Survey');
    submit();
    expect(screen.getByRole('alert').textContent).toBe('Please enter Public ID and Model Name.');
    expect(invalid()).toEqual(['Public ID']);
    expect(document.activeElement).toBe(screen.getByLabelText('Public ID'));
    fill('Public ID', 'TWR 1');
    submit();
    expect(invalid()).toEqual(['Public ID']);
    fill('Public ID', 'TWR-1');
    submit();
    await screen.findByRole('status');
    expect(invalid()).toEqual([]);
  });

  it('has the polite progress region and the result regions in the page before anything happens', () => {
    setup();
    expect(screen.getByTestId('upload-announcement').getAttribute('aria-live')).toBe('polite');
    expect(screen.getByTestId('upload-announcement').textContent).toBe('');
    expect(document.querySelectorAll('.live-banner [aria-live]')).toHaveLength(2);
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
