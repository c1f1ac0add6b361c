import type { Command } from 'commander';

import { checkBench, type Bench } from '../resolve-environment.js';
import { improveCommand } from './improve.js';

const DEMO_TASKS: Record<Bench, string> = { dbbench: '0:60', alfworld: '0:20', webshop: '0:50' };

const DEMO_DATA: Record<Bench, string> = {
  dbbench: 'the real DBBench dev split (embedded SQLite)',
  alfworld: 'the real ALFWorld dev games (TypeScript text world)',
  webshop: 'the real WebShop catalogue with synthetic goals (seed 233)',
};

/** What the demo says before it runs: which parts are real and which are simulated. */
export function demoBanner(bench: Bench, taskFile?: string): string {
  return [
    `harness-r1 demo — the whole Harness-R1 loop, offline, on ${taskFile === undefined ? DEMO_DATA[bench] : `the ${bench} tasks of ${taskFile}`}:`,
    'baseline → failure evidence → engineer patch → validation → sandboxed rerun of the same tasks → reward.',
    `SIMULATED parts: the target is a SIMULATED TARGET (sim:${bench}), a seeded policy that knows each task's`,
    'solution and makes realistic mistakes, served over a local OpenAI-compatible HTTP server; the engineer is',
    'the built-in SYMBOLIC ENGINEER (rule-based), not an LLM. The numbers describe the simulation, not a model.',
    'Real parts: the tasks, the environment and grader, the patch validator, the Python sandbox and the runtime.',
  ].join('\n');
}

export function registerDemoCommand(program: Command): void {
  program
    .command('demo')
    .description('Run the whole loop offline: simulated target + symbolic engineer on batches of real tasks (DBBench dev by default), then an HTML report.')
    .option('--bench <bench>', 'dbbench (default), alfworld or webshop', 'dbbench')
    .option('--seed <n>', 'seed of the simulated target', '1')
    .option('--tasks <range>', 'task indices (default: dbbench dev 0:60, alfworld dev 0:20, webshop goals 0:50)')
    .option('--batch-size <n>', 'tasks per batch', (v) => Number(v), 10)
    .option('--concurrency <n>', 'episodes played at once', (v) => Number(v), 4)
    .option('--run-dir <dir>', 'where the run is recorded (default runs/improve-dbbench-dev-<time>); an existing one is resumed')
    .option('--data-dir <dir>', 'benchmark data folder (default ../shared/data or HARNESS_DATA_DIR)')
    .option('--protocol <p>', 'alfworld, webshop: fc (function calling, default) or v0.2 (text protocol)')
    .option('--data <file>', 'dbbench: a task file to play instead of the dev split; webshop: a goals file (items_human_ins.json format)')
    .option('--games <file>', 'alfworld: a games file to play instead of the dev split')
    .option('--json', 'print a machine-readable summary on stdout')
    .action(async (opts: { bench: string; seed: string; tasks?: string; batchSize: number; concurrency: number; runDir?: string; dataDir?: string; protocol?: string; data?: string; games?: string; json?: boolean }) => {
      const bench = checkBench(opts.bench);
      const file = opts.data ?? opts.games;
      const result = await improveCommand({
        bench,
        // A task file replaces the dev split; by default all of its tasks are played.
        ...(file === undefined ? { split: 'dev', tasks: opts.tasks ?? DEMO_TASKS[bench] } : { tasks: opts.tasks ?? ':' }),
        ...(opts.data !== undefined ? { data: opts.data } : {}),
        ...(opts.games !== undefined ? { games: opts.games } : {}),
        batchSize: opts.batchSize,
        target: `sim:${bench}?seed=${encodeURIComponent(opts.seed)}`,
        engineer: 'symbolic',
        concurrency: opts.concurrency,
        banner: demoBanner(bench, file),
        ...(opts.runDir !== undefined ? { runDir: opts.runDir } : {}),
        ...(opts.dataDir !== undefined ? { dataDir: opts.dataDir } : {}),
        ...(opts.protocol !== undefined ? { protocol: opts.protocol } : {}),
        ...(opts.json ? { json: true } : {}),
      });
      process.exitCode = result.code;
    });
}
