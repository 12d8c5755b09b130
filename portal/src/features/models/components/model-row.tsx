/**
 * One row of the virtualised model list (SPEC.md §2 Model list): thumbnail or placeholder,
 * publicId badge, name, kind label, 'View 3D' ('Preparing...' until the link resolves); for
 * admins a Hide/Show button and the 'Hidden' badge on hidden rows.
 */
import type { CSSProperties } from 'react';
import { viewerLink } from '@shared/links.js';
import { modelKindLabel } from '@shared/model-type.js';
import type { Model } from '@shared/types.js';
import { Badge } from '../../../components/ui/badge.js';
import { ExternalLinkButton } from '../../../components/ui/external-link-button.js';

export interface ModelRowViewProps {
  model: Model;
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
  thumbnailUrl,
  linkReady,
  viewerUrl,
  isAdmin,
  onToggleVisibility,
  style,
  ariaAttributes,
}: ModelRowViewProps) {
  const hidden = model.visible === false;
  const href = linkReady && viewerUrl !== null ? viewerLink(viewerUrl, model.publicId) : null;
  return (
    <div style={style} {...ariaAttributes} className="model-row-outer" data-testid="model-row">
      <div className={`model-row${hidden && isAdmin ? ' model-row-hidden' : ''}`}>
        <div className="model-row-thumb">
          {thumbnailUrl ? <img src={thumbnailUrl} alt={model.name} loading="lazy" /> : <span className="thumb-placeholder">3D</span>}
        </div>
        <div className="model-row-main">
          <div className="model-row-badges">
            <Badge tone="blue" className="mono">
              {model.publicId}
            </Badge>
            {hidden && isAdmin ? <Badge tone="orange">Hidden</Badge> : null}
          </div>
          <div className="model-row-name">{model.name}</div>
          <div className="muted model-row-kind">{modelKindLabel(model)}</div>
        </div>
        <div className="model-row-actions">
          {isAdmin && onToggleVisibility ? (
            <button type="button" className="button button-ghost" onClick={() => onToggleVisibility(model)}>
              {hidden ? 'Show' : 'Hide'}
            </button>
          ) : null}
          <ExternalLinkButton href={href}>View 3D</ExternalLinkButton>
        </div>
      </div>
    </div>
  );
}
