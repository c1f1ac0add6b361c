export { classifySqlReply, createDbBenchSimPolicy, harnessSectionOfSystemPrompt, MAX_MAIN_BLOCKS, MAX_MAIN_ERRORS, MAX_QUOTE_FAILURES } from './dbbench-sim-policy.js';
export type { DbBenchSimPolicy, SqlReplyKind } from './dbbench-sim-policy.js';
export {
  DBBENCH_FAULTS,
  DBBENCH_SIM_PARAMS,
  DEFAULT_DBBENCH_COMPLY,
  DEFAULT_DBBENCH_FAULT_RATES,
  DEFAULT_DBBENCH_SIM_SEED,
  DEFAULT_DBBENCH_SIM_SPLITS,
  defaultDbBenchSimSettings,
  parseDbBenchSimQuery,
  parseFaultSpec,
  validateDbBenchSimSettings,
} from './fault-profile.js';
export type { DbBenchFault, DbBenchFaultRates, DbBenchSimSettings } from './fault-profile.js';
export { DBBENCH_FIX_KEYWORDS, faultsNamedByHint } from './hint-keywords.js';
export { createDbBenchTaskIndex, loadDbBenchTaskIndex } from './task-index.js';
export type { DbBenchTaskIndex, IndexedDbBenchTask } from './task-index.js';
export { INSPECT_RATE } from './task-plan.js';
export { createDbBenchSimHandler, DBBENCH_SIM_FINGERPRINT, DBBENCH_SIM_TARGET, resolveDbBenchSimSettings, toSimHttpReply } from './wire-handler.js';
export type { DbBenchSimCompletion, DbBenchSimHandler, DbBenchSimHandlerOptions } from './wire-handler.js';
export type { SimActionTag, SimToolCall, WireMessage, WireRequest, WireTurn } from './wire-messages.js';
