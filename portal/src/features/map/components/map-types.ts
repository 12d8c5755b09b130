/** Props shared by the two map renderers (key-less and maps-service). */
import type { MappedLocation } from '@shared/projects.js';
import type { Project } from '@shared/types.js';
import type { LatLng } from '../../../components/map/viewport.js';

export type LocatedProject = Project & { location: MappedLocation };

export interface MapRendererProps {
  /** Projects with numeric lat and lng. */
  projects: LocatedProject[];
  /** Model count of a project. */
  modelCount: (projectId: string) => number;
  /** The user's position while the Current Location toggle is on. */
  currentLocation: LatLng | null;
  /** Increments when the map must re-fit to the projects (toggle turned off). */
  refit: number;
  onViewProject: (projectId: string) => void;
}
