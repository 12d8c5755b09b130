/** /viewer: the built-in 3D viewer (SPEC.md §7 viewer links; DESIGN.md §6). See `features/viewer`. */
import { ViewerPage } from '../../features/viewer/components/viewer-page.js';

export default function ViewerRoute() {
  return <ViewerPage />;
}
