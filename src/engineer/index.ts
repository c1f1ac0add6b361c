export type { Engineer, EngineerInput, EngineerKind, EngineerProposal, EngineerResult } from './engineer.js';
export type { EngineerBenchmark, PacketLimits, PacketRenderer, PromptStyle, SymbolicRules } from './engineer.js';
export { buildFailurePacket } from './failure-packet.js';
export type { BuildFailurePacketOptions, FailurePacket, FailurePacketStats } from './failure-packet.js';
export { selectBatch, toEpisodeEvidence, byRewardThenIndex } from './episode-evidence.js';
export type { BatchSelection, EpisodeEvidence } from './episode-evidence.js';
export { renderTracePacket, renderTraceSection, renderTraceMessages, tracePacketRenderer, approxTokens, TRACE_PACKET_TITLE } from './trace-packet.js';
export type { TracePacketLimits, TraceStyle } from './trace-packet.js';
export { genericSignalLines } from './trace-signals.js';
export { sanitizeEvidenceText, PATH_MASK, PRODUCT_ID_MASK } from './sanitize-evidence.js';
export type { SanitizeMode } from './sanitize-evidence.js';
export {
  buildEngineerPrompt,
  renderEngineerPrompt,
  splitAtEvidenceMarker,
  isEngineerPromptProtocol,
  outputContract,
  codeRules,
  EVIDENCE_MARKER,
  PREFILL_THINK,
  ENGINEER_PROMPT_PROTOCOLS,
} from './engineer-prompt.js';
export type { EngineerPrompt, EngineerPromptProtocol, BuildEngineerPromptOptions, RenderEngineerPromptOptions } from './engineer-prompt.js';
export { PROMPT_VERSION, ENGINE_TEMPLATES, definePromptTemplates, promptsDirOf, fillTemplate } from './prompt-templates.js';
export type { PromptTemplateSet } from './prompt-templates.js';
export type { PreviousAttempt } from './previous-attempt.js';
export { batchPositions, buildTraceRevisionContext, renderTraceRevisionContext, TRACE_REVISION_LIMITS } from './trace-revision-context.js';
export type { TraceRevisionContext, TraceRevisionLimits, TraceRevisionOptions } from './trace-revision-context.js';
export { createLlmEngineer, DEFAULT_ENGINEER_MAX_TOKENS, DEFAULT_ENGINEER_TEMPERATURE } from './llm-engineer.js';
export type { LlmEngineerOptions } from './llm-engineer.js';
