/**
 * /viewer (and /viewer/): the built-in 3D viewer, the page the catalog's viewer links open (one
 * model, or a model and its reference in compare mode). See `features/viewer`. A lazy route
 * outside the app shell: its chunk alone carries three.js and Spark.
 */
import { ViewerPage } from '../../features/viewer/components/viewer-page.js';

export default function ViewerRoute() {
  return <ViewerPage />;
}
