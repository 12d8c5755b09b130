/** A project marker's popup (SPEC.md §2 Project map): name, ID, badge, model count, address and 'View Project'. */
import { PROJECT_BADGE_LABELS, projectBadge } from '../../../../../shared/projects.js';
import { Badge } from '../../../components/ui/badge.js';
import type { LocatedProject } from './map-types.js';

export function ProjectPopup({ project, modelCount, onView }: { project: LocatedProject; modelCount: number; onView: () => void }) {
  const badge = projectBadge(modelCount);
  return (
    <div className="map-popup-content" data-testid="map-popup">
      <h3 className="map-popup-title">{project.name}</h3>
      <p className="muted map-popup-line">ID: {project.structure_id}</p>
      <p className="map-popup-line">
        {badge ? <Badge tone={badge === 'multi-temporal' ? 'blue' : 'green'}>{PROJECT_BADGE_LABELS[badge]}</Badge> : null}{' '}
        <span className="muted">
          {modelCount} {modelCount === 1 ? 'model' : 'models'}
        </span>
      </p>
      {project.location.address ? <p className="muted map-popup-line">{project.location.address}</p> : null}
      <button type="button" className="button button-primary button-small" onClick={onView}>
        View Project
      </button>
    </div>
  );
}
