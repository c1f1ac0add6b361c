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
export { composePatch, composeSoftPatch, MAX_SKILLS } from '../../benchmarks/dbbench/symbolic/compose-patch.js';
export type { ComposedPatch, SymbolicPatch } from '../../benchmarks/dbbench/symbolic/compose-patch.js';
export {
  SIGNATURE_IDS,
  SIGNATURE_DESCRIPTIONS,
  detectSignatures,
  tallySignatures,
  looksLikeDataChange,
  isSignatureId,
} from '../../benchmarks/dbbench/symbolic/signatures.js';
export type { SignatureId, SignatureTally, BatchTally } from '../../benchmarks/dbbench/symbolic/signatures.js';
export { observeEpisode, classifyResult } from '../../benchmarks/dbbench/symbolic/observe.js';
export type { ObservedEpisode, ObservedEvent, ResultKind } from '../../benchmarks/dbbench/symbolic/observe.js';
export { SIGNATURE_TEMPLATES, SOFT_TEMPLATE } from '../../benchmarks/dbbench/symbolic/templates.js';
export type { SignatureTemplate, StageFragment, GuardFragment, HelperName } from '../../benchmarks/dbbench/symbolic/templates.js';
export { ALFWORLD_SIGNATURE_IDS, ALFWORLD_SIGNATURE_DESCRIPTIONS, detectAlfworldSignatures, observeAlfworld, parseAlfworldGoal } from '../../benchmarks/alfworld/symbolic/alfworld-signatures.js';
export type { AlfworldSignatureId, AlfworldGoal, AlfworldEvent } from '../../benchmarks/alfworld/symbolic/alfworld-signatures.js';
export { composeAlfworldPatch, ALFWORLD_SKILLS } from '../../benchmarks/alfworld/symbolic/alfworld-templates.js';
export type { AlfworldPatch } from '../../benchmarks/alfworld/symbolic/alfworld-templates.js';
export { WEBSHOP_SIGNATURE_IDS, WEBSHOP_SIGNATURE_DESCRIPTIONS, detectWebShopSignatures, observeWebShop } from '../../benchmarks/webshop/symbolic/webshop-signatures.js';
export type { WebShopSignatureId, WebShopEvent } from '../../benchmarks/webshop/symbolic/webshop-signatures.js';
export { composeWebShopPatch, WEBSHOP_SKILLS } from '../../benchmarks/webshop/symbolic/webshop-templates.js';
export type { WebShopPatch } from '../../benchmarks/webshop/symbolic/webshop-templates.js';
export { tallyBench } from './bench-tally.js';
export type { BenchTally, BenchSignatureTally } from './bench-tally.js';
