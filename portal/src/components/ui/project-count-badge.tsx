/**
 * The project badge by model count (Multi-Temporal for 2 or more, Initial Assessment
 * for exactly 1, none for 0) and the model-count line, as the catalog cards and map popups show them.
 */
import { PROJECT_BADGE_LABELS, projectBadge } from '@shared/projects.js';
import { Badge } from './badge.js';

export function ProjectCountBadge({ modelCount }: { modelCount: number }) {
  const badge = projectBadge(modelCount);
  if (badge === null) return null;
  return <Badge tone={badge === 'multi-temporal' ? 'blue' : 'green'}>{PROJECT_BADGE_LABELS[badge]}</Badge>;
}

/** '1 model', '3 models'. */
export function modelCountText(modelCount: number): string {
  return `${modelCount} ${modelCount === 1 ? 'model' : 'models'}`;
}
