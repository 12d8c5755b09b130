// Admin screens in jsdom: the reference picker refuses a hidden model, User Management lists and
// searches the accounts, Project Management never deletes a project with its models, Model
// Management says 'Failed to fetch model information.' when the model cannot be read, Edit Model
// says why a Public ID is refused, and the success message of a created project appears on the page navigated to.
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AppError, ErrorCode } from '@shared/errors.js';
import { adminGrantFailed, ModelMessages, noAccountWithUid, ProjectMessages, projectHasModels } from '@shared/messages.js';
import { publicIdInUse } from '@shared/validation/models.js';
import type { Model, Project } from '@shared/types.js';
import { createMemoryBackendAs } from '@shared/adapters/memory/index.js';
import { createTestBackend, MemoryApp } from '../../../components/testing/memory-app.js';
import { BackendProvider } from '../../../lib/backend-context.js';
import { success } from '../../../lib/resource.js';
import type { ListedUser } from '../api/list-users.js';
import { CreateProjectPage, EditProjectPage } from './admin-pages.js';
import { EditModelForm, ModelManagement } from './model-management.js';
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

describe('ReferencePicker refuses a hidden model', () => {
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

describe('User Management lists the accounts', () => {
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

  it("'Set as Admin' by UID shows 'Error setting admin role: No account with UID ….' for a UID without an account", async () => {
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
    expect((await within(form).findByRole('alert')).textContent).toBe(adminGrantFailed(noAccountWithUid('no-such-uid')));
    expect(adminGrantFailed(noAccountWithUid('no-such-uid'))).toBe('Error setting admin role: No account with UID no-such-uid.');
    expect(screen.getByText('No users yet.')).toBeTruthy();
  });
});

describe('Project Management never deletes a project with its models', () => {
  it("offers no 'Delete Project and Models'; Delete Project says at once that the project cannot be deleted", async () => {
    const deleted: string[] = [];
    render(
      <MemoryRouter>
        <ProjectPanel
          projects={[project]}
          selectedId="p1"
          onSelect={() => undefined}
          models={models}
          onUpdate={async () => undefined}
          onDelete={async (id) => {
            deleted.push(id);
            return project.name;
          }}
          onSetReference={async () => undefined}
        />
      </MemoryRouter>,
    );
    expect(screen.queryByRole('button', { name: /Delete Project and/ })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Delete Project' }));
    const refusal = screen.getByRole('alertdialog', { name: 'Delete Project' });
    expect(within(refusal).getByText(projectHasModels(3))).toBeTruthy();
    expect(screen.queryByPlaceholderText('Type project name here...')).toBeNull();
    expect(deleted).toEqual([]);
  });
});

describe('Model Management says which read failed', () => {
  it("shows 'Failed to fetch model information.' when the selected model's record cannot be read", async () => {
    const test = createTestBackend('admin', { projects: [project], models });
    test.fail('models', new AppError(ErrorCode.Internal, 'HTTP 500'));
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      render(
        <MemoryApp backend={test.backend} path="/admin/model-management?modelId=m1" pattern="/admin/model-management">
          <ModelManagement models={success(models)} />
        </MemoryApp>,
      );
      const region = await screen.findByText(ModelMessages.fetchModelFailed);
      expect(region.getAttribute('role')).toBe('alert');
    } finally {
      quiet.mockRestore();
    }
    expect(screen.queryByText(ModelMessages.loadFilesFailed)).toBeNull();
  });
});

describe('A Public ID the project already has', () => {
  it("Edit Model keeps the spec's failure message and adds the reason, with its full stop", async () => {
    render(
      <EditModelForm
        model={models[2]!}
        onSave={async () => Promise.reject(new AppError(ErrorCode.AlreadyExists, publicIdInUse('A')))}
        onClose={() => undefined}
      />,
    );
    fireEvent.change(screen.getByLabelText('Public ID'), { target: { value: 'A' } });
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      fireEvent.click(screen.getByRole('button', { name: 'Save' }));
      expect((await screen.findByRole('alert')).textContent).toBe(
        'Failed to update model information. Public ID A is already used in this project.',
      );
    } finally {
      quiet.mockRestore();
    }
  });
});

describe('A success message survives the navigation', () => {
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
