#!/usr/bin/env node
// Runs the compiled CLI (`dist/`, built by `npm run build` and by `npm ci`) when it was built from the
// sources as they are now; otherwise (no build, or sources edited since) the TypeScript sources through
// tsx, so a clone works without a build step and an edit is never hidden by a stale build.
/* global process */
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { builtFromCurrentSources } from './source-stamp.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

if (process.env.HARNESS_R1_FROM_SOURCE !== '1' && builtFromCurrentSources(root)) {
  await import('../dist/cli/main.js');
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('../src/cli/main.ts');
}
