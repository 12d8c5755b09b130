// The backend contract against the local adapter and a real embedded backend (`catalog serve`).
// Assertions: this file only binds a backend to the shared contract; every test and its
// expect() calls live in tests/contract/suite/ (describeBackendContract).
import { setupLocalBackend } from '../support/local-backend.js';
import { describeBackendContract } from './suite/index.js';

describeBackendContract('local', setupLocalBackend);
