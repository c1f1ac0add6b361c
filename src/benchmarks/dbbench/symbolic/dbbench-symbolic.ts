import type { SymbolicRules } from '../../../engineer/engineer.js';
import { NO_SIGNATURE_NOTE, SIGNATURE_PATCH_NOTE } from '../../../engineer/symbolic/propose-bench.js';
import { composePatch, composeSoftPatch } from './compose-patch.js';
import { SIGNATURE_IDS, tallySignatures, type BatchTally, type SignatureId, type SignatureTally } from './signatures.js';

export interface SignatureVerdict extends SignatureTally {
  kept: boolean;
}

/** Which signatures a tally keeps, most frequent first (ties in library order). */
export function keepSignatures(tally: BatchTally, thresholds: { minEpisodes?: number; minShare?: number } = {}): SignatureVerdict[] {
  const minEpisodes = thresholds.minEpisodes ?? 2;
  const minShare = thresholds.minShare ?? 0.5;
  return tally.signatures
    .map((s) => ({ ...s, kept: s.failed > 0 && (s.failed >= minEpisodes || (tally.failed > 0 && s.failed / tally.failed >= minShare)) }))
    .sort((a, b) => b.failed - a.failed || SIGNATURE_IDS.indexOf(a.id) - SIGNATURE_IDS.indexOf(b.id));
}

/** The symbolic engineer on a DBBench batch: recurring DBBench signatures, then the DBBench templates (or the soft-hint patch). */
export const DBBENCH_SYMBOLIC: SymbolicRules = {
  propose(input, thresholds, sampler) {
    const tally = tallySignatures(input.episodes, input.passThreshold);
    const verdicts = keepSignatures(tally, thresholds);
    const kept: SignatureId[] = sampler ? sampler.choose(verdicts, tally.failed) : verdicts.filter((v) => v.kept).map((v) => v.id);
    const notes = [
      `batch: ${tally.episodes} episodes, ${tally.scored} scored, ${tally.failed} failed, ${tally.infrastructure} infrastructure failures left out`,
      `thresholds: at least ${thresholds.minEpisodes} failed episodes or ${thresholds.minShare} of the failed episodes`,
      ...verdicts
        .filter((v) => v.failed > 0 || v.passed > 0)
        .map((v) => `signature ${v.id}: ${v.failed} of ${tally.failed} failed episodes (${v.passed} passed) -> ${v.kept ? 'kept' : 'below threshold'}`),
    ];
    if (sampler) notes.push(`sampled signatures: ${kept.join(', ') || 'none'}`);
    const composed = kept.length > 0 ? composePatch(kept) : composeSoftPatch();
    notes.push(...composed.templates.map((t) => `template ${t}`));
    notes.push(kept.length > 0 ? SIGNATURE_PATCH_NOTE : NO_SIGNATURE_NOTE);
    return { status: 'ok', proposal: { kind: 'patch', patch: composed.patch }, notes };
  },
};
