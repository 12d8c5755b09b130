/**
 * One model of the project detail screen: Reference Model badge,
 * publicId and name, type label, capture date, annotation count, total file size, 'View Model'
 * (disabled 'Preparing...' until the viewing link resolves, 'No 3D file' for a model without one),
 * Compare and the admin 'Manage' link; for admins a 'Hidden' badge on a hidden model (users
 * never receive hidden models); then the 'File checks' disclosure with what the content checks
 * found in the model's files.
 *
 * For screen readers: 'View Model', 'Compare' and 'Manage' are described by the model's name and publicId
 * (aria-describedby), so the cards' identical buttons can be told apart by a screen reader.
 */
import { useId } from 'react';
import { Link } from 'react-router-dom';
import { formatBytes, formatDate } from '@shared/format.js';
import { compareLink, viewerLink, viewingFilePath } from '@shared/links.js';
import { CompareMessages } from '@shared/messages.js';
import { modelTypeLabel, totalFileSize } from '@shared/model-type.js';
import { compareButtonState } from '@shared/projects.js';
import { isHiddenModel } from '@shared/roles.js';
import type { Model } from '@shared/types.js';
import { Badge } from '../../../components/ui/badge.js';
import { ExternalLinkButton } from '../../../components/ui/external-link-button.js';
import { FileChecks } from '../../../components/ui/file-checks.js';
import { paths } from '../../../config/paths.js';

/** Readiness of a model's viewing link: 'ready', still 'preparing', or 'failed' (logged only). */
export type LinkState = 'ready' | 'preparing' | 'failed';

export interface ProjectModelCardProps {
  model: Model;
  isReference: boolean;
  /** The project's reference model when there is one (and it is not this model). */
  reference: Model | null;
  /** Whether the project has a reference model at all (reference_model_id or a flagged model). */
  projectHasReference: boolean;
  linkState: LinkState;
  referenceLinkState: LinkState;
  viewerUrl: string | null;
  isAdmin: boolean;
}

export function ProjectModelCard({
  model,
  isReference,
  reference,
  projectHasReference,
  linkState,
  referenceLinkState,
  viewerUrl,
  isAdmin,
}: ProjectModelCardProps) {
  const viewHref = linkState === 'ready' && viewerUrl !== null ? viewerLink(viewerUrl, model.publicId) : null;
  const compare = compareButtonState({
    isReference,
    hasReference: projectHasReference,
    modelLinkReady: viewHref !== null,
    referenceLinkReady: reference !== null && referenceLinkState === 'ready',
  });
  const showCompare = compare.visible;
  // the reference model or its links are unavailable (a failed link is only logged elsewhere).
  const referenceUnavailable = showCompare && (reference === null || referenceLinkState === 'failed');
  const compareReady = compare.enabled && viewerUrl !== null;
  const id = useId();
  const describedBy = `${id}-name ${id}-public-id`;

  function openCompare() {
    if (reference === null || viewerUrl === null) return;
    window.open(compareLink(viewerUrl, model.publicId, reference.publicId), '_blank', 'noopener,noreferrer');
  }

  return (
    <article className={`card model-card${isReference ? ' model-card-reference' : ''}`} data-testid="project-model">
      <div className="model-card-head">
        {isReference ? <Badge tone="amber">Reference Model</Badge> : null}
        <Badge tone="blue" className="mono">
          <span id={`${id}-public-id`}>{model.publicId}</span>
        </Badge>
        {isAdmin && isHiddenModel(model) ? <Badge tone="orange">Hidden</Badge> : null}
        <h3 className="card-title" id={`${id}-name`}>
          {model.name}
        </h3>
      </div>
      <dl className="facts">
        <div>
          <dt>Type</dt>
          <dd data-testid="model-type">{modelTypeLabel(model)}</dd>
        </div>
        <div>
          <dt>Capture Date</dt>
          <dd>{formatDate(model.metadata?.captureDate ?? null)}</dd>
        </div>
        <div>
          <dt>Annotations</dt>
          <dd>{model.metadata?.annotationsCount ?? 0}</dd>
        </div>
        <div>
          <dt>Total Size</dt>
          <dd data-testid="model-size">{formatBytes(totalFileSize(model))}</dd>
        </div>
      </dl>
      <div className="actions">
        <ExternalLinkButton href={viewHref} describedBy={describedBy} unavailable={viewingFilePath(model) === null ? 'No 3D file' : null}>
          View Model
        </ExternalLinkButton>
        {showCompare ? (
          <button
            type="button"
            className="button button-secondary"
            disabled={!compareReady}
            onClick={openCompare}
            aria-describedby={describedBy}
          >
            Compare
          </button>
        ) : null}
        {isAdmin ? (
          <Link className="button button-ghost" to={paths.admin.modelManagement.getHref(model.id)} aria-describedby={describedBy}>
            Manage
          </Link>
        ) : null}
      </div>
      {referenceUnavailable ? <p className="alert alert-warning">{CompareMessages.referenceUnavailable}</p> : null}
      <FileChecks report={model.validation} collapsible />
    </article>
  );
}
