import type { Command } from 'commander';

import { runCommand } from './run.js';

export const DEMO_BANNER = [
  'harness-r1 demo — offline, on the real DBBench dev split (60 tasks, embedded SQLite).',
  'The target is a SIMULATED TARGET (sim:dbbench): a seeded policy that knows each task\'s solution and',
  'makes realistic mistakes, served over a local OpenAI-compatible HTTP server. Its numbers describe the',
  'simulation, not any real model. Point --target at a real server with `harness-r1 run` for real results.',
].join('\n');

export function registerDemoCommand(program: Command): void {
  program
    .command('demo')
    .description('Run the main job offline: the simulated DBBench target plays the dev split (no network, no model weights).')
    .option('--seed <n>', 'seed of the simulated target', '1')
    .option('--tasks <range>', 'dev task indices (default all 60)', '0:60')
    .option('--concurrency <n>', 'episodes played at once', (v) => Number(v), 4)
    .option('--run-dir <dir>', 'where the run is recorded (default runs/demo-<time>)')
    .option('--data-dir <dir>', 'benchmark data folder (default ../shared/data or HARNESS_DATA_DIR)')
    .option('--json', 'print a machine-readable summary on stdout')
    .action(async (opts: { seed: string; tasks: string; concurrency: number; runDir?: string; dataDir?: string; json?: boolean }) => {
      process.exitCode = await runCommand({
        bench: 'dbbench',
        split: 'dev',
        tasks: opts.tasks,
        target: `sim:dbbench?seed=${encodeURIComponent(opts.seed)}`,
        concurrency: opts.concurrency,
        banner: DEMO_BANNER,
        ...(opts.runDir !== undefined ? { runDir: opts.runDir } : {}),
        ...(opts.dataDir !== undefined ? { dataDir: opts.dataDir } : {}),
        ...(opts.json ? { json: true } : {}),
      });
    });
}
