export {
  createSymbolicEngineer,
  proposeSymbolic,
  isNoSignatureResult,
  NO_SIGNATURE_NOTE,
  SIGNATURE_PATCH_NOTE,
  SYMBOLIC_ENGINEER_LABEL,
} from './symbolic-engineer.js';
export type { SymbolicEngineerOptions } from './symbolic-engineer.js';
export { tallyBench } from './bench-tally.js';
export type { BenchTally, BenchSignatureTally } from './bench-tally.js';
export { proposeFromTally, tallyNotes } from './propose-bench.js';
export { GENERIC_SIGNATURE_IDS, detectGenericSignatures, composeGenericPatch, proposeGeneric } from './generic-symbolic.js';
export type { GenericSignatureId } from './generic-symbolic.js';
export { BLOCK_HELPER, pyList, pyStr } from './python-kit.js';
export type { CodeHookPatch } from './python-kit.js';
export { createSignatureSampler, seededRandom, varyPatch } from './sampling.js';
export type { SignatureSampler, SymbolicSampling } from './sampling.js';
