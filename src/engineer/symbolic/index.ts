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
