// The backend contract against the local adapter and a real embedded backend (`catalog serve`).
// Assertions: this file only binds a backend to the shared contract; every test and its
// expect() calls live in tests/contract/suite.ts (describeBackendContract).
import { setupLocalBackend } from './local-backend.js';
import { describeBackendContract } from './suite.js';

describeBackendContract('local', setupLocalBackend);
