// The backend contract against the local adapter and a real embedded backend (`catalog serve`).
import { setupLocalBackend } from './local-backend.js';
import { describeBackendContract } from './suite.js';

describeBackendContract('local', setupLocalBackend);
