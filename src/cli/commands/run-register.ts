/**
 * `harness-r1 run`: its flags and help text. What it does (`runCommand`, with the sandbox, the stores and
 * the model clients) is in `run.ts`, loaded when the command runs, so `run --help` does not load it.
 */
import type { Command } from 'commander';

import { HOOK_NAMES } from '../../episode/index.js';
import { STRATEGY_NAMES } from '../../runtime/strategies/index.js';
import { DEFAULT_MAX_RECORD_BYTES, MAX_RECORD_BYTES_ENV } from '../../store/record-size-cap.js';
import { SHORT_TASK_TABLE_ROWS } from '../render-summary.js';
import { MODEL_TURN_WARN_SHARE } from '../../evaluation/model-turn-health.js';
import { describeResponseLimits } from '../../models/response-limits.js';
import { simSpecs } from '../../app/check-specs.js';
import { simTargetHelp } from '../sim-target-help.js';
import { addBenchmarkFlags, benchNames, protocolHelp, roundsHelp, splitHelp, type CliContext } from '../cli-context.js';

export function registerRunCommand(program: Command, ctx: CliContext): void {
  const command = program
    .command('run')
    .description('Play benchmark tasks with a target model and record every episode (no engineer, no reward).')
    .option('--bench <bench>', `benchmark (required): ${benchNames(ctx)}, or the path of a benchmark module`)
    .option('--split <split>', `split (${splitHelp(ctx.registry)}); default: the benchmark's first`)
    .option('--tasks <range>', 'task indices: START:END (end exclusive), 7, or 1,3,9 (default: the whole split)')
    .option('--target <spec>', `target model (required): openai:<base-url>#<model>, ${simSpecs(ctx.registry).join(', ')}[?seed=N&faults=…&latency_ms=N] (parameters below), scripted:<file>`)
    .option('--concurrency <n>', 'episodes played at once (default 1)')
    .option('--run-dir <dir>', 'where the run is recorded (default runs/<bench>-<split>-<time>)')
    .option('--resume', 'continue the run in --run-dir: skip recorded episodes, play the rest')
    .option('--new', 'start a new run even when --run-dir holds one: records into the first free <dir>-2, <dir>-3, …')
    .option('--retry-infra', 'with --resume: also replay episodes that ended in model_error, env_error or hook_fault')
    .option('--patch <file>', 'validate a Harness-R1 patch and install its hooks (sandboxed Python) into every episode')
    .option('--patch-source <dir>', 'one patch per batch: the tasks are cut into batches as improve cuts them (batch_000, batch_001, …) and each batch is played with <dir>/<batch tag>/<bench>.json (none when the file is missing)')
    .option('--batch-size <n>', 'with --patch-source: tasks per batch (default 10, as improve)')
    .option('--disable-hooks <positions>', `lifecycle positions whose hooks are not called, comma-separated: ${HOOK_NAMES.join(', ')}`)
    .option('--strategy <name>', `a baseline target strategy: ${STRATEGY_NAMES.join(', ')} (reflection reports success@2 on its own line)`)
    .option('--hook-timeout-ms <ms>', 'wall-clock limit of one hook call (default 50, as the original)')
    .option('--hook-kill-limit <n>', 'switch a hook off for the rest of an episode after its calls cost this many sandbox worker kills (default 2; 0 never)')
    .option('--max-rounds <n>', `rounds (or steps) per episode (default: ${roundsHelp(ctx.registry)})`)
    .option('--protocol <p>', `the protocol the target plays: ${protocolHelp(ctx.registry)}`)
    .option('--data-dir <dir>', 'benchmark data folder (default ../shared/data or HARNESS_DATA_DIR)')
    .option('--max-record-bytes <n>', `cap on one stored episode record; a record over it is stored as that episode's model_error (default ${DEFAULT_MAX_RECORD_BYTES}, or ${MAX_RECORD_BYTES_ENV})`)
    .option('--tasks-table', `print every task's row at the end (default: at most ${SHORT_TASK_TABLE_ROWS}, those that did not succeed first)`)
    .option('--config <file>', 'a JSON file with the same settings (camelCase keys, e.g. {"concurrency": 8}); flags win')
    .option('--json', 'print a machine-readable summary on stdout');
  addBenchmarkFlags(command, ctx.registry)
    .addHelpText(
      'after',
      `
Examples:
  harness-r1 run --bench dbbench --split dev --tasks 0:60 --target sim:dbbench --concurrency 8
  OPENAI_API_KEY=… harness-r1 run --bench dbbench --tasks 0:10 --target 'openai:http://127.0.0.1:8000/v1#Qwen/Qwen3.5-9B'
  harness-r1 run --bench dbbench --run-dir runs/my-run --resume --target sim:dbbench   # continue after a crash
  harness-r1 run --bench dbbench --tasks 0:60 --target sim:dbbench --patch patch.json     # rerun with a patch
  harness-r1 run --bench dbbench --tasks 0:60 --target sim:dbbench --patch-source runs/gen/patches
      # tasks 0-9 with runs/gen/patches/batch_000/dbbench.json, 10-19 with batch_001/…: the patches of an
      # improve --generate-only run on the same --tasks and --batch-size, played without a reward
  harness-r1 run --bench alfworld --split dev --target sim:alfworld                       # 20 ALFWorld games
  harness-r1 run --bench webshop --tasks 0:100 --target sim:webshop                       # WebShop goals
  harness-r1 run --bench alfworld --protocol v0.2 --target sim:alfworld                # AgentBench's v0.2 text protocol
  harness-r1 run --bench dbbench --data my-tasks.jsonl --target sim:dbbench              # your own task file
  harness-r1 run --bench alfworld --games my-games.jsonl --target sim:alfworld           # your own games
  harness-r1 run --bench ./my-bench/index.js --target sim:my-bench                       # a benchmark of your own
${simTargetHelp(ctx.registry, 'run')}

Every finished episode is appended to <run-dir>/episodes.jsonl at once; a killed run loses nothing. When the
run ends the file is rewritten in task order (then attempt), so the same seed gives the same bytes at any
concurrency. Each record carries its attempt; a task's last attempt is the one that counts.

Caps on what an openai: target may send (SPEC options, e.g. …#model?max_tool_calls=4; defaults shown):
${describeResponseLimits().map((line) => `  ${line}`).join('\n')}
Each cap that bites is recorded in the episode's detail.modelLimits and counted in the summary.
The summary warns (and --json counts, under modelTurns) when ${MODEL_TURN_WARN_SHARE * 100} % or more of the model turns came back
with the tool call as text in content, empty, or with unparseable tool arguments: a server setting, not the model.`,
    )
    .action(async (opts: Record<string, unknown>) => {
      const { runCommand } = await import('./run.js');
      process.exitCode = await runCommand(ctx, opts);
    });
}
