// The findings workflows (tests/support/findings-contract.ts) through the portal's web-SDK
// adapter held to firestore.rules on Google's Firestore emulator (started here from the machine
// image's jar, the rules loaded as deployed) and the Auth emulator of firebase-tools, with the
// CLI's firebase-admin adapter as the service principal: the user rule (a user's finding with
// its count batch passes; delete, someone else's finding, alignments and hidden models are
// refused or withheld) runs here against the real rules. deleteModel needs file storage, whose
// emulator cannot run here (its rules runtime is downloaded from Google at start): that case skips
// unless FIREBASE_STORAGE_EMULATOR_HOST is set (.github/workflows/firebase.yml).
// Assertions: this file only binds a backend to the shared findings suite; every test and its
// expect() calls live in tests/support/findings-contract.ts (describeFindingsWorkflows).
import { describe, it } from 'vitest';
import { firebaseToolsUnavailable } from '../support/emulators.js';
import { describeFindingsWorkflows } from '../support/findings-contract.js';
import { externalStorageHost, setupFirebaseWebOnEmulators } from '../support/firebase-setups.js';

const skipReason = firebaseToolsUnavailable();
if (skipReason) {
  console.info(`[findings firebase emulators] skipping: ${skipReason}`);
  describe.skip('findings workflows: firebase (emulators)', () => {
    it.todo('runs with firebase-tools installed (npm ci --prefix tools/firebase)');
  });
} else {
  describeFindingsWorkflows({
    name: 'firebase (web SDK under firestore.rules + firebase-admin, on the emulators)',
    setup: () => setupFirebaseWebOnEmulators('findings'),
    skipAll: null,
    noRules: null,
    noFiles: externalStorageHost
      ? null
      : 'no Storage emulator here (its rules runtime is downloaded from Google at start); deleteModel lists and deletes files: runs in .github/workflows/firebase.yml',
  });
}
