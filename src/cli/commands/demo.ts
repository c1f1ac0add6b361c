import type { Command } from 'commander';

import type { AnyBenchmarkDefinition } from '../../benchmark/definition.js';
import { ConfigError } from '../../episode/index.js';
import { benchmarkOf, benchNames, type CliContext } from '../cli-context.js';
import { improveCommand } from './improve.js';

/** What the demo says before it runs: which parts are real and which are simulated. */
export function demoBanner(definition: AnyBenchmarkDefinition, taskFile?: string): string {
  const data = taskFile === undefined ? (definition.demo?.data ?? `the ${definition.title} tasks`) : `the ${definition.name} tasks of ${taskFile}`;
  return [
    `harness-r1 demo — the whole Harness-R1 loop, offline, on ${data}:`,
    'baseline → failure evidence → engineer patch → validation → sandboxed rerun of the same tasks → reward.',
    `SIMULATED parts: the target is a SIMULATED TARGET (sim:${definition.name}), a seeded policy that knows each task's`,
    'solution and makes realistic mistakes, served over a local OpenAI-compatible HTTP server; the engineer is',
    'the built-in SYMBOLIC ENGINEER (rule-based), not an LLM. The numbers describe the simulation, not a model.',
    'Real parts: the tasks, the environment and grader, the patch validator, the Python sandbox and the runtime.',
  ].join('\n');
}

export function registerDemoCommand(program: Command, ctx: CliContext): void {
  program
    .command('demo')
    .description('Run the whole loop offline: simulated target + symbolic engineer on batches of real tasks (DBBench dev by default), then an HTML report.')
    .option('--bench <bench>', `${benchNames(ctx)} (default dbbench), or the path of a benchmark module with a simulated target`, 'dbbench')
    .option('--seed <n>', 'seed of the simulated target', '1')
    .option('--tasks <range>', 'task indices (default: the benchmark\'s demo range; dbbench dev 0:60, alfworld dev 0:20, webshop goals 0:50)')
    .option('--batch-size <n>', 'tasks per batch', '10')
    .option('--concurrency <n>', 'episodes played at once', '4')
    .option('--run-dir <dir>', 'where the run is recorded (default runs/improve-<bench>-<split>-<time>); an existing one is resumed with the same settings, refused with others')
    .option('--new', 'start a new run even when --run-dir holds one: records into the first free <dir>-2, <dir>-3, …')
    .option('--data-dir <dir>', 'benchmark data folder (default ../shared/data or HARNESS_DATA_DIR)')
    .option('--protocol <p>', 'alfworld, webshop: fc (function calling, default) or v0.2 (text protocol)')
    .option('--data <file>', 'dbbench: a task file to play instead of the dev split; webshop: a goals file (items_human_ins.json format)')
    .option('--games <file>', 'alfworld: a games file to play instead of the dev split')
    .option('--json', 'print a machine-readable summary on stdout')
    .action(async (opts: { bench: string; seed: string; tasks?: string; batchSize: string; concurrency: string; runDir?: string; new?: boolean; dataDir?: string; protocol?: string; data?: string; games?: string; json?: boolean }) => {
      const definition = await benchmarkOf(ctx, opts.bench);
      if (!definition.simulation) throw new ConfigError({ message: `${definition.name} has no simulated target, so the offline demo cannot run on it.`, field: 'bench' });
      const result = await improveCommand(
        { registry: ctx.registry },
        {
          bench: opts.bench,
          ...(opts.data === undefined && opts.games === undefined ? { split: definition.defaultSplit, tasks: opts.tasks ?? definition.demo?.tasks } : { tasks: opts.tasks ?? ':' }),
          data: opts.data,
          games: opts.games,
          batchSize: opts.batchSize,
          target: `sim:${definition.name}?seed=${encodeURIComponent(opts.seed)}`,
          engineer: 'symbolic',
          concurrency: opts.concurrency,
          banner: demoBanner(definition, opts.data ?? opts.games),
          runDir: opts.runDir,
          new: opts.new,
          dataDir: opts.dataDir,
          protocol: opts.protocol,
          json: opts.json,
        },
      );
      process.exitCode = result.code;
    });
}
