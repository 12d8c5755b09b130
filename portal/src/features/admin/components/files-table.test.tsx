import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { FileEntry } from '@shared/types.js';
import { FilesTable, pageButtons, type FilesTableProps } from './files-table.js';

afterEach(cleanup);

const main: FileEntry[] = [
  { path: 'models/u/model.ply', type: 'splat', size: 2048 },
  { path: 'models/u/model.glb', type: 'glb', size: 1024 },
];
const images = (n: number): FileEntry[] =>
  Array.from(
    { length: n },
    (_, i) => ({ path: `models/u/images/img-${String(i + 1).padStart(3, '0')}.jpg`, type: 'image', size: 10 }) as FileEntry,
  );

function setup(entries: FileEntry[], overrides: Partial<FilesTableProps> = {}) {
  const log: string[] = [];
  const questions: string[] = [];
  const answers: boolean[] = [];
  render(
    <FilesTable
      entries={entries}
      confirm={(q) => (questions.push(q), answers.shift() ?? true)}
      onDelete={async (path) => void log.push(`delete:${path}`)}
      onDeleteAll={async () => (log.push('deleteAll'), 3)}
      {...overrides}
    />,
  );
  return { log, questions, answers };
}

const rows = () => screen.getAllByRole('row').length - 1;

describe('FilesTable', () => {
  it('computes at most 5 page buttons around the current page', () => {
    expect(pageButtons(1, 3)).toEqual([1, 2, 3]);
    expect(pageButtons(1, 12)).toEqual([1, 2, 3, 4, 5]);
    expect(pageButtons(7, 12)).toEqual([5, 6, 7, 8, 9]);
    expect(pageButtons(12, 12)).toEqual([8, 9, 10, 11, 12]);
  });

  it('pages 25 rows per page with at most 5 page buttons, and shows search only above 10 files', () => {
    setup([...main, ...images(8)]);
    expect(rows()).toBe(10);
    expect(screen.queryByLabelText('Search files')).toBeNull();
    expect(screen.queryByRole('navigation', { name: 'Files pages' })).toBeNull();
    cleanup();
    setup([...main, ...images(200)]);
    expect(rows()).toBe(25);
    const nav = screen.getByRole('navigation', { name: 'Files pages' });
    expect(
      within(nav)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['Previous', '1', '2', '3', '4', '5', 'Next']);
    fireEvent.click(within(nav).getByRole('button', { name: '5' }));
    expect(
      within(nav)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['Previous', '3', '4', '5', '6', '7', 'Next']);
    expect(screen.getByText('img-099.jpg')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Search files'), { target: { value: 'IMG-15' } });
    expect(
      screen
        .getAllByRole('row')
        .slice(1)
        .map((r) => r.firstChild?.textContent),
    ).toEqual([
      'img-150.jpg',
      'img-151.jpg',
      'img-152.jpg',
      'img-153.jpg',
      'img-154.jpg',
      'img-155.jpg',
      'img-156.jpg',
      'img-157.jpg',
      'img-158.jpg',
      'img-159.jpg',
    ]);
  });

  it('refuses main files, deletes another after confirmation (decline does nothing) and reports failures', async () => {
    const fail = { current: false };
    const { log, questions, answers } = setup([...main, ...images(2)], {
      onDelete: async (path) => {
        if (fail.current) throw new Error('nope');
        log.push(`delete:${path}`);
      },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Delete model.ply' }));
    expect(screen.getByRole('alert').textContent).toBe('Cannot delete main model files. Delete the entire model instead.');
    fireEvent.click(screen.getByRole('button', { name: 'Delete model.glb' }));
    expect(questions).toEqual([]);
    answers.push(false);
    fireEvent.click(screen.getByRole('button', { name: 'Delete img-001.jpg' }));
    expect(questions).toEqual(['Are you sure you want to delete img-001.jpg?']);
    expect(log).toEqual([]);
    fireEvent.click(screen.getByRole('button', { name: 'Delete img-001.jpg' }));
    expect((await screen.findByRole('status')).textContent).toBe('File deleted successfully.');
    expect(log).toEqual(['delete:models/u/images/img-001.jpg']);
    fail.current = true;
    fireEvent.click(screen.getByRole('button', { name: 'Delete img-002.jpg' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Failed to delete file. Please try again.');
  });

  it('delete all: counts only images, thumbnails, assets and camera metadata; decline, confirm, nothing to delete, failure', async () => {
    const entries: FileEntry[] = [
      ...main,
      ...images(1),
      { path: 'models/u/images_thumbnails/t.jpg', type: 'thumbnail' },
      { path: 'models/u/camera-metadata.json', type: 'cameraMetadata' },
    ];
    const { log, questions, answers } = setup(entries);
    answers.push(false);
    fireEvent.click(screen.getByRole('button', { name: 'Delete All Files' }));
    expect(questions).toEqual(['Are you sure you want to delete all 3 files?']);
    expect(log).toEqual([]);
    fireEvent.click(screen.getByRole('button', { name: 'Delete All Files' }));
    expect((await screen.findByRole('status')).textContent).toBe('Successfully deleted 3 files.');
    expect(log).toEqual(['deleteAll']);
    cleanup();
    const second = setup(main);
    fireEvent.click(screen.getByRole('button', { name: 'Delete All Files' }));
    expect(screen.getByRole('alert').textContent).toBe('No files to delete.');
    expect(second.questions).toEqual([]);
    cleanup();
    setup(entries, { onDeleteAll: async () => Promise.reject(new Error('x')) });
    fireEvent.click(screen.getByRole('button', { name: 'Delete All Files' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Failed to delete all files. Please try again.');
  });
});
