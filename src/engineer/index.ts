export type { Engineer, EngineerInput, EngineerProposal, EngineerResult } from './engineer.js';
export {
  buildFailurePacket,
  hasPacketFormat,
  EngineerFormatUnavailableError,
  AVAILABLE_ENGINEER_BENCHES,
  PACKET_RENDERERS,
} from './failure-packet.js';
export type { BuildFailurePacketOptions, FailurePacket, FailurePacketStats, PacketRenderer } from './failure-packet.js';
export { selectBatch, toEpisodeEvidence, byRewardThenIndex } from './episode-evidence.js';
export type { BatchSelection, EpisodeEvidence } from './episode-evidence.js';
export {
  DBBENCH_EVIDENCE_LIMITS,
  WEBSHOP_PACKET_LIMITS,
  ALFWORLD_PACKET_LIMITS,
} from './packet-limits.js';
export type { DbBenchEvidenceLimits, TracePacketLimits, PacketLimitsByBench } from './packet-limits.js';
export { renderDbBenchEvidence, renderDbBenchOverview, DBBENCH_EVIDENCE_FORMAT } from '../benchmarks/dbbench/engineer/dbbench-evidence.js';
export { renderDbBenchTrace, dbBenchTraceSignals } from '../benchmarks/dbbench/engineer/dbbench-trace.js';
export type { DbBenchTraceSignals, TraceRenderLimits } from '../benchmarks/dbbench/engineer/dbbench-trace.js';
export { renderTracePacket, renderTraceSection, renderTraceMessages, approxTokens, TRACE_PACKET_TITLE } from './trace-packet.js';
export type { TraceBench } from './trace-packet.js';
export { webShopSignalLines, alfworldSignalLines } from './trace-signals.js';
export { sanitizeEvidenceText, PATH_MASK, PRODUCT_ID_MASK } from './sanitize-evidence.js';
export type { SanitizeMode } from './sanitize-evidence.js';
export {
  buildEngineerPrompt,
  renderEngineerPrompt,
  splitAtEvidenceMarker,
  isEngineerPromptProtocol,
  EVIDENCE_MARKER,
  PREFILL_THINK,
  ENGINEER_PROMPT_PROTOCOLS,
  DBBENCH_SCHEMA_STYLE,
  WEBSHOP_SCHEMA_STYLE,
  ALFWORLD_SCHEMA_STYLE,
  SCHEMA_STYLES,
} from './engineer-prompt.js';
export type { EngineerPrompt, EngineerPromptProtocol, BuildEngineerPromptOptions, RenderEngineerPromptOptions } from './engineer-prompt.js';
export { PROMPT_VERSION, PROMPT_TEMPLATE_SHA256, loadPromptTemplate, fillTemplate, renderPromptTemplate } from './prompt-templates.js';
export type { PromptTemplateName } from './prompt-templates.js';
export { buildRevisionContext, REVISION_LIMITS } from '../benchmarks/dbbench/engineer/revision-context.js';
export type { RevisionLimits } from '../benchmarks/dbbench/engineer/revision-context.js';
export type { PreviousAttempt } from './previous-attempt.js';
export { batchPositions, buildTraceRevisionContext, renderTraceRevisionContext, TRACE_REVISION_LIMITS } from './trace-revision-context.js';
export type { TraceRevisionContext, TraceRevisionLimits, TraceRevisionOptions } from './trace-revision-context.js';
export { createLlmEngineer, DEFAULT_ENGINEER_MAX_TOKENS, DEFAULT_ENGINEER_TEMPERATURE } from './llm-engineer.js';
export type { LlmEngineerOptions } from './llm-engineer.js';
