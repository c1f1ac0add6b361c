/**
 * The dependency direction of src/ is held by lint (eslint.config.js): a planted import that runs the wrong
 * way must fail, the same import in an allowed place must pass.
 */
import path from 'node:path';

import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

import { PROJECT_ROOT } from './cli-helpers.js';

const eslint = new ESLint({ cwd: PROJECT_ROOT });

async function restricted(file: string, source: string): Promise<string[]> {
  const [result] = await eslint.lintText(source, { filePath: path.join(PROJECT_ROOT, file) });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

describe('layers held by lint', () => {
  it.each([
    ['src/runtime/planted.ts', "import { dbbench } from '../benchmarks/dbbench/index.js';\nexport const x = dbbench;\n"],
    ['src/runtime/planted.ts', "import { improveRun } from '../evaluation/improve/improve-run.js';\nexport const x = improveRun;\n"],
    ['src/evaluation/planted.ts', "import { alfworld } from '../benchmarks/alfworld/index.js';\nexport const x = alfworld;\n"],
    ['src/engineer/planted.ts', "import { BenchmarkRegistry } from '../benchmarks/registry.js';\nexport const x = BenchmarkRegistry;\n"],
    ['src/patch/planted.ts', "import { DBBENCH_PATCH_RULES } from '../benchmarks/dbbench/patch-rules.js';\nexport const x = DBBENCH_PATCH_RULES;\n"],
    ['src/report/planted.ts', "import { main } from '../cli/main.js';\nexport const x = main;\n"],
    ['src/benchmarks/dbbench/planted.ts', "import { resolveTarget } from '../../app/resolve-target.js';\nexport const x = resolveTarget;\n"],
    ['src/environments/dbbench/planted.ts', "import { runEpisode } from '../../runtime/run-episode.js';\nexport const x = runEpisode;\n"],
    ['src/app/planted.ts', "import { main } from '../cli/main.js';\nexport const x = main;\n"],
    ['src/models/planted.ts', "import { engineerInput } from '../testing/sim-baseline.fixture.js';\nexport const x = engineerInput;\n"],
  ])('refuses %s importing the wrong way', async (file, source) => {
    const messages = await restricted(file, source);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatch(/must not import/);
  });

  it.each([
    ['src/app/planted.ts', "import { dbbench } from '../benchmarks/dbbench/index.js';\nexport const x = dbbench;\n"],
    ['src/evaluation/planted.ts', "import type { AnyBenchmarkDefinition } from '../benchmark/definition.js';\nexport type X = AnyBenchmarkDefinition;\n"],
    ['src/runtime/planted.ts', "import type { ToolEpisode } from '../environments/environment.js';\nexport type X = ToolEpisode;\n"],
    ['src/runtime/planted.test.ts', "import { dbbench } from '../benchmarks/dbbench/index.js';\nexport const x = dbbench;\n"],
  ])('allows %s importing the right way', async (file, source) => {
    expect(await restricted(file, source)).toEqual([]);
  });

  it('keeps an example benchmark off paths into src/', async () => {
    expect(await restricted('examples/any/index.ts', "import { defineBenchmark } from '../../src/benchmark/definition.js';\nexport const x = defineBenchmark;\n")).toHaveLength(1);
  });
});
