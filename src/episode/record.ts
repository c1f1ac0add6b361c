import type { HookTraceEntry } from './hook-trace.js';
import type { ChatMessage } from './messages.js';
import { isInfraOutcome, type Outcome } from './outcome.js';
import type { TaskRef } from './task.js';

/**
 * Bumped whenever the persisted episode shape changes; readers reject versions they do not know.
 * Version 2 added `attempt`. Version-1 records (older run directories) are still read: their attempt is
 * their position among the task's records in file order, which is what it was, since records were only
 * ever appended (see `readEpisodeRecord`).
 */
export const EPISODE_RECORD_VERSION = 2 as const;

/** Record versions that readers accept. */
export const READABLE_EPISODE_RECORD_VERSIONS: readonly number[] = [1, EPISODE_RECORD_VERSION];

/** One environment step as recorded: the action the agent asked for and what it got back. */
export interface StepRecord {
  round: number;
  tool: string;
  /** The first argument value, as the original protocol reads it. */
  input: unknown;
  observation: string;
  /** `blocked` when a hook blocked the call; `invalid` for unknown tools or unparsable arguments. */
  status: 'executed' | 'blocked' | 'invalid';
}

/**
 * The persisted record of one episode. It holds no wall-clock data, so the same seed, data and simulated
 * model give byte-identical records; timings are stored beside it.
 */
export interface EpisodeRecord {
  schemaVersion: typeof EPISODE_RECORD_VERSION;
  task: TaskRef;
  /**
   * Which play of this task in its run directory this is: 1 for the first, 2 for the first replay after an
   * infrastructure failure (`--retry-infra`, the improve loop's retries), and so on. The record that counts
   * for a task is its last attempt (see `supersedes`).
   */
  attempt: number;
  outcome: Outcome;
  reward: number;
  rounds: number;
  /** Free-form detail about the ending: grader verdict, error text for infrastructure failures. */
  detail: Record<string, unknown>;
  steps: StepRecord[];
  hookTrace: HookTraceEntry[];
  messages: ChatMessage[];
  /**
   * Text protocols only: how many leading messages are the protocol's fixed preamble (instructions, the
   * model's acknowledgement, the one-shot example), not this task. Absent for tool-calling protocols, whose
   * preamble is the system message.
   */
  preamble?: number;
  usage: { promptTokens: number; completionTokens: number; modelCalls: number };
}

/**
 * Whether a later record of a task replaces the one that counted so far. A task is played again only when
 * its record ended in an infrastructure failure, so the later attempt wins exactly then; a record that
 * follows an agent outcome (which the store never writes) is ignored.
 */
export function supersedes(earlier: EpisodeRecord | undefined): boolean {
  return earlier === undefined || isInfraOutcome(earlier.outcome);
}

/**
 * A parsed line of `episodes.jsonl` as the current shape. `previousAttempts` is how many records of the
 * same task came before it in the file; a version-1 record (which has no attempt) gets that count plus one.
 * Anything that is not a known version is refused by the caller; this only lifts version 1.
 */
export function readEpisodeRecord(value: { schemaVersion?: unknown; attempt?: unknown } & Record<string, unknown>, previousAttempts: number): EpisodeRecord {
  if (value.schemaVersion === EPISODE_RECORD_VERSION) return value as unknown as EpisodeRecord;
  const { schemaVersion: _v, task, ...rest } = value;
  return { schemaVersion: EPISODE_RECORD_VERSION, task, attempt: previousAttempts + 1, ...rest } as unknown as EpisodeRecord;
}
