/**
 * What `export rl` and `export sft` share: the frozen target's no-harness baseline over a training
 * partition, in batches, and per batch with a failure the engineer's packet and exact prompt (the LLM
 * engineer's builder, pinned templates, the chosen response protocol). Leakage is checked against the
 * manifest before anything is played.
 */
import path from 'node:path';

import type { AnyBenchmarkDefinition } from '../../benchmark/definition.js';
import { ConfigError, isInfraOutcome, type EpisodeRecord, type Outcome } from '../../episode/index.js';
import { buildEngineerPrompt, type EngineerPrompt, type EngineerPromptProtocol } from '../../engineer/engineer-prompt.js';
import type { EngineerInput } from '../../engineer/engineer.js';
import type { FailurePacket } from '../../engineer/failure-packet.js';
import { playBaseline } from '../../evaluation/improve/play-baseline.js';
import type { ChatModel } from '../../models/chat-model.js';
import type { Environment } from '../../runtime/environment.js';
import { assertNoLeakage, TRAINING_PARTITIONS, type LocatedSplit, type LocatedTask, type PartitionName, type SplitManifest } from '../../task-splits/index.js';

export const BASELINE_DIR = 'baseline';

export interface TrainingBaselineOptions {
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
  target: ChatModel;
  targetSpec: string;
  outDir: string;
  batchSize: number;
  /** Only the first N batches. */
  batches?: number;
  protocol: EngineerPromptProtocol;
  threshold: number;
  concurrency: number;
  onProgress?: (line: string) => void;
  /** Each baseline episode as it finishes (or is found recorded). */
  onBaselineEpisode?: (progress: { done: number; total: number; outcome?: Outcome }) => void;
}

/** One batch with at least one failure: the tasks it keeps, its baseline and the engineer's packet and prompt. */
export interface TrainingPacket {
  batchIndex: number;
  batchTag: string;
  /** Tasks with a scored baseline, in batch order. */
  kept: LocatedTask[];
  /** Tasks whose baseline ended in an infrastructure failure: not part of the baseline. */
  excluded: number[];
  /** The engineer's view: scored tasks first, then the excluded ones (what `sample-group` rebuilds). */
  input: EngineerInput;
  /** Baseline reward per scored task, in batch order. */
  rewards: (readonly [number, number])[];
  pass: number;
  prompt: EngineerPrompt;
  packet: FailurePacket;
  /** Baseline episodes of the batch's tasks (infrastructure failures included). */
  episodes: EpisodeRecord[];
}

export interface TrainingBatches {
  batches: LocatedTask[][];
  tasks: LocatedTask[];
  packets: TrainingPacket[];
  noFailures: number;
  infraExcludedTasks: number;
  baselinePassRate: number;
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

/** Refuses a held-out partition: training data comes from `rl_train` or `sft_train` only. */
export function checkTrainingPartition(partition: PartitionName, what: string): void {
  if (!(TRAINING_PARTITIONS as readonly string[]).includes(partition)) {
    throw new ConfigError({ message: `--split ${partition} is held out; ${what} come from ${TRAINING_PARTITIONS.join(' or ')}.`, field: 'split', allowed: TRAINING_PARTITIONS });
  }
}

/**
 * Plays (or resumes) the baseline into `<out>/<bench>/baseline/` and builds the packet and prompt of every
 * batch with a failure. `what` names the output in errors (`rl rows`, `sft rows`).
 */
export async function playTrainingBatches(o: TrainingBaselineOptions, what: string): Promise<TrainingBatches> {
  checkTrainingPartition(o.partition, what);
  const bench = o.benchmark.name;
  const allBatches = batchLocatedTasks(o.manifest, o.partition, o.located.tasks, o.batchSize);
  const batches = o.batches === undefined ? allBatches : allBatches.slice(0, o.batches);
  const tasks = batches.flat();
  assertNoLeakage(o.manifest, tasks, what);
  if (tasks.length === 0) throw new ConfigError({ message: `No ${bench} ${o.partition} task can be played with this data (${o.located.unplayable.length} unplayable).`, field: 'split' });

  o.onProgress?.(`${bench}: baseline of ${tasks.length} task(s) in ${batches.length} batch(es)`);
  const records = await playBaseline({
    dir: path.join(o.outDir, bench, BASELINE_DIR), environment: o.environment, target: o.target, taskIndices: tasks.map((t) => t.index),
    manifest: { bench, split: o.environment.split, target: { spec: o.targetSpec, label: o.target.label, simulated: o.target.simulated }, options: { ...o.serving, splitPartition: o.partition, splitManifestSha256: o.manifestSha256 } },
    concurrency: o.concurrency, maxInfraRetries: 2, ...(o.onBaselineEpisode ? { onProgress: o.onBaselineEpisode } : {}),
  });
  const byIndex = new Map(records.map((r) => [r.task.index, r]));

  const packets: TrainingPacket[] = [];
  let noFailures = 0;
  let infraExcluded = 0;
  let passes = 0;
  let scored = 0;
  batches.forEach((batch, b) => {
    const batchTag = `${bench}_${o.partition}_${String(b).padStart(4, '0')}`;
    const scoredTasks = new Set(engineerInputOf(o.benchmark, batchTag, o.environment.split, batch.map((t) => t.index), byIndex, o.threshold).episodes.map((e) => e.task.index));
    const kept = batch.filter((t) => scoredTasks.has(t.index));
    const excluded = batch.filter((t) => !scoredTasks.has(t.index)).map((t) => t.index);
    const input = engineerInputOf(o.benchmark, batchTag, o.environment.split, [...kept.map((t) => t.index), ...excluded], byIndex, o.threshold);
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
    const episodes = batch.map((t) => byIndex.get(t.index)).filter((r): r is EpisodeRecord => r !== undefined);
    packets.push({ batchIndex: b, batchTag, kept, excluded, input, rewards, pass, prompt, packet, episodes });
  });
  return { batches, tasks, packets, noFailures, infraExcludedTasks: infraExcluded, baselinePassRate: scored === 0 ? 0 : passes / scored };
}
