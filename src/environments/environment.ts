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
 * Which loop plays the benchmark and so which hook effects it honours (protocol.md §4.5). `dbbench`: every
 * tool call of a turn is processed, a block is answered with a tool message for that call, rewrite and
 * force are ignored. Other benchmarks name their own loops in `src/runtime/loops/`.
 */
export interface EffectRules {
  loop: 'dbbench' | 'alfworld' | 'webshop' | 'alfworld-text' | 'webshop-text';
}

/**
 * How the target talks to the benchmark: `fc`, AgentBench's function-calling variant (tools), or `v0.2`,
 * the text protocol behind the AgentBench paper numbers (`ACTION: …` / `search[…]`, one-shot examples).
 */
export const TARGET_PROTOCOLS = ['fc', 'v0.2'] as const;
export type TargetProtocol = (typeof TARGET_PROTOCOLS)[number];

/** One episode of a tool-calling benchmark. Created by an environment for one task. */
export interface EnvironmentEpisode {
  readonly task: TaskRef;
  readonly tools: ToolSpec[];
  readonly maxRounds: number;
  readonly rules: EffectRules;
  /** Facts about the task recorded with every ending (e.g. DBBench `type`); never ground truth. */
  readonly info: Record<string, unknown>;
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
  close(): Promise<void>;
}

/** A benchmark: opens episodes for task indices of a split. */
export interface Environment {
  readonly bench: string;
  readonly split: string;
  readonly size: number;
  openEpisode(index: number): Promise<EnvironmentEpisode>;
  close(): Promise<void>;
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
