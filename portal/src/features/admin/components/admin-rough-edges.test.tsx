// Issue 17's admin fixes in jsdom: the reference picker refuses a hidden model, User Management
// lists and searches the accounts, 'Delete Project and Models' takes one typed name, and the
// success message of a created project appears on the page navigated to.
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { afterEach, describe, expect, it } from 'vitest';
import { AppError, ErrorCode } from '@shared/errors.js';
import { noAccountWithUid, ProjectMessages, projectDeletedWithModels, projectDeleteWithModelsWarning } from '@shared/messages.js';
import type { Model, Project } from '@shared/types.js';
import { createMemoryBackendAs } from '@shared/adapters/memory/index.js';
import { BackendProvider } from '../../../lib/backend-context.js';
import { success } from '../../../lib/resource.js';
import type { ListedUser } from '../api/list-users.js';
import { CreateProjectPage, EditProjectPage } from './admin-pages.js';
import { ProjectPanel } from './project-management.js';
import { ReferencePicker } from './reference-picker.js';
import { UserManagement, matchesUser } from './user-management.js';

afterEach(cleanup);

const project = { id: 'p1', name: 'North Tower', reference_model_id: 'm1', created_at: '2025-01-02T03:04:05Z' } as Project;
const models = [
  { id: 'm1', publicId: 'A', name: 'Survey A', isReference: true, files: {} } as Model,
  { id: 'm2', publicId: 'B', name: 'Survey B', visible: false, files: {} } as Model,
  { id: 'm3', publicId: 'C', name: 'Survey C', files: {} } as Model,
];

describe('ReferencePicker refuses a hidden model (issue 17)', () => {
  it("marks it 'Hidden' and answers 'A hidden model cannot be the reference model. Unhide it first.' without writing", async () => {
    const calls: string[] = [];
    render(
      <MemoryRouter>
        <ReferencePicker project={project} models={models} onSetReference={async (id) => void calls.push(id)} />
      </MemoryRouter>,
    );
    const hiddenRow = screen.getByText('Survey B').closest('tr')!;
    expect(within(hiddenRow).getByText('Hidden')).toBeTruthy();
    fireEvent.click(within(hiddenRow).getByRole('button', { name: 'Set as Reference for B' }));
    expect((await screen.findByRole('alert')).textContent).toBe(ProjectMessages.hiddenReference);
    expect(calls).toEqual([]);
    // a visible model goes to the workflow; the workflow's own refusal is shown as it is
    fireEvent.click(within(screen.getByText('Survey C').closest('tr')!).getByRole('button', { name: 'Set as Reference for C' }));
    expect((await screen.findByRole('status')).textContent).toBe(ProjectMessages.referenceUpdated);
    expect(calls).toEqual(['m3']);
  });

  it("shows the workflow's failed-precondition message (another caller hid the model meanwhile)", async () => {
    render(
      <MemoryRouter>
        <ReferencePicker
          project={project}
          models={[models[0]!, models[2]!]}
          onSetReference={async () => Promise.reject(new AppError(ErrorCode.FailedPrecondition, ProjectMessages.hiddenReference))}
        />
      </MemoryRouter>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Set as Reference for C' }));
    expect((await screen.findByRole('alert')).textContent).toBe(ProjectMessages.hiddenReference);
  });
});

const USERS: ListedUser[] = [
  { uid: 'uid-admin-1', email: 'admin@demo.lab', role: 'admin', admin: true, allowlisted: true },
  { uid: 'uid-user-2', email: 'user@demo.lab', role: 'user', admin: false, allowlisted: false },
  { uid: 'uid-field-3', email: 'field@lab.example', role: 'user', admin: false, allowlisted: false },
];

describe('User Management lists the accounts (issue 17)', () => {
  it('shows email, UID, role and admin flag under Manage Roles, searches by email or UID, and sets a row as admin', async () => {
    const granted: string[] = [];
    render(
      <UserManagement
        users={success(USERS)}
        onRegister={async () => undefined}
        onGrant={async (uid) => void granted.push(uid)}
        onSignOut={() => undefined}
      />,
    );
    fireEvent.click(screen.getByRole('tab', { name: 'Manage Roles' }));
    const list = screen.getByRole('region', { name: 'Accounts' });
    expect(within(list).getByRole('heading', { name: 'Accounts (3)' })).toBeTruthy();
    const rows = () =>
      within(list)
        .queryAllByTestId('user-row')
        .map((r) => [...r.querySelectorAll('td')].slice(0, 4).map((td) => td.textContent));
    expect(rows()).toEqual([
      ['admin@demo.lab', 'uid-admin-1', 'admin', 'Yes Allowlisted'],
      ['user@demo.lab', 'uid-user-2', 'user', 'No'],
      ['field@lab.example', 'uid-field-3', 'user', 'No'],
    ]);
    fireEvent.change(within(list).getByLabelText('Search users'), { target: { value: 'FIELD' } });
    expect(rows().map((r) => r[0])).toEqual(['field@lab.example']);
    fireEvent.change(within(list).getByLabelText('Search users'), { target: { value: 'uid-user' } });
    expect(rows().map((r) => r[0])).toEqual(['user@demo.lab']);
    fireEvent.click(within(list).getByRole('button', { name: 'Set as Admin for user@demo.lab' }));
    expect((await within(list).findByRole('status')).textContent).toMatch(/^User user@demo.lab has been set as admin/);
    expect(granted).toEqual(['uid-user-2']);
    fireEvent.change(within(list).getByLabelText('Search users'), { target: { value: 'nobody' } });
    expect(within(list).getByText('No users match the search.')).toBeTruthy();
    expect(matchesUser({ email: null, uid: 'abc' }, 'B')).toBe(true);
  });

  it("'Set as Admin' by UID shows 'No account with UID …' for a UID without an account", async () => {
    render(
      <UserManagement
        users={success([])}
        onRegister={async () => undefined}
        onGrant={async (uid) => Promise.reject(new AppError(ErrorCode.NotFound, noAccountWithUid(uid)))}
        onSignOut={() => undefined}
      />,
    );
    fireEvent.click(screen.getByRole('tab', { name: 'Manage Roles' }));
    const form = screen.getByRole('form', { name: 'Manage Roles' });
    fireEvent.change(within(form).getByLabelText('User ID (UID)'), { target: { value: 'no-such-uid' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Set as Admin' }));
    expect((await within(form).findByRole('alert')).textContent).toBe('No account with UID no-such-uid.');
    expect(screen.getByText('No users yet.')).toBeTruthy();
  });
});

describe("'Delete Project and Models' (issue 17)", () => {
  it('is offered only with models, takes one typed name, reports progress and the result', async () => {
    const calls: string[] = [];
    let selected: string | null = 'p1';
    const view = render(
      <MemoryRouter>
        <ProjectPanel
          projects={[project]}
          selectedId={selected}
          onSelect={(id) => void (selected = id)}
          models={models}
          onUpdate={async () => undefined}
          onDelete={async () => 'x'}
          onSetReference={async () => undefined}
          onDeleteWithModels={async (id, typed, onProgress) => {
            calls.push(`${id}:${typed}`);
            onProgress?.({ modelsDeleted: 3, models: 3 });
            return { name: project.name, modelsDeleted: 3 };
          }}
        />
      </MemoryRouter>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Delete Project and Models' }));
    const box = screen.getByRole('dialog', { name: 'Delete Project and All Its Models' });
    expect(within(box).getByText(projectDeleteWithModelsWarning(3))).toBeTruthy();
    expect(screen.queryByRole('region', { name: 'Project Models' })).toBeNull();
    const confirm = within(box).getByRole('button', { name: 'Delete Project and Models' });
    expect((confirm as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(within(box).getByPlaceholderText('Type project name here...'), { target: { value: ' North Tower ' } });
    fireEvent.click(confirm);
    expect((await screen.findByText(projectDeletedWithModels('North Tower', 3))).getAttribute('role')).toBe('status');
    expect(calls).toEqual(['p1: North Tower ']);
    expect(selected).toBeNull();
    view.unmount();

    // a project without models does not offer it
    render(
      <MemoryRouter>
        <ProjectPanel
          projects={[project]}
          selectedId="p1"
          onSelect={() => undefined}
          models={[]}
          onUpdate={async () => undefined}
          onDelete={async () => 'x'}
          onSetReference={async () => undefined}
          onDeleteWithModels={async () => ({ name: '', modelsDeleted: 0 })}
        />
      </MemoryRouter>,
    );
    expect(screen.queryByRole('button', { name: 'Delete Project and Models' })).toBeNull();
  });
});

describe('A success message survives the navigation (issue 17)', () => {
  it("shows 'Project created successfully!' on the edit page the creation navigates to", async () => {
    const backend = createMemoryBackendAs('admin');
    function Edit() {
      return <EditProjectPage project={success(project)} models={success([])} />;
    }
    render(
      <BackendProvider backend={backend}>
        <MemoryRouter initialEntries={['/admin/projects']}>
          <Routes>
            <Route path="/admin/projects" element={<CreateProjectPage />} />
            <Route path="/admin/projects/:projectId" element={<Edit />} />
          </Routes>
        </MemoryRouter>
      </BackendProvider>,
    );
    fireEvent.change(screen.getByLabelText('Project Name'), { target: { value: 'North Tower' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create Project' }));
    expect((await screen.findByText(ProjectMessages.created)).getAttribute('role')).toBe('status');
    expect(screen.getAllByRole('heading', { name: 'Edit Project' }).length).toBeGreaterThan(0);
  });
});
