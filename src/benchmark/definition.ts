/**
 * The contract of a benchmark: one typed object that carries everything benchmark-specific, so the rest of
 * harness-r1 (runtime, engineers, evaluation, reports, the CLI) names no benchmark. The built-in
 * benchmarks (`src/benchmarks/<name>/`) and benchmarks loaded from a user's own folder implement the same
 * contract; `docs/adding-a-benchmark.md` walks through it.
 */
import type { z } from 'zod';

import type { EpisodeRecord, RewardMetric } from '../episode/index.js';
import type { EngineerBenchmark } from '../engineer/engineer.js';
import type { HarnessPatch, PatchRules } from '../patch/index.js';
import type { Environment } from '../runtime/environment.js';
import type { RunDataNotes } from '../store/run-manifest.js';
import type { PaperSplits } from '../task-splits/index.js';

/** One benchmark-specific command-line flag, e.g. `--grading <rule>`, parsed into the options object under `key`. */
export interface BenchmarkFlag {
  /** The key in the options object (camelCase). */
  key: string;
  /** Commander's flag syntax: `--grading <rule>`, or `--verbose` for a switch. */
  flag: string;
  description: string;
  /** How the text is read; default `string`. An `integer` is read by the shared integer reader, within `min`/`max`. */
  type?: 'string' | 'number' | 'integer' | 'boolean';
  min?: number;
  max?: number;
}

/** What a benchmark opens an environment from. */
export interface OpenRequest<O> {
  /** The data directory (`--data-dir`), for benchmarks that read shipped data. */
  dataDir: string;
  /** A named split of the benchmark, or `file:<name>` when the options name a task file (see `taskFileOption`). */
  split: string;
  /** The protocol the target plays, one of the definition's `protocols`. */
  protocol: string;
  /** Rounds (or steps) per episode when the user set them; else the benchmark's default. */
  maxRounds?: number;
  /** The benchmark's own options, validated by its schema. */
  options: O;
  /** An installed patch, for benchmarks that honour legacy actions at install (e.g. skills and tool hints). */
  patch?: HarnessPatch;
  /** Episodes the command plays at once, so engines can be started that many up front. Never changes results. */
  concurrency?: number;
}

/** An opened environment and what identifies its configuration in manifests and rerun cache keys. */
export interface OpenedEnvironment {
  environment: Environment;
  /** Every setting that changes results (protocol version, grading, backend, rounds, task file digest…). */
  identity: Record<string, unknown>;
  /** Lines worth telling the user before episodes play (e.g. games of a split that are not shipped). */
  notices?: string[];
  /** Facts for the run manifest that are not part of its identity (games the split lists but the data lacks). */
  data?: RunDataNotes;
}

/** A simulated target: answers OpenAI-style chat requests from the benchmark's privileged knowledge. */
export interface SimulatedTarget {
  /** The query parameters `sim:<name>?…` accepts (documented in `--help`). */
  readonly params: readonly string[];
  /** The failure modes `faults=` names (`faults=none,NAME:RATE,…`), listed in `--help`. */
  readonly faults?: readonly string[];
  /** What parameters other than seed, faults and comply mean, for `--help`. */
  readonly paramHelp?: Readonly<Record<string, string>>;
  /** A `sim:<name>?…` SPEC worth showing in `--help` (it must parse). */
  readonly example?: string;
  /**
   * Checks the parameters without loading any data, with the ConfigErrors `create` would give, so a bad
   * SPEC is refused before a run directory is made. Absent: the parameters are checked by `create` only.
   */
  check?(params: URLSearchParams): void;
  /** A request → HTTP reply function for these parameters; unknown or bad parameters are ConfigErrors. */
  create(params: URLSearchParams, context: { dataDir: string; taskFile?: string }): (request: unknown) => { status: number; body: unknown };
}

/** `harness-r1 env check <name>`: replays reference solutions and reports how many reproduce. */
export interface EnvCheck {
  readonly summary: string;
  readonly flags: readonly BenchmarkFlag[];
  /** Exit code: 0 whenever the check ran, whatever the count. */
  run(options: Record<string, unknown>, context: { dataDir?: string; json: boolean; out: NodeJS.WritableStream }): Promise<number>;
}

/** How a benchmark's results are scored and compared. */
export interface BenchmarkEvaluation {
  /** The reward metric of `improve` when the user names none. */
  readonly defaultMetric: RewardMetric;
  /** Only code hooks are accepted (the runtime executes no legacy DSL action). */
  readonly codeHookOnly: boolean;
  /**
   * Baseline and rerun must have played the same task identities (a task manifest, protocol.md §6.5);
   * throws when they did not, so a mismatch is never scored.
   */
  checkRerun?(baseline: readonly EpisodeRecord[], rerun: readonly EpisodeRecord[]): void;
}

/** Texts of the demo on this benchmark. */
export interface BenchmarkDemo {
  /** The task range the demo plays, e.g. `0:60`. */
  readonly tasks: string;
  /** What data it plays, e.g. `the real dev split (embedded SQLite)`. */
  readonly data: string;
}

export interface BenchmarkDefinition<O extends Record<string, unknown> = Record<string, unknown>> {
  /** The registry key; recorded in every record (`task.bench`) and patch (`benchmark`). Lower case. */
  readonly name: string;
  /** How messages name it: its display title. */
  readonly title: string;
  /**
   * The headings of its columns in the paper's tables (Table 1, Table 13.1): the success column and, for a
   * shaped reward, the score column. Default `<title> Succ.` and `<title> Score`.
   */
  readonly paperColumns?: { readonly success: string; readonly score?: string };
  /** One line for `--help`. */
  readonly summary: string;
  /** The protocols it plays; the first is the default. */
  readonly protocols: readonly string[];
  /** Named splits; `defaultSplit` is used when the user names none. */
  readonly splits: readonly string[];
  readonly defaultSplit: string;
  /** Default rounds per episode, per protocol, for `--help`. */
  readonly defaultRounds: Readonly<Record<string, number>>;
  /**
   * The key of the option that names a task file played instead of a split (e.g. `data` or
   * `games`): the run's split is then `file:<name>`, and the simulated target learns the file's tasks.
   */
  readonly taskFileOption?: string;
  /**
   * Whether the benchmark reads the shared data directory (`--data-dir`, `HARNESS_DATA_DIR`); default true.
   * A benchmark that ships its own tasks says false, and commands then do not require the directory to exist.
   */
  readonly needsDataDir?: boolean;
  /** The benchmark's own flags and the schema that validates them (and the same keys in a config file). */
  readonly options: { readonly flags: readonly BenchmarkFlag[]; readonly schema: z.ZodType<O> };
  open(request: OpenRequest<O>): Promise<OpenedEnvironment>;
  readonly patch: PatchRules;
  readonly engineer: EngineerBenchmark;
  readonly evaluation: BenchmarkEvaluation;
  readonly simulation?: SimulatedTarget;
  readonly envCheck?: EnvCheck;
  readonly demo?: BenchmarkDemo;
  /** The paper's task partitions (test, validation, sft_train, rl_train): `harness-r1 splits`. */
  readonly paperSplits?: PaperSplits;
}

/** Declares a benchmark; the identity function that gives a definition its type. */
export function defineBenchmark<O extends Record<string, unknown>>(definition: BenchmarkDefinition<O>): BenchmarkDefinition<O> {
  return definition;
}

/** A definition whose options type is no longer known (what the registry holds). */
export type AnyBenchmarkDefinition = BenchmarkDefinition<Record<string, unknown>>;
