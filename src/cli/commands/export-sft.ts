import path from 'node:path';

import type { Command } from 'commander';
import { z } from 'zod';

import { ConfigError, REWARD_METRICS } from '../../episode/index.js';
import { ENGINEER_PROMPT_PROTOCOLS, isEngineerPromptProtocol } from '../../engineer/engineer-prompt.js';
import { openBenchmark } from '../../app/open-environment.js';
import { choiceOption, DEFAULT_BATCH_SIZE, intOption, parseWith, splitOptions } from '../../app/options.js';
import { resolveEngineer } from '../../app/resolve-engineer.js';
import { simSpecs } from '../../app/resolve-target.js';
import { sandboxCompiler } from '../../app/sandbox-compiler.js';
import { createSandboxPool } from '../../sandbox/index.js';
import { PARTITIONS } from '../../task-splits/index.js';
import { exportSft, type ExportSftSummary } from '../../training/sft/export-sft.js';
import { isSftFormat, SFT_FORMATS, type SftFormat } from '../../training/sft/sft-row.js';
import { EXIT_OK } from '../exit-codes.js';
import { createImproveProgress } from '../progress.js';
import { addBenchmarkFlags, benchNames, type CliContext } from '../cli-context.js';
import { addExportBatchingOptions, addExportPlayOptions, openExportSetup } from './export-setup.js';
import { probability } from './sample-group.js';

export const ExportSftOptionsSchema = z.object({
  bench: z.string(),
  split: choiceOption('split', PARTITIONS).default('sft_train'),
  target: z.string(),
  teacher: z.string().default('symbolic'),
  k: intOption('k', 1, 64).default(4),
  temperature: probability('temperature', 0).default(0.7),
  topP: probability('topP', 0.01).default(0.95),
  seed: intOption('seed', 0, 2 ** 31 - 1).default(0),
  out: z.string(),
  format: z.string().default('llamafactory'),
  batchSize: intOption('batchSize', 1, 100_000).default(DEFAULT_BATCH_SIZE),
  batches: intOption('batches', 1, 100_000).optional(),
  splits: z.string().optional(),
  pool: z.string().optional(),
  dataDir: z.string().optional(),
  concurrency: intOption('concurrency', 1, 256).default(4),
  hookTimeoutMs: intOption('hookTimeoutMs', 1, 60_000).optional(),
  maxRounds: intOption('maxRounds', 1, 10_000).optional(),
  protocol: z.string().optional(),
  engineerProtocol: z.string().default('prefill_think_patch'),
  metric: choiceOption('metric', REWARD_METRICS as readonly ['delta_pass_rate', 'delta_average_reward']).optional(),
  allowRegressions: z.boolean().optional(),
  keepInert: z.boolean().optional(),
  json: z.boolean().optional(),
});

/** `--format llamafactory,trl` → the formats, each known. */
export function parseSftFormats(text: string): SftFormat[] {
  const list = text.split(',').map((f) => f.trim()).filter((f) => f !== '');
  for (const f of list) if (!isSftFormat(f)) throw new ConfigError({ message: `Unknown --format '${f}'.`, field: 'format', allowed: SFT_FORMATS });
  return [...new Set(list)] as SftFormat[];
}

/** `harness-r1 export sft`: cold-start SFT rows, teacher answers kept only if executable, complete and non-regressive. */
export async function exportSftCommand(ctx: CliContext, received: Record<string, unknown>, out: Pick<NodeJS.WriteStream, 'write'> = process.stdout, err: NodeJS.WriteStream = process.stderr): Promise<{ code: number; summary: ExportSftSummary }> {
  const { own, bench: benchReceived } = splitOptions(ExportSftOptionsSchema, received);
  const o = parseWith(ExportSftOptionsSchema, own);
  const formats = parseSftFormats(o.format);
  if (!isEngineerPromptProtocol(o.engineerProtocol)) throw new ConfigError({ message: `Unknown --engineer-protocol '${o.engineerProtocol}'.`, field: 'engineerProtocol', allowed: ENGINEER_PROMPT_PROTOCOLS });
  const { definition, dataDir, manifest, manifestSha256, partition, located, options, choice, opened, target } = await openExportSetup(ctx, o, benchReceived);
  const sampling = { temperature: o.temperature, topP: o.topP, seed: o.seed };
  const teachers = await Promise.all(Array.from({ length: o.k }, (_, k) => resolveEngineer(o.teacher, { dataDir, sampling: { ...sampling, seed: o.seed * 1000 + k } })));
  const pool = createSandboxPool({ size: Math.min(2, o.concurrency), ...(o.hookTimeoutMs === undefined ? {} : { hookTimeoutMs: o.hookTimeoutMs }) });
  const progress = o.json ? null : createImproveProgress(err);
  const metric = o.metric ?? definition.evaluation.defaultMetric;
  const threshold = 1;
  try {
    const summary = await exportSft({
      benchmark: definition, manifest, manifestSha256, partition, located,
      environment: opened.environment, serving: opened.identity, opened: { protocol: choice.protocol, options, maxRounds: o.maxRounds ?? null },
      target: target.model, targetSpec: o.target, outDir: path.resolve(o.out), formats, batchSize: o.batchSize, ...(o.batches === undefined ? {} : { batches: o.batches }),
      protocol: o.engineerProtocol, threshold, metric, concurrency: o.concurrency,
      teachers: teachers.map((t) => t.engineer), teacherSpec: o.teacher, sampling,
      filter: { allowRegressions: o.allowRegressions ?? false, keepInert: o.keepInert ?? false },
      reward: {
        patchRules: ctx.registry.patchRules(), compiler: sandboxCompiler(pool), pool, maxInfraRetries: 2,
        openEnvironment: async (patch) => (await openBenchmark(choice, patch)).environment,
        rerunContext: { target: o.target, bench: definition.name, split: located.split, ...opened.identity, threshold, metric, ...(o.hookTimeoutMs === undefined ? {} : { hookTimeoutMs: o.hookTimeoutMs }) },
      },
      ...(progress
        ? {
            onProgress: (line: string) => err.write(`${line}\n`),
            onBaselineEpisode: (p) => progress.event({ kind: 'episode', batchTag: 'baseline', done: p.done, total: p.total, ...(p.outcome ? { outcome: p.outcome } : {}) }),
            onEvent: (e) => progress.event(e),
          }
        : {}),
    });
    progress?.stop();
    out.write(o.json ? `${JSON.stringify(summary, null, 2)}\n` : renderSftSummary(summary));
    return { code: EXIT_OK, summary };
  } finally {
    progress?.stop();
    await opened.environment.close();
    await target.close();
    await Promise.all(teachers.map((t) => t.close()));
    await pool.close();
  }
}

export function renderSftSummary(s: ExportSftSummary): string {
  const reasons = Object.entries(s.rejected).filter(([, n]) => n > 0).map(([r, n]) => `${r} ${n}`).join(', ') || 'none';
  const lines = [
    `${s.benchmark} ${s.partition}: ${s.kept} SFT row(s) from ${s.batches.packets} packet(s) × ${s.k} teacher answer(s) (${s.candidates} candidates)${s.labels.length > 0 ? ` — ${s.labels.join('; ')}` : ''}`,
    `  teacher ${s.teacherSpec} (temperature ${s.sampling.temperature}, top-p ${s.sampling.topP}, seed ${s.sampling.seed}); target ${s.targetSpec}`,
    `  tasks: ${s.tasks.inPartition} in the partition, ${s.tasks.unplayable} not playable with this data, ${s.tasks.played} played; ${s.batches.total} batch(es), ${s.batches.noFailures} without a failure; baseline pass rate ${(s.baselinePassRate * 100).toFixed(1)}%`,
    `  rejected: ${reasons}; packets without a row: ${s.packetsWithoutRow}${s.filter.allowRegressions ? ' (regressions allowed)' : ''}${s.filter.keepInert ? ' (inert patches kept)' : ''}`,
    ...s.files.map((f) => `  wrote ${f.file} (${f.rows} rows, ${f.bytes} bytes)`),
  ];
  return `${lines.join('\n')}\n`;
}

export function registerExportSftCommand(parent: Command, ctx: CliContext): void {
  const head = parent
    .command('sft')
    .description('Cold-start SFT rows: K teacher answers per packet of a training split, each validated and rerun through the reward path of improve; at most one kept per packet (executable, complete, non-regressive; best delta, then shortest).')
    .option('--bench <bench>', `benchmark (required): ${benchNames(ctx)}`)
    .option('--split <partition>', 'training partition of the split manifest: sft_train (default) or rl_train')
    .option('--target <spec>', `frozen target (required): openai:<base-url>#<model>, ${simSpecs(ctx.registry).join(', ')}[?seed=N], scripted:<file>`)
    .option('--teacher <spec>', 'teacher engineer: symbolic (default; seeded sampling), openai:<base-url>#<model>, scripted:<file>')
    .option('--k <n>', 'teacher answers per packet (default 4)')
    .option('--temperature <t>', 'teacher sampling temperature (default 0.7)')
    .option('--top-p <p>', 'teacher nucleus (default 0.95)')
    .option('--seed <n>', 'sample k uses seed*1000+k (default 0)')
    .option('--out <dir>', 'export folder (required): <dir>/<bench>/ and <dir>/dataset_info.json')
    .option('--format <list>', `${SFT_FORMATS.join(', ')} (comma-separated; default llamafactory). sft.jsonl is always written`);
  const command = addExportBatchingOptions(head)
    .option('--allow-regressions', 'keep an answer that regresses a task when the batch delta is still >= 0')
    .option('--keep-inert', 'keep a valid answer whose rerun applied no hook effect')
    .option('--engineer-protocol <p>', `response protocol of the rows: ${ENGINEER_PROMPT_PROTOCOLS.join(' or ')} (default prefill_think_patch)`)
    .option('--metric <metric>', `rerun delta: ${REWARD_METRICS.join(' or ')} (default: the benchmark's)`);
  addExportPlayOptions(command, ctx, { hookTimeout: true });
  addBenchmarkFlags(command, ctx.registry).action(async (opts: Record<string, unknown>) => {
    process.exitCode = (await exportSftCommand(ctx, opts)).code;
  });
}
