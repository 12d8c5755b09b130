/**
 * The project delete confirmation box (SPEC.md §4 "Project delete flow", §5 "Delete project"):
 * the typed text starts empty; 'Delete Permanently' is enabled only when it equals the project
 * name (both trimmed); Cancel closes the box.
 */
import { useState } from 'react';
import { ValidationMessages, projectDeletePrompt } from '../../../../../shared/messages.js';
import { confirmTypedName } from '../../../../../shared/validation/confirm.js';

export function DeleteProjectDialog({
  projectName,
  onConfirm,
  onCancel,
}: {
  projectName: string;
  /** Called with the typed text when 'Delete Permanently' is pressed on a match. */
  onConfirm: (typed: string) => void;
  onCancel: () => void;
}) {
  const [typed, setTyped] = useState('');
  const [error, setError] = useState<string | null>(null);
  const matches = confirmTypedName(typed, projectName);
  return (
    <div className="panel delete-box" role="dialog" aria-label="Delete Project">
      <h3 className="panel-title">Delete Project</h3>
      <p className="alert alert-warning">{ValidationMessages.projectDeleteWarning}</p>
      <label className="field">
        <span className="field-label">{projectDeletePrompt(projectName)}</span>
        <input type="text" value={typed} placeholder={ValidationMessages.projectDeletePlaceholder} onChange={(e) => setTyped(e.target.value)} />
      </label>
      {error ? (
        <p className="alert alert-error" role="alert">
          {error}
        </p>
      ) : null}
      <div className="actions">
        <button type="button" className="button button-secondary" onClick={onCancel}>
          Cancel
        </button>
        <button
          type="button"
          className="button button-danger"
          disabled={!matches}
          onClick={() => {
            if (!confirmTypedName(typed, projectName)) {
              setError(ValidationMessages.projectNameMismatch);
              return;
            }
            onConfirm(typed);
          }}
        >
          Delete Permanently
        </button>
      </div>
    </div>
  );
}
