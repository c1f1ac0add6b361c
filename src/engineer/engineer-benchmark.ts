/**
 * What an engineer needs to know about the benchmark of a batch: how its failure packet is rendered, the
 * texts of its prompt, its optional second-pass revision context and, for the symbolic engineer, its own
 * failure signatures and hook templates. Each benchmark's definition supplies one; engineers name no
 * benchmark themselves.
 */
import type { EngineerInput, EngineerResult } from './engineer.js';
import type { BatchSelection } from './episode-evidence.js';
import type { PreviousAttempt } from './previous-attempt.js';
import type { SanitizeMode } from './sanitize-evidence.js';

/** Numeric budgets of a packet layout (characters, traces, tokens). */
export type PacketLimits = Readonly<Record<string, number>>;

/** A benchmark's packet layout. */
export interface PacketRenderer<L extends PacketLimits = PacketLimits> {
  /** Names the layout, e.g. `dbbench-evidence-v1`. */
  readonly format: string;
  readonly defaultLimits: Readonly<L>;
  readonly sanitize: SanitizeMode;
  render(selection: BatchSelection, limits: L): { text: string; included: number; truncated: boolean };
}

/** The system and user texts of a benchmark's engineer prompt around one evidence text. */
export interface PromptStyle {
  /** The original's `schema_style` the texts correspond to, e.g. `dbbench_life_multihook_v1`. */
  readonly schemaStyle: string;
  /** With `prefill`, the texts of `prefill_think_patch`; else those of `full_think_patch`. */
  texts(prefill: boolean, evidence: string): { system: string; user: string };
}

/** The symbolic engineer's part that knows a benchmark: its signatures and templates. */
export interface SymbolicRules {
  propose(input: EngineerInput, thresholds: { minEpisodes: number; minShare: number }): EngineerResult;
}

export interface EngineerBenchmark {
  /** The benchmark's name, as recorded in prompts and packets. */
  readonly name: string;
  /** How messages name it, e.g. `DBBench`. */
  readonly title: string;
  readonly packet: PacketRenderer;
  readonly prompt: PromptStyle;
  /** The second-pass revision section for a previous attempt on this batch (§2.8). */
  revisionContext?(previous: PreviousAttempt, input: EngineerInput): string;
  /** Benchmark-specific signatures and templates; without them the symbolic engineer's generic part answers. */
  readonly symbolic?: SymbolicRules;
}
