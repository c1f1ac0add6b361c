import type { EngineerResult } from '../engineer.js';
import type { BenchTally } from './bench-tally.js';
import type { SignatureSampler } from './sampling.js';

/**
 * The `notes` line that marks a result built without evidence: no signature recurred (or nothing failed),
 * so the patch is only the soft-hint fallback. A pipeline that wants "no patch" in that case keys on it
 * (`isNoSignatureResult`).
 */
export const NO_SIGNATURE_NOTE = 'verdict: no_recurring_signature (soft-hint patch only; may be treated as no patch)';
export const SIGNATURE_PATCH_NOTE = 'verdict: patch_from_signatures';

/** The batch, threshold and per-signature lines every symbolic answer starts its notes with. */
export function tallyNotes<Id extends string>(tally: BenchTally<Id>, thresholds: { minEpisodes: number; minShare: number }): string[] {
  return [
    `batch: ${tally.episodes} episodes, ${tally.scored} scored, ${tally.failed} failed, ${tally.infrastructure} infrastructure failures left out`,
    `thresholds: at least ${thresholds.minEpisodes} failed episodes or ${thresholds.minShare} of the failed episodes`,
    ...tally.signatures
      .filter((s) => s.failed > 0 || s.passed > 0)
      .map((s) => `signature ${s.id}: ${s.failed} of ${tally.failed} failed episodes (${s.passed} passed) -> ${s.kept ? 'kept' : 'below threshold'}`),
  ];
}

/** A symbolic answer from a tally and the patch composed from its kept signatures. */
export function proposeFromTally<Id extends string>(
  tally: BenchTally<Id>,
  thresholds: { minEpisodes: number; minShare: number },
  compose: (kept: Id[]) => { patch: unknown; templates: string[] },
  sampler?: SignatureSampler,
): EngineerResult {
  const kept = sampler ? sampler.choose(tally.signatures, tally.failed) : tally.signatures.filter((s) => s.kept).map((s) => s.id);
  const composed = compose(kept);
  const notes = [...tallyNotes(tally, thresholds), ...(sampler ? [`sampled signatures: ${kept.join(', ') || 'none'}`] : []), ...composed.templates.map((t) => `template ${t}`), kept.length > 0 ? SIGNATURE_PATCH_NOTE : NO_SIGNATURE_NOTE];
  return { status: 'ok', proposal: { kind: 'patch', patch: composed.patch }, notes };
}
