// The findings workflows (tests/support/findings-contract.ts) through the ports of each
// backend the contract suite runs: the in-memory backend, the local adapter against a real
// embedded backend (`catalog serve`), and the CLI's firebase-admin adapter on the Firestore and
// Storage emulators (the Admin SDK is the service principal and bypasses rules: there the user
// rule's cases skip with that reason; they run on firestore.rules through the portal's web SDK in
// tests/firebase/annotations-emulator.test.ts, and row by row in tests/rules/role-table.test.ts).
// Assertions: this file only binds backends to the shared findings suite; every test and its
// expect() calls live in tests/support/findings-contract.ts (describeFindingsWorkflows).
import { firebaseToolsUnavailable } from '../support/emulators.js';
import { describeFindingsWorkflows } from '../support/findings-contract.js';
import { setupFirebaseAdminOnEmulators } from '../support/firebase-setups.js';
import { setupLocalBackend } from '../support/local-backend.js';
import { setupMemoryBackend } from '../support/memory-backend.js';

describeFindingsWorkflows({ name: 'memory', setup: setupMemoryBackend, skipAll: null, noRules: null, liveFollowsVisibility: true });
describeFindingsWorkflows({ name: 'local', setup: setupLocalBackend, skipAll: null, noRules: null, liveFollowsVisibility: true });
describeFindingsWorkflows({
  name: 'firebase-admin (Firestore and Storage emulators)',
  setup: setupFirebaseAdminOnEmulators,
  skipAll: firebaseToolsUnavailable(),
  noRules:
    'the Admin SDK acts as the service principal and bypasses security rules; the user rule runs on firestore.rules in tests/firebase/annotations-emulator.test.ts and tests/rules/role-table.test.ts',
});
