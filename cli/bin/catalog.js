#!/usr/bin/env node
// The `catalog` command: registers tsx so the TypeScript sources run without a build step.
import { register } from 'tsx/esm/api';

register();
await import('../src/main.ts');
