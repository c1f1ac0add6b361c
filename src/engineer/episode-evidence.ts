/**
 * The only view of an episode that failure packets and revision contexts are built from: what the target
 * saw and did (`messages`) and how it ended (`outcome`, `reward`, `rounds`), plus the task index.
 * `EpisodeRecord.detail` holds grader verdicts that quote labels, and `steps`/`hookTrace` are not needed;
 * none of them is copied here, so no renderer can reach ground truth by accident.
 */
import type { ChatMessage, EpisodeRecord, InfraOutcome, Outcome } from '../episode/index.js';
import { INFRA_OUTCOMES, isInfraOutcome } from '../episode/index.js';

export interface EpisodeEvidence {
  readonly index: number;
  readonly outcome: Outcome;
  /** The recorded reward; a missing or non-finite value counts as 0, as the original's `_reward_of`. */
  readonly reward: number;
  readonly rounds: number;
  readonly messages: readonly ChatMessage[];
  /** Leading messages that are a text protocol's fixed preamble (instructions, one-shot); 0 for tool calling. */
  readonly preamble?: number;
}

export function toEpisodeEvidence(record: EpisodeRecord): EpisodeEvidence {
  return {
    index: record.task.index,
    outcome: record.outcome,
    reward: typeof record.reward === 'number' && Number.isFinite(record.reward) ? record.reward : 0,
    rounds: record.rounds,
    messages: record.messages,
    ...(record.preamble !== undefined ? { preamble: record.preamble } : {}),
  };
}

/** How a batch's episodes split up before any rendering. Every list is ordered by task index. */
export interface BatchSelection {
  batchTag: string;
  split: string;
  /** The batch's task indices, sorted and deduplicated. */
  taskIndices: number[];
  passThreshold: number;
  /** Episodes that say something about the target (agent-caused endings). */
  scored: EpisodeEvidence[];
  passed: EpisodeEvidence[];
  /** Scored episodes below the threshold that have messages: the candidate failures. */
  failures: EpisodeEvidence[];
  /** Infrastructure-failed episodes (model_error, env_error, hook_fault): not failures of the target. */
  excluded: EpisodeEvidence[];
  /** Task indices of the batch with no episode at all. */
  missing: number[];
}

/**
 * Splits a batch's episodes. The order they are given in does not matter, except that when a task has
 * several episodes (it should not) the last one given wins.
 */
export function selectBatch(options: {
  batchTag: string;
  split: string;
  taskIndices: readonly number[];
  episodes: readonly EpisodeRecord[];
  passThreshold: number;
}): BatchSelection {
  const byIndex = new Map<number, EpisodeEvidence>();
  for (const record of options.episodes) byIndex.set(record.task.index, toEpisodeEvidence(record));
  const all = [...byIndex.values()].sort((a, b) => a.index - b.index);
  const taskIndices = [...new Set(options.taskIndices)].sort((a, b) => a - b);
  const scored = all.filter((e) => !isInfraOutcome(e.outcome));
  return {
    batchTag: options.batchTag,
    split: options.split,
    taskIndices,
    passThreshold: options.passThreshold,
    scored,
    passed: scored.filter((e) => e.reward >= options.passThreshold),
    failures: scored.filter((e) => e.reward < options.passThreshold && e.messages.length > 0),
    excluded: all.filter((e) => isInfraOutcome(e.outcome)),
    missing: taskIndices.filter((i) => !byIndex.has(i)),
  };
}

/** Counts of excluded episodes per infrastructure outcome, in the fixed order of INFRA_OUTCOMES. */
export function countExcluded(excluded: readonly EpisodeEvidence[]): Array<[InfraOutcome, number]> {
  return INFRA_OUTCOMES.map((outcome): [InfraOutcome, number] => [outcome, excluded.filter((e) => e.outcome === outcome).length]).filter(
    ([, n]) => n > 0,
  );
}

/** The original's order for the SQL benchmark's evidence: lowest reward first, then task index. */
export function byRewardThenIndex(a: EpisodeEvidence, b: EpisodeEvidence): number {
  return a.reward - b.reward || a.index - b.index;
}

/**
 * The packet's line when it has no failure trace: all scored tasks passed, or — a different thing — no
 * task was scored at all (every episode an infrastructure failure, or none recorded).
 */
export function noFailureTraceLine(selection: Pick<BatchSelection, 'scored'>): string {
  return selection.scored.length === 0
    ? 'No scored tasks: every episode of this batch ended in an infrastructure failure or is missing, so there is no evidence about the target.'
    : 'No failures: every scored task reached the pass threshold.';
}
