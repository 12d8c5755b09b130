/**
 * The reference-model picker table of a project (in the project management panel): one row per
 * model with 'Set as Reference' on the others; the swap runs in the shared `setReferenceModel`
 * workflow (one atomic batch). A hidden model is marked 'Hidden' and refused ('A hidden model
 * cannot be the reference model. Unhide it first.'): here before anything is written, and by the
 * workflow for every other caller. Each row's button is named with its model ('Set as Reference for
 * TWR-001-2024-05'); the result is announced (live region).
 */
import { useRef } from 'react';
import { Link } from 'react-router-dom';
import { isAppError, ErrorCode } from '@shared/errors.js';
import { ProjectMessages } from '@shared/messages.js';
import { sortModelsBy } from '@shared/order.js';
import { isHiddenModel } from '@shared/roles.js';
import { formatDate } from '@shared/format.js';
import { modelTypeLabel } from '@shared/model-type.js';
import type { Model, Project } from '@shared/types.js';
import { paths } from '../../../config/paths.js';
import { LiveBanner } from '../../../components/ui/banner.js';
import { useFocusRecovery } from '../../../components/ui/field.js';
import { useAction } from '../../../hooks/use-action.js';
import '../../../components/ui/stacked-table.css';

export function ReferencePicker({
  project,
  models,
  onSetReference,
}: {
  project: Project;
  models: readonly Model[];
  onSetReference: (modelId: string) => Promise<void>;
}) {
  const choose = useAction(onSetReference, {
    success: () => ProjectMessages.referenceUpdated,
    failure: (error) => {
      if (isAppError(error, ErrorCode.FailedPrecondition)) return error.message;
      console.error(error);
      return ProjectMessages.referenceUpdateFailed;
    },
  });
  /** The model being set as the reference, while that runs. */
  const busy = choose.busy ? (choose.args?.[0] ?? null) : null;

  const referenceId = project.reference_model_id ?? null;
  // The new reference's button became its badge: the panel's heading takes the focus.
  const heading = useRef<HTMLHeadingElement>(null);
  useFocusRecovery(referenceId, () => heading.current);
  return (
    <section className="panel" aria-label="Project Models">
      <div className="panel-head">
        <h3 className="panel-title" ref={heading} tabIndex={-1}>
          Project Models ({models.length})
        </h3>
        <Link className="button button-primary button-small" to={paths.admin.addModel.getHref(project.id)}>
          Add Model
        </Link>
      </div>
      <LiveBanner banner={choose.message} />
      {models.length === 0 ? (
        <p className="muted">No models in this project yet.</p>
      ) : (
        <div className="stack-table-box">
          <table className="table stack-table">
            <caption className="visually-hidden">Models of {project.name}</caption>
            <thead>
              <tr>
                <th scope="col">Public ID</th>
                <th scope="col">Name</th>
                <th scope="col">Type</th>
                <th scope="col">Capture Date</th>
                <th scope="col">Reference</th>
              </tr>
            </thead>
            <tbody>
              {sortModelsBy(models, 'id').map((model) => {
                const isRef = model.id === referenceId || (referenceId === null && model.isReference === true);
                return (
                  <tr key={model.id}>
                    <td className="mono nowrap" data-label="Public ID">
                      <Link to={paths.admin.modelManagement.getHref(model.id)}>{model.publicId}</Link>
                    </td>
                    <td data-label="Name">
                      {model.name}
                      {isHiddenModel(model) ? (
                        <>
                          {' '}
                          <span className="badge badge-orange">Hidden</span>
                        </>
                      ) : null}
                    </td>
                    <td data-label="Type">{modelTypeLabel(model)}</td>
                    <td data-label="Capture Date">{formatDate(model.metadata?.captureDate)}</td>
                    <td data-label="Reference">
                      {isRef ? (
                        <span className="badge badge-green">Reference Model</span>
                      ) : (
                        <button
                          type="button"
                          className="button button-secondary button-small"
                          aria-disabled={busy !== null || undefined}
                          onClick={() =>
                            busy !== null
                              ? undefined
                              : isHiddenModel(model)
                                ? choose.fail(ProjectMessages.hiddenReference)
                                : void choose.run(model.id)
                          }
                        >
                          {busy === model.id ? 'Updating...' : 'Set as Reference'}
                          <span className="visually-hidden"> for {model.publicId}</span>
                        </button>
                      )}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
