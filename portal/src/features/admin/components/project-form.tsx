/**
 * The project create/edit form, with its rules and messages. Validation is the shared
 * `validateProjectForm`; the slug follows the name until the admin types one. A refused field is
 * marked `aria-invalid`, described by the message, and takes the focus.
 */
import { useState, type FormEvent } from 'react';
import { FormMessages, ProjectMessages, ValidationMessages, saveProjectFailed } from '@shared/messages.js';
import { slugify } from '@shared/slug.js';
import type { Project } from '@shared/types.js';
import { projectFormInputOf, validateProjectForm, type ProjectFormInput } from '@shared/validation/project-form.js';
import { LiveBanner } from '../../../components/ui/banner.js';
import { Field, useFieldErrors } from '../../../components/ui/field.js';
import { useAction } from '../../../hooks/use-action.js';
import { errorMessage } from '@shared/errors.js';

export interface ProjectFormProps {
  /** The project being edited; absent to create. */
  project?: Project | null;
  /** Saves the validated input; resolves when written. */
  onSubmit: (input: ProjectFormInput) => Promise<void>;
  /** Edit only: the Cancel button. */
  onCancel?: () => void;
  /**
   * Texts of the outcome; default 'Project created successfully!' / 'Project updated successfully!'
   * and 'Failed to save project: …'. `successText: null`: no success banner (the caller shows it,
   * e.g. on the page it navigates to).
   */
  successText?: string | null;
  failureText?: (detail: string) => string;
  /** The level of the form's heading (default 2: a page's section; 4 inside a panel's section). */
  headingLevel?: 2 | 3 | 4;
}

/** The field a validation message of `validateProjectForm` is about. */
export function projectFieldOf(message: string): keyof ProjectFormInput | null {
  switch (message) {
    case ValidationMessages.projectNameEmpty:
      return 'name';
    case FormMessages.projectMapUrlInvalid:
      return 'mapUrl';
    case FormMessages.projectLatitudeInvalid:
    case FormMessages.projectLatitudeRange:
      return 'lat';
    case FormMessages.projectLongitudeInvalid:
    case FormMessages.projectLongitudeRange:
      return 'lng';
    default:
      return null;
  }
}

const FIELDS: Array<{ key: keyof ProjectFormInput; label: string; placeholder?: string; multiline?: boolean }> = [
  { key: 'name', label: 'Project Name' },
  { key: 'structure_id', label: 'Structure ID' },
  { key: 'description', label: 'Description', multiline: true },
  { key: 'slug', label: 'URL Slug' },
  { key: 'address', label: 'Address' },
  { key: 'mapUrl', label: 'Map URL', placeholder: 'https://maps.google.com/...' },
  { key: 'lat', label: 'Latitude', placeholder: 'e.g. 43.4643' },
  { key: 'lng', label: 'Longitude', placeholder: 'e.g. -80.5204' },
];

export function ProjectForm({
  project,
  onSubmit,
  onCancel,
  successText,
  failureText = saveProjectFailed,
  headingLevel = 2,
}: ProjectFormProps) {
  const editing = project !== undefined && project !== null;
  const [values, setValues] = useState(() => projectFormInputOf(project));
  const [slugTouched, setSlugTouched] = useState(() => (project?.slug ?? '') !== '');
  const errors = useFieldErrors<keyof ProjectFormInput>();
  const save = useAction(onSubmit, {
    success: () => (successText === null ? null : (successText ?? (editing ? ProjectMessages.updated : ProjectMessages.created))),
    failure: (error) => failureText(errorMessage(error)),
  });

  const Heading = `h${headingLevel}` as const;
  const headingId = `${errors.messageId}-title`;

  function change(key: keyof ProjectFormInput, value: string) {
    setValues((current) => {
      const next = { ...current, [key]: value };
      if (key === 'name' && !slugTouched) next.slug = slugify(value);
      return next;
    });
    if (key === 'slug') setSlugTouched(value !== '');
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    if (save.busy) return;
    const result = validateProjectForm(values);
    const field = result.ok ? null : projectFieldOf(result.message);
    errors.mark(field === null ? [] : [field]);
    if (!result.ok) save.fail(result.message);
    else void save.run(values);
  }

  return (
    <form ref={errors.formRef} className="panel admin-form" onSubmit={submit} noValidate aria-labelledby={headingId}>
      <Heading id={headingId} className="panel-title">
        {editing ? 'Edit Project' : 'Create Project'}
      </Heading>
      <LiveBanner id={errors.messageId} banner={save.message} />
      <div className="form-grid">
        {FIELDS.map((field) => (
          <Field key={field.key} label={field.label} wide={field.multiline}>
            {field.multiline ? (
              <textarea
                rows={3}
                value={values[field.key]}
                onChange={(e) => change(field.key, e.target.value)}
                {...errors.props(field.key)}
              />
            ) : (
              <input
                type="text"
                value={values[field.key]}
                placeholder={field.placeholder}
                onChange={(e) => change(field.key, e.target.value)}
                {...errors.props(field.key)}
              />
            )}
          </Field>
        ))}
      </div>
      <p className="muted small">
        The URL slug is lowercased; spaces become hyphens; only a-z, 0-9 and hyphens are kept. Empty: generated from the name.
      </p>
      <div className="actions">
        {editing && onCancel ? (
          <button type="button" className="button button-secondary" onClick={onCancel}>
            Cancel
          </button>
        ) : null}
        {/* aria-disabled, not disabled, while saving: a disabled button would drop the focus */}
        <button type="submit" className="button button-primary" aria-disabled={save.busy || undefined}>
          {save.busy ? 'Saving...' : editing ? 'Save Changes' : 'Create Project'}
        </button>
      </div>
    </form>
  );
}
