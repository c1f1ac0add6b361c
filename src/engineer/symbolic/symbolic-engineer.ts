import type { Engineer, EngineerInput, EngineerResult } from '../engineer.js';
import { NO_SIGNATURE_NOTE, SIGNATURE_PATCH_NOTE } from './propose-bench.js';
import { proposeGeneric } from './generic-symbolic.js';
import { createSignatureSampler, varyPatch, type SymbolicSampling } from './sampling.js';

export { NO_SIGNATURE_NOTE, SIGNATURE_PATCH_NOTE };

export const SYMBOLIC_ENGINEER_LABEL = 'symbolic engineer (built-in, rule-based)';

export interface SymbolicEngineerOptions {
  /** A signature is kept when at least this many failed episodes show it (default 2). */
  minEpisodes?: number;
  /**
   * ... or when at least this share of the failed episodes show it, which lets a small batch with one
   * or two failures still be answered (default 0.5). A share needs at least one episode.
   */
  minShare?: number;
  /** Seeded stochastic sampling (GRPO groups); with temperature 0 or none, answers are deterministic. */
  sampling?: SymbolicSampling;
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
 * hook templates — the benchmark's own signatures and templates when its definition has them, else the
 * generic ones. The same episodes always give a byte-identical patch.
 */
export function createSymbolicEngineer(options: SymbolicEngineerOptions = {}): Engineer {
  checkOptions(options);
  return {
    label: SYMBOLIC_ENGINEER_LABEL,
    kind: 'symbolic',
    propose: (input) => Promise.resolve(proposeSymbolic(input, options)),
  };
}

/** The engineer's work as a plain function (what `propose` resolves to). */
export function proposeSymbolic(input: EngineerInput, options: SymbolicEngineerOptions = {}): EngineerResult {
  const thresholds = { minEpisodes: options.minEpisodes ?? 2, minShare: options.minShare ?? 0.5 };
  const rules = input.benchmark.symbolic;
  const sampling = options.sampling !== undefined && options.sampling.temperature > 0 ? options.sampling : undefined;
  if (!sampling) return rules ? rules.propose(input, thresholds) : proposeGeneric(input, thresholds);
  const sampler = createSignatureSampler(sampling);
  return varyPatch(rules ? rules.propose(input, thresholds, sampler) : proposeGeneric(input, thresholds, sampler), sampling);
}

/** True when the result carries only the soft-hint fallback (no recurring signature). */
export function isNoSignatureResult(result: EngineerResult): boolean {
  return result.status === 'ok' && (result.notes ?? []).includes(NO_SIGNATURE_NOTE);
}
