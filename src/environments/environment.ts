import type { TaskRef, ToolCall, ToolSpec } from '../episode/index.js';

/**
 * Where in the episode a hook is being called, with what the runtime knows at that point. Environments
 * turn this into the benchmark's own `ctx` (protocol.md §4.2–4.4).
 */
export type HookPoint =
  | { hook: 'on_init'; round: 0; remaining: number }
  | { hook: 'make_pre_hint'; round: number; remaining: number }
  | { hook: 'on_before_action'; round: number; remaining: number; call: ParsedCall }
  | { hook: 'on_post_step'; round: number; remaining: number; call: ParsedCall; observation: string };

/** A tool call whose arguments parsed: the tool name, all arguments, and the first argument value. */
export interface ParsedCall {
  id: string;
  tool: string;
  args: Record<string, unknown>;
  /** The original protocol reads only the first argument value, whatever its key. */
  firstValue: unknown;
}

/** What executing one call gave. `final` ends the episode with a graded result. */
export type ActResult =
  | { kind: 'observation'; content: string; status: 'executed' | 'invalid' }
  | { kind: 'final'; correct: boolean; detail: Record<string, unknown> };

/**
 * How the target talks to an AgentBench benchmark: `fc`, AgentBench's function-calling variant (tools), or
 * `v0.2`, the text protocol behind the AgentBench paper numbers (`ACTION: …` / `search[…]`, one-shot examples).
 */
export const TARGET_PROTOCOLS = ['fc', 'v0.2'] as const;
export type TargetProtocol = (typeof TARGET_PROTOCOLS)[number];

/**
 * What the runtime needs of any benchmark episode: the task it plays, the tools the target is offered
 * (none for text protocols), facts recorded with every ending, and a way to release it. A benchmark's own
 * episode type extends this with whatever its loop needs.
 */
export interface EpisodeBase {
  readonly task: TaskRef;
  readonly tools: ToolSpec[];
  /** Facts about the task recorded with every ending (e.g. DBBench `type`); never ground truth. */
  readonly info: Record<string, unknown>;
  close(): Promise<void>;
}

/** What a benchmark's world engine offers: its own episodes by task index. */
export interface EpisodeSource<E extends EpisodeBase> {
  readonly bench: string;
  readonly split: string;
  readonly size: number;
  openEpisode(index: number): Promise<E>;
  close(): Promise<void>;
}

/** One episode of a tool-calling benchmark, as the engines of the three built-in benchmarks open it. */
export interface ToolEpisode extends EpisodeBase {
  readonly maxRounds: number;
  systemPrompt(init: { skills: string[]; toolHints: string[] }): string;
  firstUserMessage(): string;
  hookContext(point: HookPoint): Record<string, unknown>;
  /** Parses a raw tool call; `undefined` means its arguments did not parse. */
  parseCall(call: ToolCall): ParsedCall | undefined;
  /** Whether the environment knows this tool. */
  hasTool(name: string): boolean;
  /** Runs one call. Thrown errors are infrastructure failures (env_error), not agent mistakes. */
  act(call: ParsedCall, round: number): Promise<ActResult>;
  noteTextOnlyTurn(): void;
  noteToolTurn(): void;
  /** The reply shown for a turn with no tool calls, given its text. */
  textOnlyNudge(content: string): string;
  badArgumentsReply(): string;
  unknownToolReply(): string;
}

/**
 * A task that can never be played, whatever is retried (e.g. its table cannot exist in MySQL). It ends as an
 * `env_error` that retries skip.
 */
export class TaskSetupError extends Error {
  readonly permanent = true;
  constructor(message: string) {
    super(message);
    this.name = 'TaskSetupError';
  }
}

/**
 * Reads a raw tool call as the original does: the arguments must be a JSON object, and its first value is
 * the one the benchmark uses, whatever its key. `undefined` means the arguments did not parse.
 */
export function parseToolCall(call: ToolCall): ParsedCall | undefined {
  let args: unknown;
  try {
    args = JSON.parse(call.arguments);
  } catch {
    return undefined;
  }
  if (typeof args !== 'object' || args === null || Array.isArray(args)) return undefined;
  return { id: call.id, tool: call.name, args: args as Record<string, unknown>, firstValue: Object.values(args)[0] };
}
