import type { EpisodeRecord, Outcome, RecordedTurn } from '../../episode/index.js';
import { NO_HOOKS } from '../../hooks/native-hooks.js';
import type { ChatModel } from '../../models/chat-model.js';
import type { Environment } from '../../runtime/environment.js';
import { RUN_MANIFEST_VERSION, type RunManifest } from '../../store/run-manifest.js';
import { RunStore } from '../../store/run-store.js';
import type { StrategyName } from '../../runtime/strategies/index.js';
import { runBatch, type BatchProgress } from '../run-batch.js';

/** The identity of a baseline run (target, benchmark options); a stored baseline is reused only when it matches. */
export type BaselineManifest = Omit<RunManifest, 'taskIndices' | 'schemaVersion' | 'runId' | 'createdAt' | 'patch'>;

export interface PlayBaselineOptions {
  /** The run store's folder; an existing one is resumed, and refused for another target or options. */
  dir: string;
  environment: Environment;
  target: ChatModel;
  taskIndices: number[];
  manifest: BaselineManifest;
  concurrency: number;
  /** Replays of episodes that ended in an infrastructure failure (bounded). */
  maxInfraRetries: number;
  onProgress?: (progress: { done: number; total: number; outcome?: Outcome }) => void;
  /** Stops scheduling new episodes; running ones finish and are stored. */
  signal?: AbortSignal;
  /** A baseline target strategy every episode is played with (the caller puts it in `manifest.options` too). */
  strategy?: StrategyName;
}

/** The no-harness baseline of the frozen target on some tasks, stored once in a run store; returns its records. */
export async function playBaseline(options: PlayBaselineOptions): Promise<EpisodeRecord[]> {
  const { dir, taskIndices } = options;
  const manifest: RunManifest = { ...options.manifest, schemaVersion: RUN_MANIFEST_VERSION, runId: 'baseline', createdAt: new Date().toISOString(), taskIndices, patch: null };
  const store = RunStore.exists(dir) ? RunStore.open(dir, manifest) : RunStore.create(dir, manifest);
  try {
    for (let attempt = 1; attempt <= 1 + options.maxInfraRetries; attempt++) {
      await runBatch({
        environment: options.environment, model: options.target, hooks: NO_HOOKS, taskIndices, store, concurrency: options.concurrency, retryInfra: attempt > 1,
        ...(options.signal ? { signal: options.signal } : {}),
        ...(options.strategy ? { strategy: options.strategy } : {}),
        ...(options.onProgress ? { onProgress: (p: BatchProgress) => options.onProgress!({ done: p.done, total: p.total, ...(p.record ? { outcome: p.record.outcome } : {}) }) } : {}),
      });
      if (taskIndices.every((i) => store.isDone(i, true)) || options.signal?.aborted) break;
    }
    return store.records();
  } finally {
    store.close();
  }
}

/**
 * The model turns recorded beside a stored run's counting records, per task (empty when the run holds
 * none, e.g. one recorded before turns were kept): what an exact replay answers from.
 */
export function recordedTurnsOf(dir: string): Map<number, RecordedTurn[]> {
  if (!RunStore.exists(dir)) return new Map();
  const store = RunStore.open(dir);
  try {
    return new Map([...store.modelTurns()].map(([index, entry]) => [index, entry.turns]));
  } finally {
    store.close();
  }
}
