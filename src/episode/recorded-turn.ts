import type { ToolCall } from './messages.js';

/**
 * One model turn as a run keeps it beside its records (`model-turns.jsonl`): a digest of the whole request
 * the model got (messages, tools, sampling) and the answer it gave, with its usage and the response caps
 * that bit. Enough to answer the same request again without asking the model.
 */
export interface RecordedTurn {
  /** The request digest (`requestDigest` in models/). */
  request: string;
  response: {
    message: { content: string | null; toolCalls: ToolCall[]; reasoning?: string };
    finishReason: string | null;
    usage: { promptTokens: number; completionTokens: number };
    limits?: { limit: string; cap: number; actual: number; call?: number }[];
  };
}

/** The model turns of one played episode, and how many of them were answered from a recording. */
export interface EpisodeTurns {
  index: number;
  attempt: number;
  /** Turns answered from a recording, without a model call. */
  replayed: number;
  turns: RecordedTurn[];
}
