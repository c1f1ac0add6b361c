export {
  DEFAULT_WEBSHOP_COMPLY,
  DEFAULT_WEBSHOP_FAULT_RATES,
  DEFAULT_WEBSHOP_SIM_SEED,
  defaultWebShopSimSettings,
  faultsNamedByHint,
  parseWebShopFaultSpec,
  parseWebShopSimQuery,
  resolveWebShopSimSettings,
  WEBSHOP_FAULTS,
  WEBSHOP_FIX_KEYWORDS,
  WEBSHOP_SIM_PARAMS,
} from './fault-profile.js';
export type { WebShopFault, WebShopFaultRates, WebShopSimSettings } from './fault-profile.js';
export { createWebShopSimPolicy, goalWords } from './webshop-sim-policy.js';
export type { WebShopSimPolicy, WebShopSimTag, WebShopSimTurn } from './webshop-sim-policy.js';
export { createWebShopSimHandler, toWebShopSimHttpReply, WEBSHOP_SIM_FINGERPRINT, WEBSHOP_SIM_TARGET } from './wire-handler.js';
export type { WebShopSimCompletion, WebShopSimHandler, WebShopSimHandlerOptions } from './wire-handler.js';
