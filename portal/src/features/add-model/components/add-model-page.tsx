/**
 * The add-model page body shared by /projects/{projectId}/add-model and
 * /admin/models/add/{projectId} (SPEC.md §2): loads the project ('Project not found!' alert and
 * redirect to /projects when it does not exist), then the form wired to the shared `addModel`
 * workflow with the §4 replace-reference prompt.
 */
import { useEffect, useRef, type ReactNode } from 'react';
import { useNavigate } from 'react-router-dom';
import { ProjectMessages } from '@shared/messages.js';
import type { Project } from '@shared/types.js';
import { addModel } from '@shared/workflows/index.js';
import { LoadingState } from '../../../components/ui/spinner.js';
import { paths } from '../../../config/paths.js';
import { useBackend } from '../../../lib/backend-context.js';
import { useProject } from '../../projects/api/use-project.js';
import { AddModelForm } from './add-model-form.js';

export function AddModelPage({ projectId, doneHref, children }: { projectId: string; doneHref: string; children?: (project: Project) => ReactNode }) {
  const backend = useBackend();
  const navigate = useNavigate();
  const project = useProject(projectId);
  const missing = project.status === 'error' || (project.status === 'success' && project.data === null);

  const alerted = useRef(false);
  useEffect(() => {
    if (!missing || alerted.current) return;
    alerted.current = true;
    window.alert(ProjectMessages.notFoundAlert);
    navigate(paths.projects.getHref(), { replace: true });
  }, [missing, navigate]);

  if (project.status !== 'success' || project.data === null) return <LoadingState label="Loading project..." />;
  const current = project.data;
  return (
    <>
      {children?.(current)}
      <AddModelForm
        project={current}
        onUpload={(input, hooks) =>
          addModel(backend, input, { ...hooks, ownerUid: backend.identity.currentUser()?.uid ?? null })
        }
        confirmReplace={async () => window.confirm(ProjectMessages.replaceReferenceQuestion)}
        onCancel={() => navigate(paths.project.getHref(current.id))}
        onDone={() => navigate(doneHref)}
      />
    </>
  );
}
