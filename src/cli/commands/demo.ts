import type { Command } from 'commander';

import { improveCommand } from './improve.js';

export const DEMO_BANNER = [
  'harness-r1 demo — the whole Harness-R1 loop, offline, on the real DBBench dev split (embedded SQLite):',
  'baseline → failure evidence → engineer patch → validation → sandboxed rerun of the same tasks → reward.',
  'SIMULATED parts: the target is a SIMULATED TARGET (sim:dbbench), a seeded policy that knows each task\'s',
  'solution and makes realistic mistakes, served over a local OpenAI-compatible HTTP server; the engineer is',
  'the built-in SYMBOLIC ENGINEER (rule-based), not an LLM. The numbers describe the simulation, not a model.',
  'Real parts: the tasks, the database and grader, the patch validator, the Python sandbox and the runtime.',
].join('\n');

export function registerDemoCommand(program: Command): void {
  program
    .command('demo')
    .description('Run the whole loop offline: simulated target + symbolic engineer on DBBench dev batches, then an HTML report.')
    .option('--seed <n>', 'seed of the simulated target', '1')
    .option('--tasks <range>', 'dev task indices (default all 60)', '0:60')
    .option('--batch-size <n>', 'tasks per batch', (v) => Number(v), 10)
    .option('--concurrency <n>', 'episodes played at once', (v) => Number(v), 4)
    .option('--run-dir <dir>', 'where the run is recorded (default runs/improve-dbbench-dev-<time>); an existing one is resumed')
    .option('--data-dir <dir>', 'benchmark data folder (default ../shared/data or HARNESS_DATA_DIR)')
    .option('--json', 'print a machine-readable summary on stdout')
    .action(async (opts: { seed: string; tasks: string; batchSize: number; concurrency: number; runDir?: string; dataDir?: string; json?: boolean }) => {
      const result = await improveCommand({
        bench: 'dbbench',
        split: 'dev',
        tasks: opts.tasks,
        batchSize: opts.batchSize,
        target: `sim:dbbench?seed=${encodeURIComponent(opts.seed)}`,
        engineer: 'symbolic',
        concurrency: opts.concurrency,
        metric: 'delta_pass_rate',
        banner: DEMO_BANNER,
        ...(opts.runDir !== undefined ? { runDir: opts.runDir } : {}),
        ...(opts.dataDir !== undefined ? { dataDir: opts.dataDir } : {}),
        ...(opts.json ? { json: true } : {}),
      });
      process.exitCode = result.code;
    });
}
