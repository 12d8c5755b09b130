/**
 * The version of the change-map maths, recorded in every stored change map's inputs (the stamps
 * of `changeMapInputFile`, shared/change-map-document.ts), so that a map computed by other maths
 * reads as out of date and is computed again (the embedded server's start-up pass does it by
 * itself; `catalog models changes` on Firebase).
 *
 * Bump it whenever a change to the maths changes what a stored map says for the same files — a
 * distance's size or sign, the level of detection, which regions are found — so that every map
 * stored by the earlier maths is recomputed; not for a change that leaves every stored map as
 * it would be now (speed, messages, refactoring).
 *
 * History:
 * 1. (never written: a stamp without a version is of version 1) normals oriented without the
 *    cameras, so the sign of a change could be wrong (an added cabinet read −1.55 m).
 * 2. Patch normals face the cameras of each model's camera metadata (or up, for near-horizontal
 *    surfaces of a model without one): an added object reads positive, a removed one negative;
 *    the camera metadata is then an input of the map.
 */
export const CHANGE_MAP_VERSION = 2;
