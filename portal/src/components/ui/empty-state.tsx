import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { loadProjectFailed } from '@shared/messages.js';
import { paths } from '../../config/paths.js';
import { errorMessage } from '@shared/errors.js';

/**
 * A centred message with a title, text and optional action (empty lists, not found, login
 * required). `level` 1 when the message is the whole screen (it is then the page's one h1).
 */
export function EmptyState({ title, text, level = 2, children }: { title: string; text?: string; level?: 1 | 2; children?: ReactNode }) {
  const Heading = level === 1 ? 'h1' : 'h2';
  return (
    <div className="state state-empty">
      <Heading className="state-title">{title}</Heading>
      {text ? <p className="state-text">{text}</p> : null}
      {children}
    </div>
  );
}

/** The whole-screen 'Project Not Found' of a project route, with 'Back to Projects'. */
export function ProjectNotFound() {
  return (
    <EmptyState level={1} title="Project Not Found" text="The requested project could not be found.">
      <Link className="button button-secondary" to={paths.projects.getHref()}>
        Back to Projects
      </Link>
    </EmptyState>
  );
}

/**
 * The whole-screen state of a project route whose project could not be read (the server answered
 * with an error): 'Failed to load project: {reason}', announced, with 'Back to Projects'. A
 * project that does not exist is {@link ProjectNotFound} instead.
 */
export function ProjectLoadFailed({ error }: { error: unknown }) {
  return (
    <EmptyState level={1} title="Project Unavailable">
      <p className="alert alert-error" role="alert">
        {loadProjectFailed(errorMessage(error))}
      </p>
      <Link className="button button-secondary" to={paths.projects.getHref()}>
        Back to Projects
      </Link>
    </EmptyState>
  );
}
