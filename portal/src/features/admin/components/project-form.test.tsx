import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { FormMessages, ValidationMessages } from '@shared/messages.js';
import type { Project } from '@shared/types.js';
import type { ProjectFormInput } from '@shared/validation/project-form.js';
import { ProjectForm } from './project-form.js';

afterEach(cleanup);

const type = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });

describe('ProjectForm', () => {
  it('generates the slug from the name until one is typed, and refuses bad input with the messages, writing nothing', async () => {
    const saved: ProjectFormInput[] = [];
    render(<ProjectForm onSubmit={async (input) => void saved.push(input)} />);
    expect(screen.getByRole('heading', { name: 'Create Project' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Create Project' }));
    expect((await screen.findByRole('alert')).textContent).toBe(ValidationMessages.projectNameEmpty);
    type('Project Name', 'North Ridge Tower 2');
    expect((screen.getByLabelText('URL Slug') as HTMLInputElement).value).toBe('north-ridge-tower-2');
    type('Map URL', 'not a url');
    fireEvent.click(screen.getByRole('button', { name: 'Create Project' }));
    expect((await screen.findByRole('alert')).textContent).toBe(FormMessages.projectMapUrlInvalid);
    type('Map URL', 'https://maps.example/x');
    type('Latitude', '43.4a');
    fireEvent.click(screen.getByRole('button', { name: 'Create Project' }));
    expect((await screen.findByRole('alert')).textContent).toBe(FormMessages.projectLatitudeInvalid);
    type('Latitude', '43.4');
    type('Longitude', 'west');
    fireEvent.click(screen.getByRole('button', { name: 'Create Project' }));
    expect((await screen.findByRole('alert')).textContent).toBe(FormMessages.projectLongitudeInvalid);
    expect(saved).toEqual([]);
    type('Longitude', '');
    type('URL Slug', 'My Custom Slug');
    type('Project Name', 'Renamed');
    expect((screen.getByLabelText('URL Slug') as HTMLInputElement).value).toBe('My Custom Slug');
    fireEvent.click(screen.getByRole('button', { name: 'Create Project' }));
    expect((await screen.findByRole('status')).textContent).toBe('Project created successfully!');
    expect(saved).toHaveLength(1);
    expect(saved[0]).toMatchObject({ name: 'Renamed', slug: 'My Custom Slug', lat: '43.4', lng: '' });
  });

  it("edits with Cancel and reports 'Failed to save project: …' on a failure", async () => {
    const project = { id: 'p1', name: 'Mast', structure_id: 'M-1', slug: 'mast', location: { lat: 1, lng: 2 } } as Project;
    let cancelled = 0;
    render(<ProjectForm project={project} onSubmit={async () => Promise.reject(new Error('denied'))} onCancel={() => cancelled++} />);
    expect(screen.getByRole('heading', { name: 'Edit Project' })).toBeTruthy();
    expect((screen.getByLabelText('Latitude') as HTMLInputElement).value).toBe('1');
    fireEvent.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Failed to save project: denied');
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(cancelled).toBe(1);
  });
});
