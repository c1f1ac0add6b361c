export { createAlfworldGameIndex, loadAlfworldGameIndex } from './alfworld-game-index.js';
export type { AlfworldGameIndex } from './alfworld-game-index.js';
export { createAlfworldSimPolicy } from './alfworld-sim-policy.js';
export type { AlfworldGamePlan, AlfworldSimPolicy, AlfworldSimTag, AlfworldSimTurn } from './alfworld-sim-policy.js';
export {
  ALFWORLD_FAULTS,
  ALFWORLD_FIX_KEYWORDS,
  DEFAULT_ALFWORLD_COMPLY,
  DEFAULT_ALFWORLD_FAULT_RATES,
  DEFAULT_ALFWORLD_SIM_SEED,
  faultsNamedBy,
  parseAlfworldFaultSpec,
} from './alfworld-sim-settings.js';
export type { AlfworldFault, AlfworldFaultRates, AlfworldSimSettings } from './alfworld-sim-settings.js';
export { ALFWORLD_SIM_FINGERPRINT, ALFWORLD_SIM_TARGET, createAlfworldSimHandler, resolveAlfworldSimSettings, toAlfworldSimHttpReply } from './wire-handler.js';
export type { AlfworldSimCompletion, AlfworldSimHandler, AlfworldSimHandlerOptions } from './wire-handler.js';
export { createAlfworldSimModel } from './in-process-sim-model.js';
