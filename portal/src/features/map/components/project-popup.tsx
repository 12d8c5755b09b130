/**
 * A project marker's popup: name, ID, badge, model count, address and
 * 'View Project'. The name is a level-2 heading (the page has its h1 and no other
 * level), and 'View Project' takes focus when the popup opens (`data-popup-focus`).
 */
import { ProjectCountBadge, modelCountText } from '../../../components/ui/project-count-badge.js';
import type { LocatedProject } from './map-types.js';

export function ProjectPopup({ project, modelCount, onView }: { project: LocatedProject; modelCount: number; onView: () => void }) {
  return (
    <div className="map-popup-content" data-testid="map-popup">
      <h2 className="map-popup-title">{project.name}</h2>
      <p className="muted map-popup-line">ID: {project.structure_id}</p>
      <p className="map-popup-line">
        <ProjectCountBadge modelCount={modelCount} /> <span className="muted">{modelCountText(modelCount)}</span>
      </p>
      {project.location.address ? <p className="muted map-popup-line">{project.location.address}</p> : null}
      <button type="button" className="button button-primary button-small" onClick={onView} data-popup-focus>
        View Project
      </button>
    </div>
  );
}
