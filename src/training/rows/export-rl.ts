import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

import type { RewardMetric } from '../../episode/index.js';
import { PROMPT_VERSION } from '../../engineer/prompt-templates.js';
import { assertNoLeakage, type LocatedSplit, type LocatedTask } from '../../task-splits/index.js';
import { RL_FORMAT_FILES, toJsonl, type RlFormat } from './formats.js';
import { groupMixedRows, DEFAULT_ROLLOUT_GROUP } from './group-rows.js';
import { buildRlRow, promptSha256, RL_ROW_VERSION, type RlRow, type RowIdentity } from './rl-row.js';
import { BASELINE_DIR, batchLocatedTasks, checkTrainingPartition, engineerInputOf, playTrainingBatches, type TrainingBaselineOptions, type TrainingPacket } from './training-batches.js';
import { verlParquet } from './verl-parquet.js';
import { writeFileAtomic } from './write-atomic.js';

/** Manifest tasks with the environment tasks that play them (task-splits' types, re-exported). */
export type { LocatedSplit, LocatedTask };
export { batchLocatedTasks, engineerInputOf, BASELINE_DIR };

/** The canonical rows file of a benchmark (the release's JSONL), read back by `sample-group` and the mixed builder. */
export const ROWS_FILE = 'rows.jsonl';
export const MIXED_DIR = 'mixed';
export const EXPORT_SUMMARY_FILE = 'export.json';

export interface ExportRlOptions extends TrainingBaselineOptions {
  /** How the environment was opened, so a reward side can open it again. */
  opened: { protocol: string; options: Record<string, unknown>; maxRounds: number | null };
  /** The served model name (`target_model`). */
  targetModel: string;
  formats: readonly RlFormat[];
  metric: RewardMetric;
  groupSize?: number;
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

const sha256 = (content: string | Uint8Array) => createHash('sha256').update(content).digest('hex');

/** The identity fields every training row of a packet carries (task ids, environment, manifest, prompt, target). */
export function packetIdentity(o: TrainingBaselineOptions & Pick<ExportRlOptions, 'opened' | 'metric'>, p: TrainingPacket): RowIdentity {
  return {
    row_version: RL_ROW_VERSION,
    split: o.partition,
    task_ids: p.kept.map((t) => t.id),
    task_sha256: p.kept.map((t) => t.sha256),
    env_split: o.environment.split,
    env_protocol: o.opened.protocol,
    env_options: o.opened.options,
    env_max_rounds: o.opened.maxRounds,
    task_indices: p.kept.map((t) => t.index),
    excluded_tasks: p.excluded,
    split_procedure: o.manifest.procedure,
    split_manifest_sha256: o.manifestSha256,
    reward_threshold: o.threshold,
    reward_metric: o.metric,
    response_protocol: p.prompt.protocol,
    schema_style: p.prompt.schemaStyle,
    prompt_version: PROMPT_VERSION,
    prompt_static_prefix_sha256: p.prompt.staticPrefixSha256,
    prompt_sha256: promptSha256(p.prompt.messages, p.prompt.prefill),
    packet_format: p.packet.format,
    packet_failures: p.packet.stats.failures,
    packet_included: p.packet.stats.included,
    target_spec: o.targetSpec,
    target_simulated: o.target.simulated,
    target_serving: o.serving,
    baseline_run: `${o.benchmark.name}/${BASELINE_DIR}`,
  };
}

/**
 * `export rl`: the frozen target's no-harness baseline over a training partition, in batches; per batch
 * with at least one failure, the failure packet and the exact engineer prompt (the LLM engineer's
 * builder, pinned templates, prefill protocol) in one release row with the baseline frozen in its metadata.
 * Writes `<out>/<bench>/` (baseline run store, rows.jsonl, the requested formats, export.json) and
 * rebuilds `<out>/mixed/` from every benchmark exported into `<out>` so far. No validation or test task
 * reaches a row (checked against the manifest before anything is played and before anything is written).
 */
export async function exportRl(o: ExportRlOptions): Promise<ExportRlSummary> {
  checkTrainingPartition(o.partition, 'RL rows');
  const bench = o.benchmark.name;
  const benchDir = path.join(o.outDir, bench);
  const played = await playTrainingBatches(o, 'rl rows');
  const rows: RlRow[] = played.packets.map((p) =>
    buildRlRow(
      p.prompt.system,
      p.prompt.user,
      {
        benchmark: bench,
        batch_tag: p.batchTag,
        start: Math.min(...p.kept.map((t) => t.index)),
        end: Math.max(...p.kept.map((t) => t.index)) + 1,
        batch_size: p.kept.length,
        baseline_pass: p.pass,
        baseline_rewards: Object.fromEntries(p.rewards.map(([i, r]) => [String(i), r])),
        target_model: o.targetModel,
        target_agent_name: o.target.label,
      },
      packetIdentity(o, p),
    ),
  );
  // The check again on what is about to be written (ids and content hashes of every row).
  assertNoLeakage(o.manifest, rows.flatMap((r) => r.metadata.task_ids.map((id, k) => ({ id, sha256: r.metadata.task_sha256[k] ?? null }))), 'rl rows');

  const files = writeRows(benchDir, rows, o.formats);
  const mixed = writeMixed(o.outDir, o.formats, o.groupSize ?? DEFAULT_ROLLOUT_GROUP);
  const summary: ExportRlSummary = {
    benchmark: bench,
    partition: o.partition,
    targetSpec: o.targetSpec,
    targetSimulated: o.target.simulated,
    tasks: { inPartition: o.manifest.partitions[o.partition].tasks.length, unplayable: o.located.unplayable.length, played: played.tasks.length },
    batches: { total: played.batches.length, rows: rows.length, noFailures: played.noFailures, infraExcludedTasks: played.infraExcludedTasks },
    baselinePassRate: played.baselinePassRate,
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
