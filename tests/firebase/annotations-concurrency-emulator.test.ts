// Findings counts under concurrency (tests/support/findings-concurrency.ts) on Firestore: the
// portal's web-SDK adapter held to firestore.rules on Google's Firestore emulator, its
// `CatalogPort.transaction` over the SDK's runTransaction, with firebase-admin as the service
// principal. Without a Storage emulator (its rules runtime is downloaded from Google at start) the
// model delete runs its catalog part, deleteModelsWithFindings, which deleteModel ends with.
// Assertions: this file only binds a backend to the shared contract; every test and its expect()
// calls live in tests/support/findings-concurrency.ts (describeFindingsConcurrency).
import { firebaseToolsUnavailable } from '../support/emulators.js';
import { describeFindingsConcurrency } from '../support/findings-concurrency.js';
import { externalStorageHost, setupFirebaseWebOnEmulators } from '../support/firebase-setups.js';

describeFindingsConcurrency({
  name: 'firebase (web SDK under firestore.rules, on the emulator)',
  setup: () => setupFirebaseWebOnEmulators('concurrency'),
  skipAll: firebaseToolsUnavailable(),
  files: externalStorageHost !== null,
  // the SDK backs off a second and more between attempts
  timeoutMs: 120_000,
});
