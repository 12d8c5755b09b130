// Accepting a change map's registration as the pair's alignment, and resetting it, through the
// portal's web-SDK adapter held to firestore.rules on the Firestore and Auth emulators (the
// transactions of acceptRegistration and resetAlignment committed under the rules, as the
// viewer's 'Changes' panel runs them on Firebase, which has no server of ours), with
// firebase-admin as the service principal writing the fixtures: an admin accepts and resets, a
// user does neither. The memory backend, `catalog serve` and firebase-admin run the same case in
// tests/contract/change-maps.test.ts.
// Assertions: this file only binds a backend to the shared case; its expect() calls live in
// tests/support/change-maps-contract.ts (checkRegistrationAcceptance).
import { afterAll, beforeAll, describe, it } from 'vitest';
import type { ContractSetup } from '../contract/suite/index.js';
import { ACCEPTANCE_CASE, checkRegistrationAcceptance } from '../support/change-maps-contract.js';
import { firebaseToolsUnavailable } from '../support/emulators.js';
import { setupFirebaseWebOnEmulators } from '../support/firebase-setups.js';

const skipReason = firebaseToolsUnavailable();
if (skipReason) console.info(`[registration acceptance firebase emulators] skipping: ${skipReason}`);

describe.skipIf(skipReason !== null)('change-map registration as alignment: firebase (web SDK under firestore.rules)', () => {
  let env: ContractSetup;
  beforeAll(async () => {
    env = await setupFirebaseWebOnEmulators('registration');
  });
  afterAll(async () => {
    await env?.teardown();
  });

  it(ACCEPTANCE_CASE, () => checkRegistrationAcceptance(env, 'proj-registration', true));
});
