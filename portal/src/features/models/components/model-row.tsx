/**
 * One row of the virtualised model list: thumbnail or placeholder,
 * publicId badge, name, kind line (the kind label, and 'Hybrid' for a hybrid as every other screen
 * names it), 'View 3D' ('Preparing...' until the link resolves; 'No 3D file' when it never will); for
 * admins a Hide/Show button and the 'Hidden' badge on hidden rows; its project's name, linked to
 * the project. 'View 3D' and Hide/Show are described by the model's publicId
 * and name (aria-describedby), so the rows' identical controls can be told apart.
 */
import { useId, type CSSProperties } from 'react';
import { Link } from 'react-router-dom';
import { viewerLink, viewingFilePath } from '@shared/links.js';
import { modelKindLine } from '@shared/model-type.js';
import { projectLabel } from '@shared/projects.js';
import { isHiddenModel } from '@shared/roles.js';
import type { Model, Project } from '@shared/types.js';
import { Badge } from '../../../components/ui/badge.js';
import { ExternalLinkButton } from '../../../components/ui/external-link-button.js';
import { paths } from '../../../config/paths.js';

export interface ModelRowViewProps {
  model: Model;
  /** The model's project, when known: its name shows, linked to /projects/{id}. */
  project?: Pick<Project, 'id' | 'name' | 'structure_id'> | null;
  thumbnailUrl: string | null;
  /** True once the model's download link resolved. */
  linkReady: boolean;
  viewerUrl: string | null;
  isAdmin: boolean;
  onToggleVisibility?: (model: Model) => void;
  style?: CSSProperties;
  ariaAttributes?: Record<string, string | number>;
}

export function ModelRowView({
  model,
  project = null,
  thumbnailUrl,
  linkReady,
  viewerUrl,
  isAdmin,
  onToggleVisibility,
  style,
  ariaAttributes,
}: ModelRowViewProps) {
  const hidden = isHiddenModel(model);
  const href = linkReady && viewerUrl !== null ? viewerLink(viewerUrl, model.publicId) : null;
  const id = useId();
  const describedBy = `${id}-public-id ${id}-name`;
  return (
    <div style={style} {...ariaAttributes} className="model-row-outer" data-testid="model-row">
      <div className={`model-row${hidden && isAdmin ? ' model-row-hidden' : ''}`}>
        <div className="model-row-thumb">
          {thumbnailUrl ? <img src={thumbnailUrl} alt={model.name} loading="lazy" /> : <span className="thumb-placeholder">3D</span>}
        </div>
        <div className="model-row-main">
          <div className="model-row-badges">
            <Badge tone="blue" className="mono">
              <span id={`${id}-public-id`}>{model.publicId}</span>
            </Badge>
            {hidden && isAdmin ? <Badge tone="orange">Hidden</Badge> : null}
          </div>
          <div className="model-row-name" id={`${id}-name`}>
            {model.name}
          </div>
          <div className="muted model-row-kind">{modelKindLine(model)}</div>
          {project ? (
            <div className="model-row-project">
              <Link to={paths.project.getHref(project.id)} title={projectLabel(project)}>
                {project.name}
              </Link>
            </div>
          ) : null}
        </div>
        <div className="model-row-actions">
          {isAdmin && onToggleVisibility ? (
            <button type="button" className="button button-ghost" onClick={() => onToggleVisibility(model)} aria-describedby={describedBy}>
              {hidden ? 'Show' : 'Hide'}
            </button>
          ) : null}
          <ExternalLinkButton href={href} describedBy={describedBy} unavailable={viewingFilePath(model) === null ? 'No 3D file' : null}>
            View 3D
          </ExternalLinkButton>
        </div>
      </div>
    </div>
  );
}
