/**
 * The add-model page body shared by /projects/{projectId}/add-model and
 * /admin/models/add/{projectId}: waits for the project the route loads ('Project not
 * found!' alert and redirect to /projects when it does not exist), then the form wired to the
 * shared `addModel` workflow with the replace-reference prompt.
 */
import { useEffect, useRef, type ReactNode } from 'react';
import { useNavigate } from 'react-router-dom';
import type { FlashState } from '../../../hooks/use-flash.js';
import { ModelMessages, ProjectMessages } from '@shared/messages.js';
import type { Project } from '@shared/types.js';
import { LoadingState } from '../../../components/ui/spinner.js';
import { paths } from '../../../config/paths.js';
import type { Resource } from '../../../lib/resource.js';
import { useAddModel } from '../api/add-model.js';
import { AddModelForm } from './add-model-form.js';

export interface AddModelPageProps {
  /** The project to add to (null: it does not exist). */
  project: Resource<Project | null>;
  doneHref: string;
  /** Where Cancel goes (default: the project's page); the admin frame's page sends it where its Back goes. */
  cancelHref?: string;
  children?: (project: Project) => ReactNode;
}

/** The add-model page body: the project's form once the project is there, the not-found alert and redirect otherwise. */
export function AddModelPage({ project, doneHref, cancelHref, children }: AddModelPageProps) {
  const addModel = useAddModel();
  const navigate = useNavigate();
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
        onUpload={addModel}
        confirmReplace={async () => window.confirm(ProjectMessages.replaceReferenceQuestion)}
        onCancel={() => navigate(cancelHref ?? paths.project.getHref(current.id))}
        // the success message goes along to the next page, which may show it
        onDone={() => navigate(doneHref, { state: { flash: ModelMessages.addModelSucceeded } satisfies FlashState })}
      />
    </>
  );
}
