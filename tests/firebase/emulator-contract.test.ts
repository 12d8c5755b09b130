// The whole backend contract against the Firebase emulators: Google's Firestore emulator (started
// here from the machine image's jar, with firestore.rules loaded) and the Auth emulator of
// firebase-tools (in-process): the portal's web-SDK adapter for the admin, user and signed-out
// clients, the CLI's firebase-admin adapter as the service principal. File storage needs the
// Storage emulator, whose rules runtime is downloaded from Google at start and cannot run here:
// those cases skip with that reason unless FIREBASE_STORAGE_EMULATOR_HOST is set
// (`firebase emulators:exec` in .github/workflows/firebase.yml).
// Assertions: this file only binds a backend to the shared contract; every test and its
// expect() calls live in tests/contract/suite/ (describeBackendContract).
import { describe, it } from 'vitest';
import { describeBackendContract } from '../contract/suite/index.js';
import { firebaseToolsUnavailable } from '../support/emulators.js';
import { externalStorageHost, setupFirebaseWebOnEmulators } from '../support/firebase-setups.js';

const skipReason = firebaseToolsUnavailable();
const storageHost = externalStorageHost;

if (skipReason) {
  console.info(`[contract firebase emulators] skipping: ${skipReason}`);
  // A visible skipped entry in the report (it has no body to run).
  describe.skip('backend contract: firebase (emulators)', () => {
    it.todo('runs with firebase-tools installed (npm ci --prefix tools/firebase)');
  });
} else {
  describeBackendContract('firebase (web SDK + firebase-admin on the emulators)', () => setupFirebaseWebOnEmulators('contract'), {
    skip: {
      ...(storageHost
        ? {}
        : {
            files:
              'the Storage emulator runs here only without its rules runtime (a jar downloaded from Google at start; this machine has no DNS), ' +
              'and without a ruleset it refuses every web-SDK request; file storage on the emulators runs in .github/workflows/firebase.yml',
            downloadLinks: 'no Storage emulator here (see files)',
          }),
      storedContentChecks:
        'Cloud Storage stores any bytes: the content checks run in the portal and the CLI before they upload (shared/workflows), tested on every backend there',
      publicIdMessage:
        'firestore.rules refuses a malformed Public ID with permission-denied and no message (the suite expects that code here); the message comes from the shared workflows',
      publicIdUniqueness:
        'Firestore security rules cannot run a query, so they cannot find another model with the same Public ID: the shared workflows check it before writing (the suite checks that a duplicate is stored)',
      nodeStreams: 'the portal adapter uploads browser Blobs; Node streams belong to the CLI adapter',
      restrictedSignUp:
        'Firebase Auth lets any client create an account (a project setting); roles come only from users/{uid}, which the rules guard',
    },
  });
}
