import type { HookTraceEntry } from './hook-trace.js';
import type { ChatMessage } from './messages.js';
import type { Outcome } from './outcome.js';
import type { TaskRef } from './task.js';

/** Bumped whenever the persisted episode shape changes; readers reject versions they do not know. */
export const EPISODE_RECORD_VERSION = 1 as const;

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
