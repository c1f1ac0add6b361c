/**
 * The schema of an improve run's own artifacts: per-batch metadata and result, the reward numbers inside a
 * result, and the run's summary. Writers (the improve loop) and readers (the report, exporters) share these
 * types through the run directory's owner (`improve-run-dir.ts`).
 */
import type { EvalStatus, RewardMetric } from '../episode/index.js';
import type { FailurePacket } from '../engineer/failure-packet.js';

export const BATCH_RESULT_VERSION = 1 as const;
export const IMPROVE_SUMMARY_VERSION = 1 as const;
export const PACKET_ARTIFACT_VERSION = 1 as const;

/** `batches/<tag>/packet.json`: the failure packet of the batch's baseline episodes, as its benchmark renders it. */
export interface PacketArtifact extends FailurePacket {
  schemaVersion: typeof PACKET_ARTIFACT_VERSION;
}

export interface BatchReward {
  batchSize: number;
  baselinePass: number;
  patchedPass: number;
  baselineAverage: number;
  patchedAverage: number;
  deltaPassRate: number;
  deltaAverageReward: number;
  metric: RewardMetric;
  /** The metric's delta: the batch's reward. */
  score: number;
  /** Tasks that failed in the baseline and pass after the patch, and the reverse. */
  rescued: number[];
  regressed: number[];
  unchanged: number;
}

/** `batches/<tag>/metadata.json`, written before the engineer is asked. */
export interface BatchMetadata {
  batchTag: string;
  taskIndices: number[];
  excludedTasks: number[];
  split: string;
  target: string;
  targetSimulated: boolean;
  threshold: number;
  metric: string;
  engineer: { label: string; symbolic: boolean };
}

/** The persisted outcome of one batch (`<run>/batches/<tag>/result.json`). */
export interface BatchResult {
  schemaVersion: typeof BATCH_RESULT_VERSION;
  batchTag: string;
  taskIndices: number[];
  status: EvalStatus;
  validPatch: boolean;
  /** Tasks left out because their baseline episode itself failed for infrastructure reasons. */
  excludedTasks: number[];
  baseline: { pass: number; rewards: Record<string, number> };
  patched: { pass: number; rewards: Record<string, number> } | null;
  /** The reward actually credited: the delta when `scored`, 0 otherwise (`raw` keeps the measured delta). */
  reward: { score: number; metric: RewardMetric; raw: BatchReward | null };
  hookEffects: Record<string, number>;
  hookFaults: number;
  engineer: { label: string; symbolic: boolean };
  rejection: string | null;
  rerun: {
    cacheKey: string;
    cacheHit: boolean;
    attempts: number;
    infraFailures: number;
    /** How the rerun was played: model turns of its episodes and how many were replayed from the baseline (calls saved). Absent in older results. */
    replay?: { mode: 'exact' | 'off'; turns: number; replayed: number };
  } | null;
  notes: string[];
}

export interface ImproveSummary {
  schemaVersion: typeof IMPROVE_SUMMARY_VERSION;
  bench: string;
  split: string;
  /** `improve --generate-only`: patches were validated and written to `<run>/patches/`, not rerun; no batch was scored. Absent otherwise. */
  generateOnly?: true;
  target: { label: string; simulated: boolean };
  engineer: { label: string; symbolic: boolean };
  batches: { tag: string; status: EvalStatus; baselinePass: number; patchedPass: number | null; tasks: number; score: number; rescued: number[]; regressed: number[]; hookEffects: number }[];
  totals: {
    batches: number; scored: number; meanScore: number; baselinePass: number; patchedPass: number; tasks: number; missingEvaluations: number; byStatus: Partial<Record<EvalStatus, number>>;
    /** Model turns of all reruns, and how many were replayed from the baseline instead of called (saved calls). */
    rerunTurns?: { turns: number; replayed: number };
  };
}
