// The change-map workflows (tests/support/change-maps-contract.ts) through the ports of each
// backend the contract suite runs: the in-memory backend, the local adapter against a real
// embedded backend (`catalog serve`), and the CLI's firebase-admin adapter on the Firestore and
// Storage emulators (the Admin SDK is the service principal and bypasses rules: there the user's
// cases and the field tables skip with that reason; they run on firestore.rules in
// tests/rules/role-table.test.ts and tests/rules/change-map-fields.test.ts).
// Assertions: this file only binds backends to the shared suite; every test and its expect()
// calls live in tests/support/change-maps-contract.ts (describeChangeMapWorkflows).
import { describeChangeMapWorkflows } from '../support/change-maps-contract.js';
import { firebaseToolsUnavailable } from '../support/emulators.js';
import { setupFirebaseAdminOnEmulators } from '../support/firebase-setups.js';
import { setupLocalBackend } from '../support/local-backend.js';
import { setupMemoryBackend } from '../support/memory-backend.js';

describeChangeMapWorkflows({ name: 'memory', setup: setupMemoryBackend, skipAll: null, noRules: null });
describeChangeMapWorkflows({ name: 'local', setup: setupLocalBackend, skipAll: null, noRules: null });
describeChangeMapWorkflows({
  name: 'firebase-admin (Firestore and Storage emulators)',
  setup: setupFirebaseAdminOnEmulators,
  skipAll: firebaseToolsUnavailable(),
  noRules:
    'the Admin SDK acts as the service principal and bypasses security rules; the user rule and the field tables run on firestore.rules in tests/rules/role-table.test.ts and tests/rules/change-map-fields.test.ts',
});
