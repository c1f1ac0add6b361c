import type { Engineer, EngineerInput, EngineerResult } from '../engineer.js';
import { composePatch, composeSoftPatch } from '../../benchmarks/dbbench/symbolic/compose-patch.js';
import { proposeForBench } from './propose-bench.js';
import { SIGNATURE_IDS, tallySignatures, type BatchTally, type SignatureId, type SignatureTally } from '../../benchmarks/dbbench/symbolic/signatures.js';

export const SYMBOLIC_ENGINEER_LABEL = 'symbolic engineer (built-in, rule-based)';

/**
 * The `notes` line that marks a result built without evidence: no signature recurred (or nothing failed),
 * so the patch is only the soft-hint fallback. A pipeline that wants "no patch" in that case keys on it
 * (`isNoSignatureResult`).
 */
export const NO_SIGNATURE_NOTE = 'verdict: no_recurring_signature (soft-hint patch only; may be treated as no patch)';
export const SIGNATURE_PATCH_NOTE = 'verdict: patch_from_signatures';

export interface SymbolicEngineerOptions {
  /** A signature is kept when at least this many failed episodes show it (default 2). */
  minEpisodes?: number;
  /**
   * ... or when at least this share of the failed episodes show it, which lets a small batch with one
   * or two failures still be answered (default 0.5). A share needs at least one episode.
   */
  minShare?: number;
}

export interface SignatureVerdict extends SignatureTally {
  kept: boolean;
}

/** Which signatures a tally keeps, most frequent first (ties in library order). */
export function keepSignatures(tally: BatchTally, options: SymbolicEngineerOptions = {}): SignatureVerdict[] {
  const minEpisodes = options.minEpisodes ?? 2;
  const minShare = options.minShare ?? 0.5;
  return tally.signatures
    .map((s) => ({ ...s, kept: s.failed > 0 && (s.failed >= minEpisodes || (tally.failed > 0 && s.failed / tally.failed >= minShare)) }))
    .sort((a, b) => b.failed - a.failed || SIGNATURE_IDS.indexOf(a.id) - SIGNATURE_IDS.indexOf(b.id));
}

function checkOptions(options: SymbolicEngineerOptions): void {
  const { minEpisodes, minShare } = options;
  if (minEpisodes !== undefined && (!Number.isInteger(minEpisodes) || minEpisodes < 1)) {
    throw new RangeError(`minEpisodes must be a positive integer, got ${String(minEpisodes)}`);
  }
  if (minShare !== undefined && !(minShare > 0 && minShare <= 1)) {
    throw new RangeError(`minShare must be in (0, 1], got ${String(minShare)}`);
  }
}

/**
 * The built-in symbolic engineer, the offline default: it finds failure signatures that recur across the
 * batch's episodes (from what the target saw and did only; never `detail`) and writes a general patch from
 * the hook template library. The same episodes always give a byte-identical patch.
 */
export function createSymbolicEngineer(options: SymbolicEngineerOptions = {}): Engineer {
  checkOptions(options);
  return {
    label: SYMBOLIC_ENGINEER_LABEL,
    symbolic: true,
    propose: (input) => Promise.resolve(proposeSymbolic(input, options)),
  };
}

/** The engineer's work as a plain function (what `propose` resolves to). */
export function proposeSymbolic(input: EngineerInput, options: SymbolicEngineerOptions = {}): EngineerResult {
  if (input.bench === 'webshop' || input.bench === 'alfworld') {
    const thresholds = { minEpisodes: options.minEpisodes ?? 2, minShare: options.minShare ?? 0.5 };
    return proposeForBench({ ...input, bench: input.bench }, thresholds, { signaturePatch: SIGNATURE_PATCH_NOTE, noSignature: NO_SIGNATURE_NOTE });
  }
  if (input.bench !== 'dbbench') {
    return { status: 'request_failed', detail: `the symbolic engineer has no templates for '${String(input.bench)}'` };
  }
  const tally = tallySignatures(input.episodes, input.passThreshold);
  const verdicts = keepSignatures(tally, options);
  const kept: SignatureId[] = verdicts.filter((v) => v.kept).map((v) => v.id);
  const notes = [
    `batch: ${tally.episodes} episodes, ${tally.scored} scored, ${tally.failed} failed, ${tally.infrastructure} infrastructure failures left out`,
    `thresholds: at least ${options.minEpisodes ?? 2} failed episodes or ${options.minShare ?? 0.5} of the failed episodes`,
    ...verdicts
      .filter((v) => v.failed > 0 || v.passed > 0)
      .map((v) => `signature ${v.id}: ${v.failed} of ${tally.failed} failed episodes (${v.passed} passed) -> ${v.kept ? 'kept' : 'below threshold'}`),
  ];
  const composed = kept.length > 0 ? composePatch(kept) : composeSoftPatch();
  notes.push(...composed.templates.map((t) => `template ${t}`));
  notes.push(kept.length > 0 ? SIGNATURE_PATCH_NOTE : NO_SIGNATURE_NOTE);
  return { status: 'ok', proposal: { kind: 'patch', patch: composed.patch }, notes };
}

/** True when the result carries only the soft-hint fallback (no recurring signature). */
export function isNoSignatureResult(result: EngineerResult): boolean {
  return result.status === 'ok' && (result.notes ?? []).includes(NO_SIGNATURE_NOTE);
}
