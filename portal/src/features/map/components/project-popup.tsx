/** A project marker's popup (SPEC.md §2 Project map): name, ID, badge, model count, address and 'View Project'. */
import { ProjectCountBadge, modelCountText } from '../../../components/ui/project-count-badge.js';
import type { LocatedProject } from './map-types.js';

export function ProjectPopup({ project, modelCount, onView }: { project: LocatedProject; modelCount: number; onView: () => void }) {
  return (
    <div className="map-popup-content" data-testid="map-popup">
      <h3 className="map-popup-title">{project.name}</h3>
      <p className="muted map-popup-line">ID: {project.structure_id}</p>
      <p className="map-popup-line">
        <ProjectCountBadge modelCount={modelCount} /> <span className="muted">{modelCountText(modelCount)}</span>
      </p>
      {project.location.address ? <p className="muted map-popup-line">{project.location.address}</p> : null}
      <button type="button" className="button button-primary button-small" onClick={onView}>
        View Project
      </button>
    </div>
  );
}
