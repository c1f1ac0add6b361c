import path from 'node:path';

import type { Command } from 'commander';

import { renderMainTable } from '../../experiments/main-table/render-main.js';
import { runMainExperiment } from '../../experiments/main-table/run-main.js';
import { MainOptionsSchema } from '../../app/experiment-options.js';
import { parseWith } from '../../app/options.js';
import { simSpecs } from '../../app/resolve-target.js';
import { STRATEGY_NAMES } from '../../runtime/strategies/index.js';
import { EXIT_OK } from '../exit-codes.js';
import { addBenchmarkFlags, benchNames, protocolHelp, type CliContext } from '../cli-context.js';
import { ANY_SIM, openMatrix } from './experiment-cells.js';
import { experimentOptions } from './experiment-setup.js';

/** The benchmarks of the paper's Table 1, in its column order (those registered). */
const TABLE_ONE_ORDER = ['webshop', 'alfworld', 'dbbench'];

/** `harness-r1 experiment main`: the library function behind it. */
export async function mainTableCommand(ctx: CliContext, received: Record<string, unknown>, out: NodeJS.WriteStream = process.stdout): Promise<number> {
  const { own, bench } = experimentOptions(ctx, MainOptionsSchema, received);
  const o = parseWith(MainOptionsSchema, own);
  const benches = o.benches ?? TABLE_ONE_ORDER.filter((b) => ctx.registry.find(b));
  const { perBench, root, openBench } = await openMatrix(ctx, o, 'main', benches, bench, o.targets, o.engineers);
  const artifact = await runMainExperiment({
    rootDir: root,
    benches,
    targets: o.targets,
    engineers: o.engineers,
    ...(o.strategies ? { strategies: o.strategies } : {}),
    batchSize: o.batchSize,
    settings: { split: o.split ?? null, tasks: o.tasks ?? null, protocol: o.protocol ?? null, maxRounds: o.maxRounds ?? null, options: Object.fromEntries(perBench), resamples: o.resamples, ...(o.hookTimeoutMs !== undefined ? { hookTimeoutMs: o.hookTimeoutMs } : {}) },
    openBench,
    bootstrap: { resamples: o.resamples },
  });
  if (o.json) out.write(`${JSON.stringify({ runDir: root, summary: path.join(root, 'main.json'), ...artifact }, null, 2)}\n`);
  else out.write(`${renderMainTable(artifact)}\nrun directory: ${root}\n`);
  return EXIT_OK;
}

export function registerMainTableCommand(experiment: Command, ctx: CliContext): void {
  const command = experiment
    .command('main')
    .description("The paper's main table: per target the default harness, each baseline strategy and each engineer's patches, on every benchmark, with the equal-weight Avg.")
    .option('--targets <list>', `frozen targets, comma-separated (required): openai:<base-url>#<model>, ${simSpecs(ctx.registry).join(', ')}, ${ANY_SIM}[?seed=N] (each benchmark's simulated target)`)
    .option('--engineers <list>', 'engineers, comma-separated: symbolic (default), openai:<base-url>#<model>, scripted:<file>')
    .option('--strategies <list>', `baseline target strategies, comma-separated, one no-patch row each: ${STRATEGY_NAMES.join(', ')} (reflection: success@1 in the table, success@2 in its own column)`)
    .option('--hook-timeout-ms <ms>', "wall-clock limit of one hook call in the engineers' reruns (default 50, as the original)")
    .option('--benches <list>', `benchmarks, comma-separated (default: ${TABLE_ONE_ORDER.join(',')}): ${benchNames(ctx)}`)
    .option('--split <split>', "split (default: each benchmark's first)")
    .option('--tasks <range>', 'task indices on every benchmark: START:END, 7, or 1,3,9 (default: the whole split)')
    .option('--batch-size <n>', 'tasks per engineer batch (default 10)')
    .option('--resamples <n>', 'paired bootstrap resamples (default 10000)')
    .option('--concurrency <n>', 'episodes played at once (default 4)')
    .option('--max-rounds <n>', "rounds per episode (default: the benchmark's)")
    .option('--protocol <p>', `the protocol the targets play: ${protocolHelp(ctx.registry)}`)
    .option('--data-dir <dir>', 'benchmark data folder (default ../shared/data or HARNESS_DATA_DIR)')
    .option('--out <dir>', 'run directory; an existing one is resumed (default runs/main-<benches>-<split>-<time>)')
    .option('--json', 'machine-readable summary');
  addBenchmarkFlags(command, ctx.registry)
    .addHelpText('after', `
Columns as in the paper's Table 1: a benchmark's Score (mean reward × 100) where its metric is the average
reward, its task families where it has them, its success column; Avg. is the equal-weight mean of the
success columns. Every engineer row carries its change vs the default harness with the paired bootstrap
interval and exact McNemar test, and <out>/main.json the cost per role. Layout: <out>/cells/<bench>/t<i>/
(baseline), .../<strategy>/ (the target played with that strategy, no patch) and .../e<j>/ (each engineer's
batches and reruns). A strategy row is paired with the default harness on success@1 like the others;
Reflection's success@2 (a second episode after a failure) is printed in a column of its own and never
ranked against success@1. Run the same command again to resume.`)
    .action(async (opts: Record<string, unknown>) => {
      process.exitCode = await mainTableCommand(ctx, opts);
    });
}
