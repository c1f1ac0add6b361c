#!/usr/bin/env node
// Runs the CLI from source through tsx, so a clone works without a build step.
import { register } from 'tsx/esm/api';
register();
await import('../src/cli/main.ts');
