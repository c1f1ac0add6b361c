import path from 'node:path';

import type { Command } from 'commander';
import { z } from 'zod';

import { ConfigError, REWARD_METRICS, type Outcome } from '../../episode/index.js';
import { createImproveProgress } from '../progress.js';
import { isEngineerPromptProtocol, ENGINEER_PROMPT_PROTOCOLS } from '../../engineer/engineer-prompt.js';
import { choiceOption, DEFAULT_BATCH_SIZE, intOption, parseWith, splitOptions } from '../../app/options.js';
import { simSpecs } from '../../app/resolve-target.js';
import { exportRl, type ExportRlSummary } from '../../training/rows/export-rl.js';
import { isRlFormat, RL_FORMATS, type RlFormat } from '../../training/rows/formats.js';
import { DEFAULT_ROLLOUT_GROUP } from '../../training/rows/group-rows.js';
import { PARTITIONS } from '../../task-splits/index.js';
import { EXIT_OK } from '../exit-codes.js';
import { addBenchmarkFlags, benchNames, receivedOptions, type CliContext } from '../cli-context.js';
import { addExportBatchingOptions, addExportPlayOptions, openExportSetup } from './export-setup.js';

export const ExportRlOptionsSchema = z.object({
  bench: z.string(),
  split: choiceOption('split', PARTITIONS).default('rl_train'),
  target: z.string(),
  out: z.string(),
  format: z.string().default('relax'),
  batchSize: intOption('batchSize', 1, 100_000).default(DEFAULT_BATCH_SIZE),
  batches: intOption('batches', 1, 100_000).optional(),
  splits: z.string().optional(),
  pool: z.string().optional(),
  dataDir: z.string().optional(),
  concurrency: intOption('concurrency', 1, 256).default(4),
  maxRounds: intOption('maxRounds', 1, 10_000).optional(),
  protocol: z.string().optional(),
  engineerProtocol: z.string().default('prefill_think_patch'),
  metric: choiceOption('metric', REWARD_METRICS as readonly ['delta_pass_rate', 'delta_average_reward']).optional(),
  groupSize: intOption('groupSize', 1, 1000).default(DEFAULT_ROLLOUT_GROUP),
  json: z.boolean().optional(),
});

/** `--format relax,verl` → the formats, each known. */
export function parseFormats(text: string): RlFormat[] {
  const list = text.split(',').map((f) => f.trim()).filter((f) => f !== '');
  for (const f of list) if (!isRlFormat(f)) throw new ConfigError({ message: `Unknown --format '${f}'.`, field: 'format', allowed: RL_FORMATS });
  return [...new Set(list)] as RlFormat[];
}

/** `harness-r1 export rl`: RL rows of a training partition with the frozen target's baseline. */
export async function exportRlCommand(ctx: CliContext, received: Record<string, unknown>, out: Pick<NodeJS.WriteStream, 'write'> = process.stdout): Promise<{ code: number; summary: ExportRlSummary }> {
  const { own, bench: benchReceived } = splitOptions(ExportRlOptionsSchema, receivedOptions(ctx, received, Object.keys(ExportRlOptionsSchema.shape)));
  const o = parseWith(ExportRlOptionsSchema, own);
  const formats = parseFormats(o.format);
  if (!isEngineerPromptProtocol(o.engineerProtocol)) throw new ConfigError({ message: `Unknown --engineer-protocol '${o.engineerProtocol}'.`, field: 'engineerProtocol', allowed: ENGINEER_PROMPT_PROTOCOLS });
  const { definition, manifest, manifestSha256, partition, located, options, choice, opened, target } = await openExportSetup(ctx, o, benchReceived);
  const live = o.json ? null : createImproveProgress(process.stderr);
  try {
    const log = (line: string) => {
      if (!o.json) process.stderr.write(`${line}\n`);
    };
    const summary = await exportRl({
      benchmark: definition, manifest, manifestSha256, partition, located,
      environment: opened.environment, serving: opened.identity, opened: { protocol: choice.protocol, options, maxRounds: o.maxRounds ?? null },
      target: target.model, targetSpec: o.target, targetModel: target.model.endpoint?.model ?? target.model.label,
      outDir: path.resolve(o.out), formats, batchSize: o.batchSize, ...(o.batches === undefined ? {} : { batches: o.batches }),
      protocol: o.engineerProtocol, threshold: 1, metric: o.metric ?? definition.evaluation.defaultMetric, concurrency: o.concurrency, groupSize: o.groupSize,
      onProgress: log,
      ...(live ? { onBaselineEpisode: (p: { done: number; total: number; outcome?: Outcome }) => live.event({ kind: 'episode', batchTag: 'baseline', ...p }) } : {}),
    });
    out.write(o.json ? `${JSON.stringify(summary, null, 2)}\n` : renderExportSummary(summary));
    return { code: EXIT_OK, summary };
  } finally {
    live?.stop();
    await opened.environment.close();
    await target.close();
  }
}

export function renderExportSummary(s: ExportRlSummary): string {
  const lines = [
    `${s.benchmark} ${s.partition}: ${s.batches.rows} RL row(s) from ${s.batches.total} batch(es) of ${s.tasks.played} task(s)${s.targetSimulated ? ' — baseline from a SIMULATED target' : ''}`,
    `  tasks: ${s.tasks.inPartition} in the partition, ${s.tasks.unplayable} not playable with this data, ${s.tasks.played} played`,
    `  batches without a failure (no row): ${s.batches.noFailures}; infrastructure-failed tasks left out: ${s.batches.infraExcludedTasks}; baseline pass rate ${(s.baselinePassRate * 100).toFixed(1)}%`,
    ...s.files.map((f) => `  wrote ${f.file} (${f.rows} rows, ${f.bytes} bytes)`),
    `mixed: ${s.mixed.rows} row(s) in ${s.mixed.groups} single-benchmark group(s) over ${Object.entries(s.mixed.byBenchmark).map(([b, n]) => `${b} ${n}`).join(', ')}; ${s.mixed.repeated} row(s) repeated to complete last groups`,
    ...s.mixed.files.map((f) => `  wrote ${f.file} (${f.rows} rows, ${f.bytes} bytes)`),
  ];
  return `${lines.join('\n')}\n`;
}

export function registerExportRlCommand(parent: Command, ctx: CliContext): void {
  const head = parent
    .command('rl')
    .description('RL rows: the frozen target\'s no-harness baseline over a training split, one release row (engineer prompt + frozen baseline) per batch with a failure.')
    .option('--bench <bench>', `benchmark (required): ${benchNames(ctx)}`)
    .option('--split <partition>', 'training partition of the split manifest: rl_train (default) or sft_train')
    .option('--target <spec>', `frozen target (required): openai:<base-url>#<model>, ${simSpecs(ctx.registry).join(', ')}[?seed=N], scripted:<file>`)
    .option('--out <dir>', 'export folder (required): <dir>/<bench>/ and <dir>/mixed/')
    .option('--format <list>', `${RL_FORMATS.join(', ')} (comma-separated; default relax). rows.jsonl (the release row) is always written`);
  const command = addExportBatchingOptions(head)
    .option('--group-size <n>', `rows per single-benchmark rollout group in mixed/ (reference ${DEFAULT_ROLLOUT_GROUP})`)
    .option('--engineer-protocol <p>', `engineer prompt protocol: ${ENGINEER_PROMPT_PROTOCOLS.join(' or ')} (default prefill_think_patch)`)
    .option('--metric <metric>', `batch reward recorded for the reward side: ${REWARD_METRICS.join(' or ')}`);
  addExportPlayOptions(command, ctx, { hookTimeout: false });
  addBenchmarkFlags(command, ctx.registry).action(async (opts: Record<string, unknown>) => {
    process.exitCode = (await exportRlCommand(ctx, opts)).code;
  });
}
