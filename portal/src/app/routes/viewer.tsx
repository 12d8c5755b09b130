/**
 * /viewer (and /viewer/): the built-in 3D viewer (SPEC.md §7 viewer links; DESIGN.md §6). See
 * `features/viewer`. A lazy route outside the app shell: its chunk alone carries three.js and
 * Spark. What other features draw over the model (camera poses…) is composed here through
 * `<ViewerPage overlays={…} />`, so the viewer feature never imports them.
 */
import { ViewerPage } from '../../features/viewer/components/viewer-page.js';

export default function ViewerRoute() {
  return <ViewerPage />;
}
