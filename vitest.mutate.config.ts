import { readFileSync, statSync } from 'node:fs';

import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Runs the cheap test files first. A mutant run stops at its first failing test, so a mutant that a pure
 * test kills never pays for the files that start a Python sandbox pool (seconds each).
 */
class CheapFirstSequencer extends BaseSequencer {
  override sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const cost = (file: TestSpecification): number => (readFileSync(file.moduleId, 'utf8').includes('createSandboxPool(') ? 1e9 : 0) + statSync(file.moduleId).size;
    return Promise.resolve([...files].sort((a, b) => cost(a) - cost(b) || (a.moduleId < b.moduleId ? -1 : 1)));
  }
}

// The test set of `npm run mutate`: the fast tests beside the code. The integration tests drive the CLI in
// child processes, which mutants never reach, and take minutes.
export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    reporters: ['default'],
    sequence: { sequencer: CheapFirstSequencer },
    // Each run imports the code afresh, so a mutant in a module-level constant is really in effect.
    isolate: true,
  },
});
