import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

import type { AnyBenchmarkDefinition } from '../../benchmark/definition.js';
import { ConfigError, isInfraOutcome, type EpisodeRecord, type Outcome, type RewardMetric } from '../../episode/index.js';
import { buildEngineerPrompt, type EngineerPromptProtocol } from '../../engineer/engineer-prompt.js';
import type { EngineerInput } from '../../engineer/engineer.js';
import { PROMPT_VERSION } from '../../engineer/prompt-templates.js';
import { playBaseline } from '../../evaluation/improve/play-baseline.js';
import type { ChatModel } from '../../models/chat-model.js';
import type { Environment } from '../../runtime/environment.js';
import { assertNoLeakage, TRAINING_PARTITIONS, type LocatedSplit, type LocatedTask, type PartitionName, type SplitManifest } from '../../task-splits/index.js';
import { RL_FORMAT_FILES, toJsonl, type RlFormat } from './formats.js';
import { groupMixedRows, DEFAULT_ROLLOUT_GROUP } from './group-rows.js';
import { buildRlRow, promptSha256, RL_ROW_VERSION, type RlRow } from './rl-row.js';
import { verlParquet } from './verl-parquet.js';
import { writeFileAtomic } from './write-atomic.js';

/** Manifest tasks with the environment tasks that play them (task-splits' types, re-exported). */
export type { LocatedSplit, LocatedTask };

/** The canonical rows file of a benchmark (the release's JSONL), read back by `sample-group` and the mixed builder. */
export const ROWS_FILE = 'rows.jsonl';
export const MIXED_DIR = 'mixed';
export const BASELINE_DIR = 'baseline';
export const EXPORT_SUMMARY_FILE = 'export.json';

export interface ExportRlOptions {
  benchmark: AnyBenchmarkDefinition;
  manifest: SplitManifest;
  /** SHA-256 of the manifest as written (`serializeSplitManifest`). */
  manifestSha256: string;
  partition: PartitionName;
  located: LocatedSplit;
  /** The no-harness environment the baseline plays in (opened by the caller for `located.split`). */
  environment: Environment;
  /** The environment's identity (protocol, rounds, grading…): the serving options frozen into each row. */
  serving: Record<string, unknown>;
  /** How the environment was opened, so a reward side can open it again. */
  opened: { protocol: string; options: Record<string, unknown>; maxRounds: number | null };
  target: ChatModel;
  targetSpec: string;
  /** The served model name (`target_model`). */
  targetModel: string;
  outDir: string;
  formats: readonly RlFormat[];
  batchSize: number;
  /** Only the first N batches. */
  batches?: number;
  protocol: EngineerPromptProtocol;
  threshold: number;
  metric: RewardMetric;
  concurrency: number;
  groupSize?: number;
  onProgress?: (line: string) => void;
  /** Each baseline episode as it is recorded (done/total of the whole export, the outcome when one just finished). */
  onEpisode?: (progress: { done: number; total: number; outcome?: Outcome }) => void;
}

export interface ExportRlSummary {
  benchmark: string;
  partition: string;
  targetSpec: string;
  targetSimulated: boolean;
  tasks: { inPartition: number; unplayable: number; played: number };
  batches: { total: number; rows: number; noFailures: number; infraExcludedTasks: number };
  baselinePassRate: number;
  files: { file: string; rows: number; bytes: number; sha256: string }[];
  mixed: { rows: number; groups: number; repeated: number; byBenchmark: Record<string, number>; files: { file: string; rows: number; bytes: number; sha256: string }[] };
}

/** Consecutive batches of located tasks; the manifest's own batches (`[start, end)` task ranges) when the size is the manifest's. */
export function batchLocatedTasks(manifest: SplitManifest, partition: PartitionName, tasks: readonly LocatedTask[], size: number): LocatedTask[][] {
  const ranges = manifest.partitions[partition].batches;
  if (ranges && size === manifest.batchSize) {
    const byIndex = new Map(tasks.map((t) => [t.index, t]));
    return ranges.map((r) => Array.from({ length: r.end - r.start }, (_, k) => byIndex.get(r.start + k)).filter((t): t is LocatedTask => t !== undefined)).filter((b) => b.length > 0);
  }
  const out: LocatedTask[][] = [];
  for (let i = 0; i < tasks.length; i += size) out.push(tasks.slice(i, i + size));
  return out;
}

/** The engineer's view of one exported batch: what `sample-group` rebuilds from the stored baseline. */
export function engineerInputOf(benchmark: AnyBenchmarkDefinition, batchTag: string, split: string, taskIndices: number[], records: ReadonlyMap<number, EpisodeRecord>, threshold: number): EngineerInput {
  const episodes = taskIndices.map((i) => records.get(i)).filter((r): r is EpisodeRecord => r !== undefined && !isInfraOutcome(r.outcome));
  return { benchmark: benchmark.engineer, batchTag, split, taskIndices, episodes, passThreshold: threshold };
}

const sha256 = (content: string | Uint8Array) => createHash('sha256').update(content).digest('hex');

/**
 * `export rl`: the frozen target's no-harness baseline over a training partition, in batches; per batch
 * with at least one failure, the failure packet and the exact engineer prompt (the LLM engineer's
 * builder, pinned templates, prefill protocol) in one release row with the baseline frozen in its metadata.
 * Writes `<out>/<bench>/` (baseline run store, rows.jsonl, the requested formats, export.json) and
 * rebuilds `<out>/mixed/` from every benchmark exported into `<out>` so far. No validation or test task
 * reaches a row (checked against the manifest before anything is written).
 */
export async function exportRl(o: ExportRlOptions): Promise<ExportRlSummary> {
  if (!(TRAINING_PARTITIONS as readonly string[]).includes(o.partition)) {
    throw new ConfigError({ message: `--split ${o.partition} is held out; RL rows come from ${TRAINING_PARTITIONS.join(' or ')}.`, field: 'split', allowed: TRAINING_PARTITIONS });
  }
  const bench = o.benchmark.name;
  const benchDir = path.join(o.outDir, bench);
  const allBatches = batchLocatedTasks(o.manifest, o.partition, o.located.tasks, o.batchSize);
  const batches = o.batches === undefined ? allBatches : allBatches.slice(0, o.batches);
  const tasks = batches.flat();
  assertNoLeakage(o.manifest, tasks, 'rl rows');
  if (tasks.length === 0) throw new ConfigError({ message: `No ${bench} ${o.partition} task can be played with this data (${o.located.unplayable.length} unplayable).`, field: 'split' });

  o.onProgress?.(`${bench}: baseline of ${tasks.length} task(s) in ${batches.length} batch(es)`);
  const records = await playBaseline({
    dir: path.join(benchDir, BASELINE_DIR), environment: o.environment, target: o.target, taskIndices: tasks.map((t) => t.index),
    manifest: { bench, split: o.environment.split, target: { spec: o.targetSpec, label: o.target.label, simulated: o.target.simulated }, options: { ...o.serving, splitPartition: o.partition, splitManifestSha256: o.manifestSha256 } },
    concurrency: o.concurrency, maxInfraRetries: 2,
    ...(o.onEpisode ? { onProgress: o.onEpisode } : {}),
  });
  const byIndex = new Map(records.map((r) => [r.task.index, r]));

  const rows: RlRow[] = [];
  let noFailures = 0;
  let infraExcluded = 0;
  let passes = 0;
  let scored = 0;
  batches.forEach((batch, b) => {
    const batchTag = `${bench}_${o.partition}_${String(b).padStart(4, '0')}`;
    const scoredTasks = new Set(engineerInputOf(o.benchmark, batchTag, o.environment.split, batch.map((t) => t.index), byIndex, o.threshold).episodes.map((e) => e.task.index));
    const excluded = batch.filter((t) => !scoredTasks.has(t.index)).map((t) => t.index);
    // The engineer's input lists the scored tasks, then the excluded ones: what `sample-group` rebuilds from the row.
    const input = engineerInputOf(o.benchmark, batchTag, o.environment.split, [...batch.filter((t) => scoredTasks.has(t.index)).map((t) => t.index), ...excluded], byIndex, o.threshold);
    const usable = scoredTasks;
    infraExcluded += excluded.length;
    const rewards = input.episodes.map((e) => [e.task.index, e.reward] as const);
    const pass = rewards.filter(([, r]) => r >= o.threshold).length;
    passes += pass;
    scored += rewards.length;
    if (rewards.length === 0 || pass === rewards.length) {
      noFailures++;
      return;
    }
    const { prompt, packet } = buildEngineerPrompt(input, { protocol: o.protocol });
    const kept = batch.filter((t) => usable.has(t.index));
    rows.push(
      buildRlRow(
        prompt.system,
        prompt.user,
        {
          benchmark: bench,
          batch_tag: batchTag,
          start: Math.min(...kept.map((t) => t.index)),
          end: Math.max(...kept.map((t) => t.index)) + 1,
          batch_size: kept.length,
          baseline_pass: pass,
          baseline_rewards: Object.fromEntries(rewards.map(([i, r]) => [String(i), r])),
          target_model: o.targetModel,
          target_agent_name: o.target.label,
        },
        {
          row_version: RL_ROW_VERSION,
          split: o.partition,
          task_ids: kept.map((t) => t.id),
          task_sha256: kept.map((t) => t.sha256),
          env_split: o.environment.split,
          env_protocol: o.opened.protocol,
          env_options: o.opened.options,
          env_max_rounds: o.opened.maxRounds,
          task_indices: kept.map((t) => t.index),
          excluded_tasks: excluded,
          split_procedure: o.manifest.procedure,
          split_manifest_sha256: o.manifestSha256,
          reward_threshold: o.threshold,
          reward_metric: o.metric,
          response_protocol: prompt.protocol,
          schema_style: prompt.schemaStyle,
          prompt_version: PROMPT_VERSION,
          prompt_static_prefix_sha256: prompt.staticPrefixSha256,
          prompt_sha256: promptSha256(prompt.messages, prompt.prefill),
          packet_format: packet.format,
          packet_failures: packet.stats.failures,
          packet_included: packet.stats.included,
          target_spec: o.targetSpec,
          target_simulated: o.target.simulated,
          target_serving: o.serving,
          baseline_run: `${bench}/${BASELINE_DIR}`,
        },
      ),
    );
  });
  // The check again on what is about to be written (ids and content hashes of every row).
  assertNoLeakage(o.manifest, rows.flatMap((r) => r.metadata.task_ids.map((id, k) => ({ id, sha256: r.metadata.task_sha256[k] ?? null }))), 'rl rows');

  const files = writeRows(benchDir, rows, o.formats);
  const mixed = writeMixed(o.outDir, o.formats, o.groupSize ?? DEFAULT_ROLLOUT_GROUP);
  const summary: ExportRlSummary = {
    benchmark: bench,
    partition: o.partition,
    targetSpec: o.targetSpec,
    targetSimulated: o.target.simulated,
    tasks: { inPartition: o.manifest.partitions[o.partition].tasks.length, unplayable: o.located.unplayable.length, played: tasks.length },
    batches: { total: batches.length, rows: rows.length, noFailures, infraExcludedTasks: infraExcluded },
    baselinePassRate: scored === 0 ? 0 : passes / scored,
    files: files.map((f) => ({ ...f, file: path.relative(o.outDir, f.file).split(path.sep).join('/') })),
    mixed: { ...mixed, files: mixed.files.map((f) => ({ ...f, file: path.relative(o.outDir, f.file).split(path.sep).join('/') })) },
  };
  writeFileAtomic(path.join(benchDir, EXPORT_SUMMARY_FILE), `${JSON.stringify(summary, null, 2)}\n`);
  return summary;
}

type Written = { file: string; rows: number; bytes: number; sha256: string };

function writeRows(dir: string, rows: readonly RlRow[], formats: readonly RlFormat[]): Written[] {
  const out: Written[] = [];
  const put = (file: string, content: string | Uint8Array) => {
    writeFileAtomic(file, content);
    out.push({ file, rows: rows.length, bytes: typeof content === 'string' ? Buffer.byteLength(content) : content.byteLength, sha256: sha256(content) });
  };
  put(path.join(dir, ROWS_FILE), toJsonl(rows, 'relax'));
  for (const format of formats) put(path.join(dir, RL_FORMAT_FILES[format]), format === 'verl' ? verlParquet(rows) : toJsonl(rows, format));
  return out;
}

/** Reads a rows file (the release JSONL) back. */
export function readRows(file: string): RlRow[] {
  return readFileSync(file, 'utf8').split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l) as RlRow);
}

/** `<out>/mixed/`: every benchmark's rows in `<out>`, grouped so no rollout group mixes benchmarks. */
function writeMixed(outDir: string, formats: readonly RlFormat[], groupSize: number) {
  const byBench = new Map<string, RlRow[]>();
  for (const name of readdirSync(outDir).sort()) {
    const file = path.join(outDir, name, ROWS_FILE);
    if (name === MIXED_DIR || !existsSync(file)) continue;
    byBench.set(name, readRows(file));
  }
  const grouped = groupMixedRows(byBench, groupSize);
  const files = writeRows(path.join(outDir, MIXED_DIR), grouped.rows, formats);
  return {
    rows: grouped.rows.length,
    groups: grouped.groups.length,
    repeated: grouped.repeated.length,
    byBenchmark: Object.fromEntries([...byBench].map(([b, list]) => [b, list.length])),
    files,
  };
}
