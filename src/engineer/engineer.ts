import type { ChatMessage, EpisodeRecord } from '../episode/index.js';
import type { ResponseProtocol } from '../patch/index.js';
import type { BatchSelection } from './episode-evidence.js';
import type { SanitizeMode } from './sanitize-evidence.js';
import type { PreviousAttempt } from './previous-attempt.js';
import type { SignatureSampler } from './symbolic/sampling.js';

/**
 * What an engineer sees about one batch: the baseline episodes of the frozen target on the batch's tasks.
 * Engineers must build their evidence only from what the target saw and did (messages, steps, outcome,
 * reward, hook trace) — never from `EpisodeRecord.detail`, which holds grader verdicts that can quote
 * ground truth.
 */
export interface EngineerInput {
  /** The batch's benchmark, as the engineer sees it (packet layout, prompt texts, symbolic rules). */
  benchmark: EngineerBenchmark;
  /** Stable name of the batch, e.g. `batch_000`. */
  batchTag: string;
  split: string;
  taskIndices: number[];
  /** Baseline episodes of every task in the batch, in task order. */
  episodes: EpisodeRecord[];
  /** Reward at or above which a task passes (default 1.0). */
  passThreshold: number;
}

/** What the engineer produced, before any validation. */
export type EngineerProposal =
  /** An LLM answer: the text to extract the patch from with the given response protocol. */
  | { kind: 'response'; text: string; protocol: ResponseProtocol }
  /** A patch object written directly (the symbolic engineer). */
  | { kind: 'patch'; patch: unknown };

export type EngineerResult =
  | {
      status: 'ok';
      proposal: EngineerProposal;
      /** The prompt sent (LLM engineers), for the batch's artifacts. */
      prompt?: ChatMessage[];
      /** Raw content and reasoning as returned, for the artifacts. */
      raw?: { content: string | null; reasoning?: string };
      /** Free-form facts about how the proposal was made (signatures found, templates used, ...). */
      notes?: string[];
      /** Model calls and tokens this answer cost (LLM engineers; absent for the symbolic engineer). */
      usage?: EngineerUsage;
    }
  /** The engineer could not answer (request failed after retries, empty answer): scored as no patch. */
  | { status: 'request_failed'; detail: string; prompt?: ChatMessage[]; usage?: EngineerUsage };

/** What asking an engineer cost: chat completions requested (failed ones included) and the tokens the server reported. */
export interface EngineerUsage {
  modelCalls: number;
  promptTokens: number;
  completionTokens: number;
}

/** How an engineer works: an LLM (a served or scripted model) or the built-in rule-based engineer. */
export type EngineerKind = 'llm' | 'symbolic';

/** A harness engineer: reads a batch's failures and proposes one patch. */
export interface Engineer {
  readonly label: string;
  /** `symbolic` for the built-in rule-based engineer, so every output built from it can say so; `llm` otherwise. */
  readonly kind: EngineerKind;
  propose(input: EngineerInput): Promise<EngineerResult>;
  /** The same engineer for a second pass that sees its previous attempt and its effect (protocol.md §2.8); LLM engineers only. */
  revise?(previous: PreviousAttempt): Engineer;
}

// The engineer's view of a benchmark: what an engineer needs to know about the benchmark of a batch (its
// packet layout, prompt texts, revision context and symbolic rules). Each benchmark's definition supplies
// one; engineers name no benchmark themselves.

/** Numeric budgets of a packet layout (characters, traces, tokens). */
export type PacketLimits = Readonly<Record<string, number>>;

/** A benchmark's packet layout. */
export interface PacketRenderer<L extends PacketLimits = PacketLimits> {
  /** Names the layout, e.g. `<bench>-evidence-v1`. */
  readonly format: string;
  readonly defaultLimits: Readonly<L>;
  readonly sanitize: SanitizeMode;
  render(selection: BatchSelection, limits: L): { text: string; included: number; truncated: boolean };
}

/** The system and user texts of a benchmark's engineer prompt around one evidence text. */
export interface PromptStyle {
  /** The original's `schema_style` the texts correspond to, e.g. `<bench>_life_multihook_v1`. */
  readonly schemaStyle: string;
  /** With `prefill`, the texts of `prefill_think_patch`; else those of `full_think_patch`. */
  texts(prefill: boolean, evidence: string): { system: string; user: string };
}

/** The symbolic engineer's part that knows a benchmark: its signatures and templates. */
export interface SymbolicRules {
  /** With a sampler, the signatures it chooses are addressed instead of the kept ones (seeded stochastic sampling). */
  propose(input: EngineerInput, thresholds: { minEpisodes: number; minShare: number }, sampler?: SignatureSampler): EngineerResult;
}

export interface EngineerBenchmark {
  /** The benchmark's name, as recorded in prompts and packets. */
  readonly name: string;
  /** How messages name it (its title). */
  readonly title: string;
  readonly packet: PacketRenderer;
  readonly prompt: PromptStyle;
  /** The second-pass revision section for a previous attempt on this batch (§2.8). */
  revisionContext?(previous: PreviousAttempt, input: EngineerInput): string;
  /** Benchmark-specific signatures and templates; without them the symbolic engineer's generic part answers. */
  readonly symbolic?: SymbolicRules;
}
