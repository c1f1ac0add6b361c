import { REPLAY_HELP } from '../../app/replay-choice.js';
import { existsSync } from 'node:fs';
import path from 'node:path';

import type { Command } from 'commander';

import { ConfigError } from '../../episode/index.js';
import type { AnyBenchmarkDefinition } from '../../benchmark/definition.js';
import type { ImproveContext } from '../../evaluation/improve/improve-batch.js';
import { targetSpecForRepeat } from '../../experiments/ablation/ablation-arms.js';
import { renderAblationTable } from '../../experiments/ablation/render-ablation.js';
import { runAblationExperiment, type AblationRepeat } from '../../experiments/ablation/run-ablation.js';
import { describeRejection, validatePatch, validatePatchFile, type HarnessPatch } from '../../patch/index.js';
import { ImproveRunDir } from '../../run-dir/improve-run-dir.js';
import { AblationOptionsSchema, patchOrRun } from '../../app/experiment-options.js';
import { parseWith } from '../../app/options.js';
import { simSpecs } from '../../app/resolve-target.js';
import { EXIT_OK } from '../exit-codes.js';
import { addBenchmarkFlags, benchmarkOf, benchNames, protocolHelp, type CliContext } from '../cli-context.js';
import { checkSpecs } from '../../app/check-specs.js';
import { experimentStrategyReport, withStrategy } from '../experiment-strategy.js';
import { experimentDir, experimentOptions, openExperiment, PLAY_OPTION_HELP } from './experiment-setup.js';

/** The patch to ablate: a file, or the first batch of a run (in tag order) that has a valid patch. */
async function patchToAblate(source: { patch: string } | { from: string }, definition: AnyBenchmarkDefinition, ctx: ImproveContext): Promise<{ patch: HarnessPatch; label: string }> {
  const options = { bench: definition.name, benchmarks: ctx.patchRules, compiler: ctx.compiler, rejectRuntimeNoop: true, codeHookOnly: definition.evaluation.codeHookOnly };
  if ('patch' in source) {
    const verdict = await validatePatchFile(source.patch, options);
    if (verdict.kind === 'invalid') throw new ConfigError({ message: `Patch ${source.patch} is invalid: ${describeRejection(verdict.rejection)}`, field: 'patch' });
    return { patch: verdict.patch, label: source.patch };
  }
  const run = new ImproveRunDir(source.from);
  if (!existsSync(run.root)) throw new ConfigError({ message: `--from ${source.from}: no such run directory.`, field: 'from' });
  for (const tag of run.batchTags()) {
    const stored = run.batch(tag).readPatch();
    if (!stored) continue;
    const verdict = await validatePatch(stored, options);
    if (verdict.kind === 'valid') return { patch: verdict.patch, label: path.join(source.from, 'batches', tag, 'patch.json') };
  }
  throw new ConfigError({ message: `--from ${source.from}: no batch of that run has a valid ${definition.name} patch.`, field: 'from' });
}

/** `harness-r1 experiment ablation`: the library function behind it. */
export async function ablationCommand(ctx: CliContext, received: Record<string, unknown>, out: NodeJS.WriteStream = process.stdout): Promise<number> {
  const { own, bench } = experimentOptions(ctx, AblationOptionsSchema, received);
  const o = parseWith(AblationOptionsSchema, own);
  const source = patchOrRun(o);
  const log = (line: string) => process.stderr.write(`${line}\n`);
  checkSpecs(ctx.registry, [{ bench: (await benchmarkOf(ctx, o.bench)).name, targets: [o.target] }]);
  const root = experimentDir('ablation', o.bench, o.split, o.out);
  const setup = await openExperiment(ctx, o, bench, async () => ({ engineer: { label: 'none (a given patch is ablated)', kind: 'llm', propose: async () => ({ status: 'request_failed', detail: 'the ablation asks no engineer' }) }, close: async () => {} }), root, log);
  try {
    const { patch, label } = await patchToAblate(source, setup.definition, setup.context);
    const repeats: AblationRepeat[] = [];
    for (let r = 0; r < o.repeats; r++) {
      const spec = targetSpecForRepeat(o.target, r);
      const target = r === 0 && spec === o.target ? { model: setup.context.target, identity: setup.baselineIdentity } : await setup.openTarget(spec);
      repeats.push({
        context: { ...setup.context, target: target.model, rerunContext: { ...setup.context.rerunContext, target: spec } },
        baselineIdentity: target.identity,
        environment: setup.baselineEnvironment,
      });
    }
    const artifact = await runAblationExperiment({ repeats, taskIndices: setup.taskIndices, patch, patchSource: label, settings: { ...setup.settings, resamples: o.resamples }, bootstrap: { resamples: o.resamples } });
    const files = { runDir: root, summary: path.join(root, 'ablation.json') };
    const strategy = o.strategy
      ? experimentStrategyReport(o.strategy, root, artifact.rows.flatMap((row) => (row.sameAsFull ? [] : row.runs.map((dir, r) => ({ label: `r${r + 1} ${row.label}`, dir })))))
      : undefined;
    if (o.json) out.write(`${JSON.stringify({ ...files, ...(strategy ? { strategy: strategy.json } : {}), ...artifact }, null, 2)}\n`);
    else out.write(`${withStrategy(renderAblationTable(artifact, { success: setup.definition.paperColumns?.success ?? `${setup.definition.title} Succ.`, score: setup.definition.paperColumns?.score ?? `${setup.definition.title} Score` }), strategy)}run directory: ${root}\n`);
    return EXIT_OK;
  } finally {
    await setup.close();
  }
}

export function registerAblationCommand(experiment: Command, ctx: CliContext): void {
  const command = experiment
    .command('ablation')
    .description('Lifecycle ablation: one patch rerun in full, with no intervention, and with each lifecycle position disabled, each R times.')
    .option('--bench <bench>', `benchmark (required): ${benchNames(ctx)}`)
    .option('--split <split>', "split (default: the benchmark's first)")
    .option('--tasks <range>', 'task indices: START:END, 7, or 1,3,9 (default: the whole split)')
    .option('--target <spec>', `frozen target (required): openai:<base-url>#<model>, ${simSpecs(ctx.registry).join(', ')}[?seed=N] (a simulated target's seed is varied per repeat)`)
    .option('--patch <file>', 'the patch to ablate')
    .option('--from <run>', 'ablate the first valid patch of an improve or held-out run directory')
    .option('--repeats <n>', 'reruns of every arm (default 3)')
    .option('--resamples <n>', 'paired bootstrap resamples (default 10000)')
    .option('--strategy <name>', PLAY_OPTION_HELP.strategy)
    .option('--hook-timeout-ms <ms>', PLAY_OPTION_HELP.hookTimeoutMs)
    .option('--replay <mode>', REPLAY_HELP)
    .option('--concurrency <n>', 'episodes played at once (default 4)')
    .option('--max-rounds <n>', "rounds per episode (default: the benchmark's)")
    .option('--protocol <p>', `the protocol the target plays: ${protocolHelp(ctx.registry)}`)
    .option('--data-dir <dir>', 'benchmark data folder (default ../shared/data or HARNESS_DATA_DIR)')
    .option('--out <dir>', 'run directory; an existing one is resumed (default runs/ablation-<bench>-<split>-<time>)')
    .option('--config <file>', 'a JSON file with the same settings (camelCase keys); flags win')
    .option('--json', 'machine-readable summary');
  addBenchmarkFlags(command, ctx.registry)
    .addHelpText('after', `
Arms: full patch, no intervention, and w/o init (on_init), pre-decision (make_pre_hint), pre-action
(on_before_action), post-feedback (on_post_step); the same switch as --disable-hooks on run and improve.
Each arm and repeat is a run store under <out>/arms/; <out>/ablation.json holds the table with the paired
statistics of every arm against the full patch. Run the same command again to resume.`)
    .action(async (opts: Record<string, unknown>) => {
      process.exitCode = await ablationCommand(ctx, opts);
    });
}
