export * from './patch-types.js';
export * from './patch-rules.js';
export { validatePatch, validateEngineerResponse } from './validate-patch.js';
export type { ValidatePatchOptions, ValidateResponseOptions } from './validate-patch.js';
export { validatePatchFile, validatePatchText, PATCH_FILE_PROTOCOLS } from './validate-patch-file.js';
export type { PatchFileProtocol, ValidatePatchFileOptions } from './validate-patch-file.js';
export {
  extractPatchJson,
  extractJsonObject,
  extractThinkPatchJsonObject,
  extractPrefilledThinkPatchJsonObject,
  isResponseProtocol,
  RESPONSE_PROTOCOLS,
  ASSISTANT_TAG,
} from './extract-patch-json.js';
export type { ResponseProtocol } from './extract-patch-json.js';
export { reassembleEngineerText } from './reassemble-response.js';
export type { EngineerMessage, ReassembleOptions } from './reassemble-response.js';
export { normalizePatch, requireCodeHookOnly } from './normalize-patch.js';
export { findRuntimeNoop, findNeverEvaluatedRules, rejectRuntimeNoop } from './runtime-noop.js';
export {
  cleanText,
  findForbiddenPattern,
  namesNumberedInstanceAction,
  FORBIDDEN_TEXT_PATTERNS,
  NUMBERED_INSTANCE_ACTION_PYTHON,
} from './clean-text.js';
export { describeRejection, formatOriginalRepr, classifyOriginalError, noPatchStatus } from './rejection.js';
export type { Step } from './rejection.js';
export { pyJsonLoads, pyRawDecode, fromJsValue, toJsValue, isPyDict } from '../python/python-json.js';
export type { PyValue, PyDict, JsonValue, PyJsonError } from '../python/python-json.js';
