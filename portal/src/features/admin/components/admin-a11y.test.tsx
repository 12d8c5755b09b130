/**
 * The admin screens for keyboard and screen-reader users: refused fields marked and
 * focused, the delete dialog's focus after a delete, result regions present before the message,
 * the User Management tabs, the pick list's states.
 */
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, describe, expect, it } from 'vitest';
import { AppError, ErrorCode } from '@shared/errors.js';
import { FormMessages, ValidationMessages, projectHasModels } from '@shared/messages.js';
import type { Model, Project } from '@shared/types.js';
import { EditModelForm } from './model-management.js';
import { ProjectForm } from './project-form.js';
import { ProjectPanel } from './project-management.js';
import { UserManagement } from './user-management.js';

afterEach(cleanup);

/** The labels of the controls marked aria-invalid, in document order. */
const invalidFields = () =>
  [...document.querySelectorAll<HTMLInputElement>('[aria-invalid="true"]')].map(
    (el) => el.labels?.[0]?.querySelector('.field-label')?.textContent,
  );

/** The text of the element describing `el`. */
const descriptionOf = (el: Element) =>
  (el.getAttribute('aria-describedby') ?? '')
    .split(' ')
    .map((id) => document.getElementById(id)?.textContent ?? '')
    .join(' ');

describe('refused form fields (WCAG 3.3.1)', () => {
  it('ProjectForm marks the field of the message, describes it with the message and focuses it', async () => {
    render(<ProjectForm onSubmit={async () => undefined} />);
    fireEvent.click(screen.getByRole('button', { name: 'Create Project' }));
    await screen.findByRole('alert');
    const name = screen.getByLabelText('Project Name');
    expect(invalidFields()).toEqual(['Project Name']);
    expect(descriptionOf(name)).toBe(ValidationMessages.projectNameEmpty);
    expect(document.activeElement).toBe(name);
    fireEvent.change(name, { target: { value: 'North Tower' } });
    fireEvent.change(screen.getByLabelText('Longitude'), { target: { value: 'west' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create Project' }));
    expect(screen.getByRole('alert').textContent).toBe(FormMessages.projectLongitudeInvalid);
    expect(invalidFields()).toEqual(['Longitude']);
    expect(name.hasAttribute('aria-invalid')).toBe(false);
    expect(document.activeElement).toBe(screen.getByLabelText('Longitude'));
    fireEvent.change(screen.getByLabelText('Longitude'), { target: { value: '-80.5' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create Project' }));
    await screen.findByRole('status');
    expect(invalidFields()).toEqual([]);
  });

  it('EditModelForm marks and focuses the capture date', () => {
    const model = { id: 'm1', publicId: 'TWR-1', name: 'Survey', files: {} } as Model;
    render(<EditModelForm model={model} onSave={async () => undefined} onClose={() => undefined} />);
    fireEvent.change(screen.getByLabelText('Capture Date'), { target: { value: '2025-02-30' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(invalidFields()).toEqual(['Capture Date']);
    expect(document.activeElement).toBe(screen.getByLabelText('Capture Date'));
    expect(descriptionOf(screen.getByLabelText('Capture Date'))).toBe(ValidationMessages.invalidDate);
  });

  it('Register User marks the empty fields and focuses the first; a short password marks only the password', () => {
    render(<UserManagement onRegister={async () => undefined} onGrant={async () => undefined} onSignOut={() => undefined} />);
    fireEvent.click(screen.getByRole('button', { name: 'Register User' }));
    expect(invalidFields()).toEqual(['Email', 'Password']);
    expect(document.activeElement).toBe(screen.getByLabelText('Email'));
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'new@demo.lab' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: '123' } });
    fireEvent.click(screen.getByRole('button', { name: 'Register User' }));
    expect(invalidFields()).toEqual(['Password']);
    expect(document.activeElement).toBe(screen.getByLabelText('Password'));
    expect(descriptionOf(screen.getByLabelText('Password'))).toBe(ValidationMessages.registerPasswordShort);
  });
});

describe('User Management tabs', () => {
  it('is a tablist: one tab in the Tab order, arrows and Home/End select and focus, the panel is labelled by its tab', () => {
    render(<UserManagement onRegister={async () => undefined} onGrant={async () => undefined} onSignOut={() => undefined} />);
    const [register, roles] = screen.getAllByRole('tab') as [HTMLElement, HTMLElement];
    expect([register.tabIndex, roles.tabIndex]).toEqual([0, -1]);
    expect(screen.getByRole('tabpanel', { name: 'Register User' })).toBeTruthy();
    register.focus();
    fireEvent.keyDown(register, { key: 'ArrowRight' });
    expect(document.activeElement).toBe(roles);
    expect(roles.getAttribute('aria-selected')).toBe('true');
    expect([register.tabIndex, roles.tabIndex]).toEqual([-1, 0]);
    const panel = screen.getByRole('tabpanel', { name: 'Manage Roles' });
    expect(roles.getAttribute('aria-controls')).toBe(panel.id);
    expect(within(panel).getByRole('form', { name: 'Manage Roles' })).toBeTruthy();
    fireEvent.keyDown(roles, { key: 'ArrowRight' });
    expect(document.activeElement).toBe(register);
    fireEvent.keyDown(register, { key: 'End' });
    expect(document.activeElement).toBe(roles);
    fireEvent.keyDown(roles, { key: 'Home' });
    expect(document.activeElement).toBe(register);
  });
});

describe('Project Management by keyboard', () => {
  const project = { id: 'p1', name: 'North Tower', structure_id: 'TWR-001', created_at: '2025-01-02T03:04:05Z' } as Project;
  const other = { id: 'p2', name: 'Bare Mast', created_at: '2025-01-02T03:04:05Z' } as Project;

  function renderPanel(onDelete: () => Promise<string>) {
    let selectedId: string | null = 'p1';
    const panel = () => (
      <MemoryRouter>
        <ProjectPanel
          projects={[project, other]}
          selectedId={selectedId}
          onSelect={(id) => {
            selectedId = id;
            view.rerender(panel());
          }}
          models={[]}
          onUpdate={async () => undefined}
          onDelete={onDelete}
          onSetReference={async () => undefined}
        />
      </MemoryRouter>
    );
    const view = render(panel());
  }

  it('has its result regions before a message; a blocked delete is announced and the focus goes back to Delete Project', async () => {
    renderPanel(() => Promise.reject(new AppError(ErrorCode.FailedPrecondition, projectHasModels(2))));
    const regions = document.querySelectorAll('.management-banner [aria-live]');
    expect([...regions].map((r) => r.getAttribute('aria-live'))).toEqual(['polite', 'assertive']);
    const opener = screen.getByRole('button', { name: 'Delete Project' });
    opener.focus();
    fireEvent.click(opener);
    const input = screen.getByPlaceholderText('Type project name here...');
    expect(document.activeElement).toBe(input);
    fireEvent.change(input, { target: { value: 'North Tower' } });
    fireEvent.keyDown(input, { key: 'Enter' });
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe(projectHasModels(2));
    // the same region that was there before
    expect(alert.parentElement).toBe(regions[1]);
    expect(document.activeElement).toBe(opener);
  });

  it('after a delete the list title takes the focus (the project and its buttons are gone)', async () => {
    renderPanel(async () => 'North Tower');
    const opener = screen.getByRole('button', { name: 'Delete North Tower' });
    opener.focus();
    fireEvent.click(opener);
    fireEvent.change(screen.getByPlaceholderText('Type project name here...'), { target: { value: 'North Tower' } });
    fireEvent.click(screen.getByRole('button', { name: 'Delete Permanently' }));
    await act(() => Promise.resolve());
    await screen.findByRole('status');
    // the selection is cleared: the project's panel and its buttons are gone
    expect(screen.queryByRole('button', { name: 'Delete Project' })).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole('heading', { name: 'Project Management' }));
  });

  it('marks the selected item and the sort in force', () => {
    renderPanel(async () => 'x');
    expect(screen.getByRole('button', { name: /^North Tower/ }).getAttribute('aria-current')).toBe('true');
    expect(screen.getByRole('button', { name: /^Bare Mast/ }).hasAttribute('aria-current')).toBe(false);
    expect(screen.getByRole('button', { name: 'ID' }).getAttribute('aria-pressed')).toBe('true');
    fireEvent.click(screen.getByRole('button', { name: 'Name' }));
    expect(screen.getByRole('button', { name: 'Name' }).getAttribute('aria-pressed')).toBe('true');
    expect(screen.getByRole('button', { name: 'ID' }).getAttribute('aria-pressed')).toBe('false');
  });
});
