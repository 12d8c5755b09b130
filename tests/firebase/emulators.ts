// Moved to tests/support/emulators.ts (one tests/support/ for every harness); this re-export
// keeps tests/contract/firebase-admin.test.ts working until it imports from there.
export { firebaseToolsUnavailable, startFirestoreEmulator, startStorageEmulatorWithoutRules } from '../support/emulators.js';
