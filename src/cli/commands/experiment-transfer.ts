import path from 'node:path';

import type { Command } from 'commander';

import { renderTransferSummary } from '../../experiments/transfer/render-transfer.js';
import { runTransferExperiment } from '../../experiments/transfer/run-transfer.js';
import { TransferOptionsSchema } from '../../app/experiment-options.js';
import { parseWith } from '../../app/options.js';
import { simSpecs } from '../../app/resolve-target.js';
import { EXIT_OK } from '../exit-codes.js';
import { addBenchmarkFlags, benchNames, protocolHelp, type CliContext } from '../cli-context.js';
import { ANY_SIM, openMatrix } from './experiment-cells.js';
import { strategyAndTimeout } from '../../run-dir/run-identity.js';
import { experimentStrategyReport, withStrategy } from '../experiment-strategy.js';
import { experimentOptions, PLAY_OPTION_HELP } from './experiment-setup.js';

/** `harness-r1 experiment transfer`: the library function behind it. */
export async function transferCommand(ctx: CliContext, received: Record<string, unknown>, out: NodeJS.WriteStream = process.stdout): Promise<number> {
  const { own, bench } = experimentOptions(ctx, TransferOptionsSchema, received);
  const o = parseWith(TransferOptionsSchema, own);
  const { perBench, root, openBench } = await openMatrix(ctx, o, 'transfer', o.bench, bench, o.targets, [o.engineer]);
  const artifact = await runTransferExperiment({
    rootDir: root,
    benches: o.bench,
    targets: o.targets,
    batchSize: o.batchSize,
    settings: { split: o.split ?? null, tasks: o.tasks ?? null, engineer: o.engineer, protocol: o.protocol ?? null, maxRounds: o.maxRounds ?? null, options: Object.fromEntries(perBench), resamples: o.resamples, ...strategyAndTimeout(o) },
    openBench,
    bootstrap: { resamples: o.resamples },
    ...(o.strategy ? { strategy: o.strategy } : {}),
  });
  const strategy = o.strategy ? experimentStrategyReport(o.strategy, root, artifact.cells.map((c) => ({ label: `${c.bench} ${c.target} baseline`, dir: path.join(c.dir, 'baseline') }))) : undefined;
  if (o.json) out.write(`${JSON.stringify({ runDir: root, summary: path.join(root, 'transfer.json'), ...(strategy ? { strategy: strategy.json } : {}), ...artifact }, null, 2)}\n`);
  // The matrix's own lines carry each cell's success@2 (baseline and patched); the per-store lines would repeat them.
  else out.write(`${withStrategy(renderTransferSummary(artifact), strategy && { ...strategy, lines: [] })}run directory: ${root}\n`);
  return EXIT_OK;
}

export function registerTransferCommand(experiment: Command, ctx: CliContext): void {
  const command = experiment
    .command('transfer')
    .description('Cross-target transfer: per target its own baseline and its own patches on the same tasks; a target × benchmark matrix of deltas.')
    .option('--bench <list>', `benchmark(s), comma-separated (required): ${benchNames(ctx)}`)
    .option('--targets <list>', `frozen targets, comma-separated (required): openai:<base-url>#<model>, ${simSpecs(ctx.registry).join(', ')}, ${ANY_SIM}[?seed=N] (each benchmark's simulated target)`)
    .option('--engineer <spec>', 'engineer: symbolic (default), openai:<base-url>#<model>, scripted:<file>')
    .option('--split <split>', "split (default: each benchmark's first)")
    .option('--tasks <range>', 'task indices on every benchmark: START:END, 7, or 1,3,9 (default: the whole split)')
    .option('--batch-size <n>', 'tasks per engineer batch (default 10)')
    .option('--resamples <n>', 'paired bootstrap resamples (default 10000)')
    .option('--strategy <name>', PLAY_OPTION_HELP.strategy)
    .option('--hook-timeout-ms <ms>', PLAY_OPTION_HELP.hookTimeoutMs)
    .option('--concurrency <n>', 'episodes played at once (default 4)')
    .option('--max-rounds <n>', "rounds per episode (default: the benchmark's)")
    .option('--protocol <p>', `the protocol the targets play: ${protocolHelp(ctx.registry)}`)
    .option('--data-dir <dir>', 'benchmark data folder (default ../shared/data or HARNESS_DATA_DIR)')
    .option('--out <dir>', 'run directory; an existing one is resumed (default runs/transfer-<benches>-<split>-<time>)')
    .option('--json', 'machine-readable summary');
  addBenchmarkFlags(command, ctx.registry)
    .addHelpText('after', `
Each target × benchmark cell is an improve-style folder <out>/cells/<bench>/t<i>/ (baseline, batches, reruns);
<out>/transfer.json holds the matrix: every cell's pass-rate delta with its paired bootstrap interval and
exact McNemar test, the average and the counts of improved / unchanged / regressed cells, and the cost per
role. Tasks some target could not be evaluated on are left out of that benchmark for every target.
Run the same command again to resume. Results of a simulated target or the symbolic engineer are labelled so.`)
    .action(async (opts: Record<string, unknown>) => {
      process.exitCode = await transferCommand(ctx, opts);
    });
}
