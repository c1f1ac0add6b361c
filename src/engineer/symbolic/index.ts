export {
  createSymbolicEngineer,
  proposeSymbolic,
  keepSignatures,
  isNoSignatureResult,
  NO_SIGNATURE_NOTE,
  SIGNATURE_PATCH_NOTE,
  SYMBOLIC_ENGINEER_LABEL,
} from './symbolic-engineer.js';
export type { SymbolicEngineerOptions, SignatureVerdict } from './symbolic-engineer.js';
export { composePatch, composeSoftPatch, MAX_SKILLS } from './compose-patch.js';
export type { ComposedPatch, SymbolicPatch } from './compose-patch.js';
export {
  SIGNATURE_IDS,
  SIGNATURE_DESCRIPTIONS,
  detectSignatures,
  tallySignatures,
  looksLikeDataChange,
  isSignatureId,
} from './signatures.js';
export type { SignatureId, SignatureTally, BatchTally } from './signatures.js';
export { observeEpisode, classifyResult } from './observe.js';
export type { ObservedEpisode, ObservedEvent, ResultKind } from './observe.js';
export { SIGNATURE_TEMPLATES, SOFT_TEMPLATE } from './templates.js';
export type { SignatureTemplate, StageFragment, GuardFragment, HelperName } from './templates.js';
export { ALFWORLD_SIGNATURE_IDS, ALFWORLD_SIGNATURE_DESCRIPTIONS, detectAlfworldSignatures, observeAlfworld, parseAlfworldGoal } from './alfworld-signatures.js';
export type { AlfworldSignatureId, AlfworldGoal, AlfworldEvent } from './alfworld-signatures.js';
export { composeAlfworldPatch, ALFWORLD_SKILLS } from './alfworld-templates.js';
export type { AlfworldPatch } from './alfworld-templates.js';
export { WEBSHOP_SIGNATURE_IDS, WEBSHOP_SIGNATURE_DESCRIPTIONS, detectWebShopSignatures, observeWebShop } from './webshop-signatures.js';
export type { WebShopSignatureId, WebShopEvent } from './webshop-signatures.js';
export { composeWebShopPatch, WEBSHOP_SKILLS } from './webshop-templates.js';
export type { WebShopPatch } from './webshop-templates.js';
export { tallyBench } from './bench-tally.js';
export type { BenchTally, BenchSignatureTally } from './bench-tally.js';
