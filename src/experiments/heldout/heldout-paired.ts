import { pairedPassesFromCounts, summarizePairedPasses, type BootstrapOptions, type PairedSummary } from '../../statistics/index.js';
import type { HeldoutPool, ScoredCell } from './pooled-arithmetic.js';

/** Paired statistics of one seed's patch: over all its held-out tasks, and per benchmark. */
export interface HeldoutSeedSummary {
  seed: number;
  pooled: PairedSummary;
  perBench: { bench: string; summary: PairedSummary }[];
}

/**
 * Paired bootstrap interval and exact McNemar test for every seed of a pool, from its counts alone
 * (results files keep counts, not per-task outcomes; the interval depends only on the counts). Invalid
 * patches are no intervention: every task keeps its baseline outcome. Seeds share the bootstrap seed.
 */
export function summarizeHeldoutSeeds(pool: HeldoutPool, options: BootstrapOptions = {}): HeldoutSeedSummary[] {
  return pool.seeds.map((seed) => {
    const row = pool.benches.map((bench) => pool.cells.find((c) => c.seed === seed && c.bench === bench)!);
    const arms = row.map(outcomes);
    const baseline = arms.flatMap((a) => a.baseline);
    const patched = arms.flatMap((a) => a.patched);
    return {
      seed,
      pooled: summarizePairedPasses(baseline, patched, options),
      perBench: row.map((cell, i) => ({ bench: cell.bench, summary: summarizePairedPasses(arms[i]!.baseline, arms[i]!.patched, options) })),
    };
  });
}

function outcomes(cell: ScoredCell): { baseline: boolean[]; patched: boolean[] } {
  return pairedPassesFromCounts({ tasks: cell.tasks, baselinePass: cell.baselinePass, rescued: cell.rescued, regressed: cell.regressed });
}
