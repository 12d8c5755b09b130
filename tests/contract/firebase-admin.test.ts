// The backend contract against the CLI's firebase-admin adapter: Firestore on Google's Firestore
// emulator (started from the machine image's jar) and Cloud Storage on the Storage emulator of
// firebase-tools (a Node server, started here without its rules runtime, which is downloaded
// from Google at start), both on free ports. The Admin SDK acts as the service principal and
// bypasses security rules (the rules run in tests/rules and tests/firebase/emulator-contract);
// identity runs against the Auth emulator in tests/firebase/auth-emulator.test.ts.
// Assertions: this file only binds a backend to the shared contract; every test and its
// expect() calls live in tests/contract/suite/ (describeBackendContract).
import { firebaseToolsUnavailable } from '../support/emulators.js';
import { setupFirebaseAdminOnEmulators } from '../support/firebase-setups.js';
import { describeBackendContract } from './suite/index.js';

describeBackendContract('firebase-admin (Firestore emulator, Storage emulator without rules)', setupFirebaseAdminOnEmulators, {
  skipAll: firebaseToolsUnavailable(),
  skip: {
    roles:
      'the Admin SDK acts as the service principal and bypasses security rules; the rules are tested in tests/rules and tests/firebase/emulator-contract',
    selfRegistration: 'needs security rules and a signed-in end user; tested in tests/rules',
    identity: 'password sign-in is not an Admin SDK call; identity runs against the Auth emulator in tests/firebase/auth-emulator.test.ts',
    storedContentChecks:
      'Cloud Storage stores any bytes (the suite checks it: an HTML page is stored as model.glb); the content checks run in the portal and the CLI before they upload (shared/workflows)',
    publicIdRule:
      'the Admin SDK bypasses security rules, where the Public ID format is checked (the suite checks that such a write is stored; the rules run in tests/rules and tests/firebase/emulator-contract)',
    publicIdUniqueness:
      'Firestore has no uniqueness check and the Admin SDK bypasses rules: the shared workflows check it before writing (the suite checks that a duplicate is stored)',
    downloadLinks:
      'the Storage emulator runs here without its rules runtime (a Java program it cannot download or run), and it refuses every Firebase-API request (download links) without a ruleset; runs in the CI workflow',
  },
});
