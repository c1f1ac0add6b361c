/**
 * The public entry of harness-r1 (`import … from 'harness-r1'`): what the author of a benchmark needs to
 * write one in their own folder, and nothing else. A benchmark imports harness-r1 only through here, never
 * through a path into `src/`; `docs/adding-a-benchmark.md` walks through the contract with
 * `examples/kv-store/`.
 *
 * Groups:
 * - the contract: `defineBenchmark` and the types of a definition;
 * - the vocabulary: tasks, messages, tool calls, records, errors;
 * - episodes and loops: the episode types, `playWith`, the generic tool-calling loop and the generic hook
 *   context the symbolic engineer's generic templates read;
 * - patch rules: what the patch validator needs (a code-hook-only benchmark passes `NO_LEGACY_DSL`);
 * - the engineer's view: the markdown trace packet, pinned prompt templates, the output contract and code
 *   rules every prompt embeds, the trace revision context;
 * - simulated targets: the chat.completion reply helpers.
 */

// The contract.
export { defineBenchmark } from './benchmark/definition.js';
export type {
  AnyBenchmarkDefinition,
  BenchmarkDefinition,
  BenchmarkDemo,
  BenchmarkEvaluation,
  BenchmarkFlag,
  EnvCheck,
  OpenRequest,
  OpenedEnvironment,
  SimulatedTarget,
} from './benchmark/definition.js';

// Vocabulary.
export { ConfigError, InternalError, userMessage, toolMessage, systemMessage, taskKey } from './episode/index.js';
export type { ChatMessage, EpisodeRecord, Outcome, RewardMetric, StepRecord, TaskRef, ToolCall, ToolSpec } from './episode/index.js';
export { dataFileIdentity, fileSplitLabel } from './config/data-file.js';
export type { DataFileIdentity } from './config/data-file.js';

// Episodes and loops.
export { parseToolCall, TaskSetupError } from './environments/environment.js';
export type { ActResult, EpisodeBase, EpisodeSource, HookPoint, ParsedCall, ToolEpisode } from './environments/environment.js';
export { bindEpisode, playWith } from './runtime/environment.js';
export type { Environment, EpisodeLoop, PlayableEpisode } from './runtime/environment.js';
export type { Ending, LoopContext } from './runtime/episode-loop.js';
export { playToolCalling } from './runtime/tool-calling-loop.js';
export { GenericToolContext } from './runtime/generic-tool-context.js';
export type { GenericTask } from './runtime/generic-tool-context.js';

// Patch rules.
export { NO_LEGACY_DSL, PATCH_SCHEMA_VERSION } from './patch/index.js';
export type { HarnessPatch, LegacyDslRules, PatchRules } from './patch/index.js';

// The engineer's view of a benchmark.
export type { EngineerBenchmark, EngineerInput, PacketLimits, PacketRenderer, PreviousAttempt, PromptStyle, SymbolicRules } from './engineer/index.js';
export type { EpisodeEvidence, TracePacketLimits, TraceStyle, PromptTemplateSet } from './engineer/index.js';
export {
  buildTraceRevisionContext,
  codeRules,
  definePromptTemplates,
  EVIDENCE_MARKER,
  genericSignalLines,
  outputContract,
  promptsDirOf,
  tracePacketRenderer,
} from './engineer/index.js';

// Simulated targets.
export { simHttpReply, simUsage } from './models/sim-completion.js';
export type { SimCompletion } from './models/sim-completion.js';
