/**
 * Runs once before the test files: rebuilds `dist/` when it is missing or older than `src/`, so the CLI
 * that integration tests spawn as real processes runs compiled (about a second to start) instead of
 * falling back to the TypeScript sources through tsx (several seconds per process). The tests still run
 * the code as it is now: the bin only takes `dist/` when its build stamp matches the sources.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { builtFromCurrentSources } from '../bin/source-stamp.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export function setup(): void {
  if (process.env.HARNESS_R1_FROM_SOURCE === '1' || builtFromCurrentSources(root)) return;
  const r = spawnSync(process.execPath, [path.join(root, 'scripts', 'build.js')], { cwd: root, encoding: 'utf8' });
  // A failed build fails no test by itself: the bin then runs the sources, as it does without a build.
  if (r.status !== 0) process.stderr.write(`test setup: the build failed, so CLI tests run from the sources:\n${r.stderr}`);
}
