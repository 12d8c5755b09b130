/** The upload progress for screen readers: named progress bars and milestone announcements. */
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { UploadProgressPanel, milestoneOf, uploadAnnouncement, type FileProgress } from './upload-progress.js';

afterEach(cleanup);

const STAGES = ['preparing', 'uploading', 'processing', 'finalizing'] as const;
const uploading = (bytes: number, total = 100): FileProgress => ({
  status: 'uploading',
  progress: { bytesTransferred: bytes, totalBytes: total } as FileProgress['progress'],
});

describe('upload announcements', () => {
  it('says nothing before the start, then the stage, quarter milestones only, and the end', () => {
    expect(uploadAnnouncement(STAGES, null, new Map(), false)).toBe('');
    expect(uploadAnnouncement(STAGES, 'preparing', new Map(), false)).toBe('Preparing (step 1 of 4).');
    const at = (bytes: number) => uploadAnnouncement(STAGES, 'uploading', new Map([['splat', uploading(bytes)]]), false);
    expect(at(0)).toBe('Uploading (step 2 of 4): splat 0% uploaded.');
    // not every percent: the text (and so the announcement) changes at 25, 50, 75
    expect(at(24)).toBe(at(1));
    expect(at(26)).toBe('Uploading (step 2 of 4): splat 25% uploaded.');
    expect(at(49)).toBe(at(26));
    expect(at(75)).toBe('Uploading (step 2 of 4): splat 75% uploaded.');
    const two = new Map<string, FileProgress>([
      ['splat', { status: 'completed' }],
      ['glb', { status: 'error' }],
    ]);
    expect(uploadAnnouncement(STAGES, 'uploading', two, false)).toBe('Uploading (step 2 of 4): splat completed, glb error.');
    expect(uploadAnnouncement(STAGES, 'finalizing', two, true)).toBe('Upload complete.');
    expect(milestoneOf({ status: 'completed' })).toBe(100);
  });

  it('renders the polite region before the upload and a named progress bar with its value text per uploading file', () => {
    const { rerender } = render(<UploadProgressPanel stages={STAGES} current={null} files={new Map()} />);
    const region = screen.getByTestId('upload-announcement');
    expect([region.getAttribute('aria-live'), region.textContent]).toEqual(['polite', '']);
    rerender(<UploadProgressPanel stages={STAGES} current="uploading" files={new Map([['glb', uploading(40)]])} />);
    const bar = screen.getByRole('progressbar', { name: 'glb upload' });
    expect(bar.getAttribute('aria-valuetext')).toBe('40% uploaded');
    expect((bar as HTMLProgressElement).value).toBe(40);
    // the same element announces
    expect(screen.getByTestId('upload-announcement')).toBe(region);
    expect(region.textContent).toBe('Uploading (step 2 of 4): glb 25% uploaded.');
    expect(screen.getByText('Uploading').getAttribute('aria-current')).toBe('step');
  });
});
