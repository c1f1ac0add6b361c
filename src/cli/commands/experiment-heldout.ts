import { REPLAY_HELP } from '../../app/replay-choice.js';
import path from 'node:path';

import type { Command } from 'commander';

import { createPatchSourceEngineer } from '../../engineer/patch-source-engineer.js';
import { runHeldoutExperiment } from '../../experiments/heldout/run-heldout.js';
import { renderHeldoutSummary } from '../../experiments/heldout/render-heldout.js';
import { engineerOrSource, HeldoutOptionsSchema, PAPER_SEEDS } from '../../app/experiment-options.js';
import { parseWith } from '../../app/options.js';
import { resolveEngineer } from '../../app/resolve-engineer.js';
import { parseModelSpec } from '../../models/model-spec.js';
import { simSpecs } from '../../app/resolve-target.js';
import { EXIT_OK } from '../exit-codes.js';
import { addBenchmarkFlags, benchmarkOf, benchNames, protocolHelp, type CliContext } from '../cli-context.js';
import { checkSpecs } from '../../app/check-specs.js';
import { experimentStrategyReport, withStrategy } from '../experiment-strategy.js';
import { experimentDir, experimentOptions, openExperiment, PLAY_OPTION_HELP } from './experiment-setup.js';

/** How the results file names the editor: the patch source's folder, the engineer model, or `symbolic`. */
function editorOf(source: { engineer: string } | { patchSource: string }): { id: string; displayName: string } {
  if ('patchSource' in source) {
    const id = path.basename(path.resolve(source.patchSource));
    return { id, displayName: `${id} (replayed patches)` };
  }
  const spec = parseModelSpec(source.engineer, { field: 'engineer' });
  if (spec.kind === 'openai') return { id: spec.model, displayName: spec.model };
  if (spec.kind === 'scripted') return { id: 'scripted', displayName: `scripted engineer (${path.basename(spec.path)})` };
  return { id: 'symbolic', displayName: 'Symbolic engineer' };
}

/** `harness-r1 experiment heldout`: the library function behind it. */
export async function heldoutCommand(ctx: CliContext, received: Record<string, unknown>, out: NodeJS.WriteStream = process.stdout): Promise<number> {
  const { own, bench } = experimentOptions(ctx, HeldoutOptionsSchema, received);
  const o = parseWith(HeldoutOptionsSchema, own);
  const source = engineerOrSource(o);
  const editor = editorOf(source);
  const log = (line: string) => process.stderr.write(`${line}\n`);
  checkSpecs(ctx.registry, [{ bench: (await benchmarkOf(ctx, o.bench)).name, targets: [o.target] }], 'engineer' in source ? [source.engineer] : []);
  const root = experimentDir('heldout', o.bench, o.split, o.out);
  const setup = await openExperiment(ctx, o, bench, async (definition, dataDir) =>
    'patchSource' in source ? { engineer: createPatchSourceEngineer(source.patchSource, definition.name), close: async () => {} } : resolveEngineer(source.engineer, { dataDir }), root, log);
  try {
    const summary = await runHeldoutExperiment({
      context: setup.context,
      baselineEnvironment: setup.baselineEnvironment,
      baselineIdentity: setup.baselineIdentity,
      taskIndices: setup.taskIndices,
      seeds: o.seeds,
      evidence: o.evidence,
      editor,
      settings: { ...setup.settings, ...('patchSource' in source ? { patchSource: path.resolve(source.patchSource) } : {}), resamples: o.resamples },
      bootstrap: { resamples: o.resamples },
    });
    const run = { runDir: root, results: path.join(root, 'results.json'), summary: path.join(root, 'heldout.json') };
    const strategy = o.strategy
      ? experimentStrategyReport(o.strategy, root, [{ label: 'baseline', dir: 'baseline' }, ...summary.artifact.seeds.map((s) => ({ label: `seed${s.seed} held-out, with its patch`, dir: path.join('arms', `seed${s.seed}-heldout`) }))])
      : undefined;
    if (o.json) out.write(`${JSON.stringify({ ...run, ...(strategy ? { strategy: strategy.json } : {}), ...summary.artifact }, null, 2)}\n`);
    else out.write(`${withStrategy(renderHeldoutSummary(summary.artifact), strategy)}results: ${run.results}\nrun directory: ${root}\n`);
    return EXIT_OK;
  } finally {
    await setup.close();
  }
}

export function registerHeldoutCommand(experiment: Command, ctx: CliContext): void {
  const command = experiment
    .command('heldout')
    .description('Held-out generalization: per seed, sample evidence failures from the baseline, get one patch, apply it to every other task of the split.')
    .option('--bench <bench>', `benchmark (required): ${benchNames(ctx)}`)
    .option('--split <split>', "split (default: the benchmark's first)")
    .option('--tasks <range>', 'narrow the split to these task indices: START:END, 7, or 1,3,9 (default: the whole split)')
    .option('--target <spec>', `frozen target (required): openai:<base-url>#<model>, ${simSpecs(ctx.registry).join(', ')}[?seed=N]`)
    .option('--engineer <spec>', 'engineer: symbolic (default), openai:<base-url>#<model>, scripted:<file>')
    .option('--patch-source <dir>', 'replay patches instead of asking an engineer: <dir>/seed<SEED>/<bench>.json (a missing file is no patch)')
    .option('--evidence <n>', 'evidence failures sampled per seed (default 10)')
    .option('--seeds <list>', `evidence seeds, comma-separated (default ${PAPER_SEEDS.join(',')})`)
    .option('--resamples <n>', 'paired bootstrap resamples (default 10000)')
    .option('--strategy <name>', PLAY_OPTION_HELP.strategy)
    .option('--hook-timeout-ms <ms>', PLAY_OPTION_HELP.hookTimeoutMs)
    .option('--replay <mode>', REPLAY_HELP)
    .option('--concurrency <n>', 'episodes played at once (default 4)')
    .option('--max-rounds <n>', 'rounds per episode (default: the benchmark\'s)')
    .option('--protocol <p>', `the protocol the target plays: ${protocolHelp(ctx.registry)}`)
    .option('--data-dir <dir>', 'benchmark data folder (default ../shared/data or HARNESS_DATA_DIR)')
    .option('--out <dir>', 'run directory; an existing one is resumed (default runs/heldout-<bench>-<split>-<time>)')
    .option('--config <file>', 'a JSON file with the same settings (camelCase keys); flags win')
    .option('--json', 'machine-readable summary');
  addBenchmarkFlags(command, ctx.registry)
    .addHelpText('after', `
Writes <out>/results.json in the shape of the original's heldout_generalization/results.json, <out>/heldout.json
(every delta with its paired bootstrap interval and exact McNemar test), the baseline, one batch folder per
seed (packet, prompt, patch, verdict) and the held-out reruns. Run the same command again to resume.
Results of a simulated target or the symbolic engineer are labelled so.`)
    .action(async (opts: Record<string, unknown>) => {
      process.exitCode = await heldoutCommand(ctx, opts);
    });
}
