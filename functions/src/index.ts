/**
 * The Cloud Functions of a Firebase deployment: what `catalog serve` does by itself, done beside
 * Cloud Storage and Firestore. Bundled by `scripts/build-functions.mjs` into `functions/lib/index.js`
 * (the shared code included; firebase-admin and firebase-functions come from `functions/package.json`),
 * deployed with `firebase deploy --only functions` (docs/FUNCTIONS.md).
 *
 * One module a job, each exporting its triggers:
 * - content checks (`content-checks.ts`): each stored model file checked as the embedded server
 *   checks an upload, a model with a refused file refused and hidden.
 * - web-sized copies (`web-copies.ts`): a splat that passed its check gets its SPZ copy (and a
 *   large capture's preview), a step of the same two triggers.
 * Later jobs of the embedded server (web-sized GLBs, thumbnails, change maps) go in modules of
 * their own beside them, each a step after a file's check passed.
 */
export { checkModelRecordFiles, checkStoredModelFile } from './content-checks.js';
