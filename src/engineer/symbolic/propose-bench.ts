import type { EngineerInput, EngineerResult } from '../engineer.js';
import { asToolCallView, parseAlfworldTextAction, parseWebShopTextAction } from '../text-actions.js';
import { ALFWORLD_SIGNATURE_IDS, detectAlfworldSignatures } from '../../benchmarks/alfworld/symbolic/alfworld-signatures.js';
import { composeAlfworldPatch } from '../../benchmarks/alfworld/symbolic/alfworld-templates.js';
import { tallyBench, type BenchTally } from './bench-tally.js';
import { WEBSHOP_SIGNATURE_IDS, detectWebShopSignatures } from '../../benchmarks/webshop/symbolic/webshop-signatures.js';
import { composeWebShopPatch } from '../../benchmarks/webshop/symbolic/webshop-templates.js';

/** The notes and verdict lines, shared with the DBBench path (passed in to avoid an import cycle). */
export interface VerdictNotes {
  signaturePatch: string;
  noSignature: string;
}

function notesOf<Id extends string>(tally: BenchTally<Id>, thresholds: { minEpisodes: number; minShare: number }): string[] {
  return [
    `batch: ${tally.episodes} episodes, ${tally.scored} scored, ${tally.failed} failed, ${tally.infrastructure} infrastructure failures left out`,
    `thresholds: at least ${thresholds.minEpisodes} failed episodes or ${thresholds.minShare} of the failed episodes`,
    ...tally.signatures
      .filter((s) => s.failed > 0 || s.passed > 0)
      .map((s) => `signature ${s.id}: ${s.failed} of ${tally.failed} failed episodes (${s.passed} passed) -> ${s.kept ? 'kept' : 'below threshold'}`),
  ];
}

/** The symbolic engineer on a WebShop or ALFWorld batch: signatures, then the bench's templates. */
export function proposeForBench(
  input: EngineerInput & { bench: 'webshop' | 'alfworld' },
  thresholds: { minEpisodes: number; minShare: number },
  verdicts: VerdictNotes,
): EngineerResult {
  let notes: string[];
  let kept: string[];
  let composed: { patch: unknown; templates: string[] };
  if (input.bench === 'webshop') {
    const tally = tallyBench(input.episodes, input.passThreshold, WEBSHOP_SIGNATURE_IDS, (r) => detectWebShopSignatures(asToolCallView(r, parseWebShopTextAction)), thresholds);
    const ids = tally.signatures.filter((s) => s.kept).map((s) => s.id);
    notes = notesOf(tally, thresholds);
    kept = ids;
    composed = composeWebShopPatch(ids);
  } else {
    const tally = tallyBench(input.episodes, input.passThreshold, ALFWORLD_SIGNATURE_IDS, (r) => detectAlfworldSignatures(asToolCallView(r, parseAlfworldTextAction)), thresholds);
    const ids = tally.signatures.filter((s) => s.kept).map((s) => s.id);
    notes = notesOf(tally, thresholds);
    kept = ids;
    composed = composeAlfworldPatch(ids);
  }
  notes.push(...composed.templates.map((t) => `template ${t}`));
  notes.push(kept.length > 0 ? verdicts.signaturePatch : verdicts.noSignature);
  return { status: 'ok', proposal: { kind: 'patch', patch: composed.patch }, notes };
}
