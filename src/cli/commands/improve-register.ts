/**
 * `harness-r1 improve`: its flags and help text. What it does (`improveCommand`: the loop, the sandbox, the
 * model clients, the report) is in `improve.ts`, loaded when the command runs, so `improve --help` does not
 * load it.
 */
import type { Command } from 'commander';

import { HOOK_NAMES, REWARD_METRICS } from '../../episode/index.js';
import { REPLAY_HELP } from '../../app/replay-choice.js';
import { DEFAULT_BATCH_SIZE } from '../../app/options.js';
import { simSpecs } from '../../app/check-specs.js';
import { STRATEGY_NAMES } from '../../runtime/strategies/index.js';
import { addBenchmarkFlags, benchNames, protocolHelp, roundsHelp, splitHelp, type CliContext } from '../cli-context.js';
import { simTargetHelp } from '../sim-target-help.js';

export function registerImproveCommand(program: Command, ctx: CliContext): void {
  const command = program
    .command('improve')
    .description('The Harness-R1 loop: baseline → failure evidence → engineer patch → validate → rerun the same tasks → reward, per batch.')
    .option('--bench <bench>', `benchmark (required): ${benchNames(ctx)}, or the path of a benchmark module`)
    .option('--split <split>', `split (${splitHelp(ctx.registry)}); default: the benchmark's first`)
    .option('--tasks <range>', 'task indices (default 0:10): START:END, 7, or 1,3,9')
    .option('--batch-size <n>', `tasks per batch (reference ${DEFAULT_BATCH_SIZE})`)
    .option('--batches <n>', 'only the first N batches')
    .option('--target <spec>', `frozen target (required): openai:<base-url>#<model>, ${simSpecs(ctx.registry).join(', ')}[?seed=N&faults=…&latency_ms=N] (parameters below), scripted:<file>`)
    .option('--engineer <spec>', 'engineer: symbolic (built-in, offline; the default), openai:<base-url>#<model>, scripted:<file>')
    .option('--patch-source <dir>', 'replay patches instead of asking an engineer: <dir>/<batch tag>/<bench>.json, e.g. the <run>/patches of a --generate-only run (a missing file is no patch for that batch)')
    .option('--generate-only', 'per batch: baseline, packet, engineer and validation only; valid patches are written to <run-dir>/patches/<batch tag>/<bench>.json, never rerun or scored (status generated)')
    .option('--concurrency <n>', 'episodes played at once (default 4)')
    .option('--run-dir <dir>', 'where everything is recorded; an existing one is resumed with the same settings, refused with others (default runs/improve-<bench>-<split>-<time>)')
    .option('--new', 'start a new run even when --run-dir holds one: records into the first free <dir>-2, <dir>-3, …')
    .option('--metric <metric>', `batch reward: ${REWARD_METRICS.join(' or ')} (default: the benchmark's: ${ctx.registry.all().map((d) => `${d.name} ${d.evaluation.defaultMetric}`).join(', ')})`)
    .option('--max-rounds <n>', `rounds (or steps) per episode (default: ${roundsHelp(ctx.registry)})`)
    .option('--protocol <p>', `the protocol the target plays: ${protocolHelp(ctx.registry)}`)
    .option('--data-dir <dir>', 'benchmark data folder (default ../shared/data or HARNESS_DATA_DIR)')
    .option('--strategy <name>', `a baseline target strategy the baseline and every rerun are played with: ${STRATEGY_NAMES.join(', ')} (the reward stays success@1; reflection's success@2 is reported apart)`)
    .option('--hook-timeout-ms <ms>', 'wall-clock limit of one hook call in reruns (default 50, as the original)')
    .option('--disable-hooks <positions>', `lifecycle positions whose hooks are not called in reruns, comma-separated: ${HOOK_NAMES.join(', ')}`)
    .option('--replay <mode>', REPLAY_HELP)
    .option('--revise', 'LLM engineers: a second pass per batch that sees the first patch, its result, its flips and traces of its rerun (adds <tag>-revision rows)')
    .option('--config <file>', 'a JSON file with the same settings (camelCase keys); flags win')
    .option('--json', 'machine-readable summary');
  addBenchmarkFlags(command, ctx.registry)
    .addHelpText(
      'after',
      `
Examples:
  harness-r1 improve --bench dbbench --tasks 0:20 --target sim:dbbench                     # offline: simulated target, symbolic engineer
  harness-r1 improve --bench alfworld --split dev --tasks 0:10 --target sim:alfworld --metric delta_pass_rate
  harness-r1 improve --bench webshop --tasks 0:10 --target 'sim:webshop?latency_ms=300'   # at a real server's pace
  harness-r1 improve --bench dbbench --tasks 0:20 --target sim:dbbench --run-dir runs/my-loop   # the same again resumes it
  harness-r1 improve --bench dbbench --tasks 0:60 --target 'openai:http://127.0.0.1:8000/v1#Qwen/Qwen3-8B' --engineer 'openai:http://127.0.0.1:8001/v1#Qwen/Qwen3-32B'
${simTargetHelp(ctx.registry, 'improve')}

Every stage leaves a file under <run-dir> (baseline/, batches/<tag>/{metadata,engineer,prompt,verdict,patch,result}.json,
reruns/<key>/, summary.json); run the same command with the same --run-dir to resume after a crash.
--generate-only and --patch-source split generation from the rerun (the original's GENERATE_ONLY and
PATCH_SOURCE_ROOT): both are part of the run's identity, so a generate-only run directory is only ever
resumed as one (improve without the flag on it is refused with the difference); score its patches in a new
run directory, e.g. on another target:
  harness-r1 improve --bench dbbench --tasks 0:20 --target sim:dbbench --generate-only --run-dir runs/gen
  harness-r1 improve --bench dbbench --tasks 0:20 --target sim:dbbench?seed=3 --patch-source runs/gen/patches
The patch folder is checked first: no patch for any batch is a usage error; its files' digest is recorded,
so a patch file changed between two plays of the same run directory is refused.
A patch scores its delta only when it is valid, its rerun completed and at least one hook effect fired;
invalid, inert and no-patch batches score 0; reruns that infrastructure failures kept from completing are
reported as missing evaluations, never as results.
The caps on what a model server may send are openai: SPEC options (see harness-r1 run --help); the
summary warns when the target's turns point at a server setting (tool calls as text, empty turns).`,
    )
    .action(async (opts: Record<string, unknown>) => {
      const { improveCommand } = await import('./improve.js');
      const result = await improveCommand(ctx, opts);
      process.exitCode = result.code;
    });
}
