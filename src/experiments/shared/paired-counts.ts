import { summarizePairedPasses, summarizePairedScores, type BootstrapOptions, type PairedSummary } from '../../statistics/index.js';

/** One task's reward at baseline and with a patch (the baseline's own reward where there was no intervention). */
export interface PairedReward {
  task: number;
  baseline: number;
  patched: number;
}

/** Counts and paired statistics of one set of paired tasks. */
export interface PairedCounts {
  tasks: number;
  baselinePass: number;
  patchedPass: number;
  deltaPass: number;
  rescued: number;
  regressed: number;
  /** Pass/fail: bootstrap interval of the pass-rate delta and the exact McNemar test. */
  paired: PairedSummary;
  /** Mean reward (the paper's Score column): its bootstrap interval; present when the benchmark's metric is the average reward. */
  score?: PairedSummary;
}

/** Pass counts, rescued / regressed tasks and the paired statistics of baseline vs patched over `pairs` (in the order given). */
export function pairedCounts(pairs: readonly PairedReward[], threshold: number, withScore: boolean, bootstrap?: BootstrapOptions): PairedCounts {
  const pass = (r: number) => r >= threshold;
  const b = pairs.map((p) => pass(p.baseline));
  const q = pairs.map((p) => pass(p.patched));
  const rescued = pairs.filter((_, i) => !b[i] && q[i]).length;
  const regressed = pairs.filter((_, i) => b[i] && !q[i]).length;
  const baselinePass = b.filter(Boolean).length;
  const patchedPass = q.filter(Boolean).length;
  return {
    tasks: pairs.length, baselinePass, patchedPass, deltaPass: patchedPass - baselinePass, rescued, regressed,
    paired: summarizePairedPasses(b, q, bootstrap),
    ...(withScore ? { score: summarizePairedScores(pairs.map((p) => p.baseline), pairs.map((p) => p.patched), bootstrap) } : {}),
  };
}
