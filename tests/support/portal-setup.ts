// Setup of the jsdom component tests (the portal projects): findBy* and waitFor wait for a state
// up to 10 s. Testing Library's default of 1 s is shorter than a render takes on a loaded 2-core
// machine; a passing test never waits that long, so only a failing one is slower.
import { configure } from '@testing-library/react';

configure({ asyncUtilTimeout: 10_000 });
