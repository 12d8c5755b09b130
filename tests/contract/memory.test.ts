// The backend contract against the in-memory backend (`shared/adapters/memory`): four clients
// (admin, user, signed out, service) on one shared store, as four clients of one embedded server.
// Assertions: this file only binds a backend to the shared contract; every test and its
// expect() calls live in tests/contract/suite/ (describeBackendContract).
import { setupMemoryBackend } from '../support/memory-backend.js';
import { describeBackendContract } from './suite/index.js';

describeBackendContract('memory', setupMemoryBackend, {
  skip: {
    httpDownloadLinks:
      "the in-memory backend's download links are data: URLs (fetchable, checked by the other file tests); " +
      'no server stands behind them to check a token or answer HTTP range requests',
  },
});
