import type { SymbolicRules } from '../../../engineer/engineer.js';
import { tallyBench } from '../../../engineer/symbolic/bench-tally.js';
import { proposeFromTally } from '../../../engineer/symbolic/propose-bench.js';
import { asToolCallView } from '../../../engineer/text-actions.js';
import { ALFWORLD_ARGUMENT_KEYS, parseAlfworldTextAction } from '../engineer/alfworld-text-actions.js';
import { ALFWORLD_SIGNATURE_IDS, detectAlfworldSignatures } from './alfworld-signatures.js';
import { composeAlfworldPatch } from './alfworld-templates.js';

/** The symbolic engineer on an ALFWorld batch: recurring ALFWorld signatures, then the ALFWorld templates. */
export const ALFWORLD_SYMBOLIC: SymbolicRules = {
  propose(input, thresholds, sampler) {
    const detect = (r: Parameters<typeof asToolCallView>[0]) => detectAlfworldSignatures(asToolCallView(r, parseAlfworldTextAction, ALFWORLD_ARGUMENT_KEYS));
    const tally = tallyBench(input.episodes, input.passThreshold, ALFWORLD_SIGNATURE_IDS, detect, thresholds);
    return proposeFromTally(tally, thresholds, composeAlfworldPatch, sampler);
  },
};
