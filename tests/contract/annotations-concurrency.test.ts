// Findings counts under concurrency (tests/support/findings-concurrency.ts) on the backends we run
// ourselves: the in-memory backend and the local adapter against a real embedded backend
// (`catalog serve`), whose transactions are optimistic (versions read, preconditions checked at
// the commit, retried with back-off). The same contract runs on Firestore with the web SDK under
// firestore.rules in tests/firebase/annotations-concurrency-emulator.test.ts.
// Assertions: this file only binds backends to the shared contract; every test and its expect()
// calls live in tests/support/findings-concurrency.ts (describeFindingsConcurrency).
import { describeFindingsConcurrency } from '../support/findings-concurrency.js';
import { setupLocalBackend } from '../support/local-backend.js';
import { setupMemoryBackend } from '../support/memory-backend.js';

describeFindingsConcurrency({ name: 'memory', setup: setupMemoryBackend, skipAll: null, files: true, timeoutMs: 20_000 });
describeFindingsConcurrency({ name: 'local', setup: setupLocalBackend, skipAll: null, files: true, timeoutMs: 20_000 });
