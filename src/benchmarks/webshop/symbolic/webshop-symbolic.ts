import type { SymbolicRules } from '../../../engineer/engineer.js';
import { tallyBench } from '../../../engineer/symbolic/bench-tally.js';
import { proposeFromTally } from '../../../engineer/symbolic/propose-bench.js';
import { asToolCallView } from '../../../engineer/text-actions.js';
import { parseWebShopTextAction, WEBSHOP_ARGUMENT_KEYS } from '../engineer/webshop-text-actions.js';
import { detectWebShopSignatures, WEBSHOP_SIGNATURE_IDS } from './webshop-signatures.js';
import { composeWebShopPatch } from './webshop-templates.js';

/** The symbolic engineer on a WebShop batch: recurring WebShop signatures, then the WebShop templates. */
export const WEBSHOP_SYMBOLIC: SymbolicRules = {
  propose(input, thresholds, sampler) {
    const detect = (r: Parameters<typeof asToolCallView>[0]) => detectWebShopSignatures(asToolCallView(r, parseWebShopTextAction, WEBSHOP_ARGUMENT_KEYS));
    const tally = tallyBench(input.episodes, input.passThreshold, WEBSHOP_SIGNATURE_IDS, detect, thresholds);
    return proposeFromTally(tally, thresholds, composeWebShopPatch, sampler);
  },
};
