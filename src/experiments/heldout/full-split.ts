import { ConfigError } from '../../episode/index.js';
import { meanSd, type SeedSpread } from '../../statistics/index.js';
import type { HeldoutPool } from './pooled-arithmetic.js';

/** The evidence tasks of one (seed, benchmark) — the failures the engineer saw — rerun with that patch. */
export interface EvidenceCell {
  seed: number;
  bench: string;
  tasks: number;
  /** Baseline passes among the evidence tasks: 0 when they were sampled from the baseline's failures. */
  baselinePass: number;
  /** Passes with the patch installed. Ignored when the patch is invalid (no intervention). */
  patchedPass: number;
}

/** One seed over the whole split: held-out tasks plus evidence tasks. */
export interface FullSplitSeed {
  seed: number;
  tasks: number;
  baselinePass: number;
  patchedPass: number;
  deltaPass: number;
  /** deltaPass / tasks (a fraction). */
  deltaRate: number;
}

/** The full-split figure reported beside the held-out one. */
export interface FullSplitFigures {
  perSeed: FullSplitSeed[];
  deltaPass: SeedSpread;
  deltaRate: SeedSpread;
}

/**
 * Full-split figures: each seed's held-out counts plus its evidence tasks' counts, with an invalid patch
 * scored as no intervention on the evidence tasks too. Every (seed, benchmark) of the pool needs its
 * evidence cell. The original's `results.json` records only the evidence task ids, not their rerun
 * outcomes, so this figure cannot be recomputed from it; `fullSplitRange` gives the range it allows.
 */
export function fullSplitFigures(pool: HeldoutPool, evidence: readonly EvidenceCell[]): FullSplitFigures {
  const byKey = new Map(evidence.map((e) => [`${e.seed}/${e.bench}`, e]));
  if (byKey.size !== evidence.length) throw new ConfigError({ message: 'An evidence cell appears twice for one (seed, benchmark).', field: 'evidence' });
  const perSeed = pool.seeds.map((seed): FullSplitSeed => {
    let tasks = 0;
    let baselinePass = 0;
    let patchedPass = 0;
    for (const cell of pool.cells.filter((c) => c.seed === seed)) {
      const e = byKey.get(`${seed}/${cell.bench}`);
      if (!e) throw new ConfigError({ message: `No evidence outcomes for seed ${seed}, ${cell.bench}.`, field: 'evidence' });
      if (e.baselinePass > e.tasks || e.patchedPass > e.tasks || e.baselinePass < 0 || e.patchedPass < 0) {
        throw new ConfigError({ message: `Evidence counts of seed ${seed}, ${cell.bench} do not fit in ${e.tasks} tasks.`, field: 'evidence' });
      }
      tasks += cell.tasks + e.tasks;
      baselinePass += cell.baselinePass + e.baselinePass;
      patchedPass += cell.patchedPass + (cell.valid ? e.patchedPass : e.baselinePass);
    }
    const deltaPass = patchedPass - baselinePass;
    return { seed, tasks, baselinePass, patchedPass, deltaPass, deltaRate: deltaPass / tasks };
  });
  return { perSeed, deltaPass: meanSd(perSeed.map((s) => s.deltaPass)), deltaRate: meanSd(perSeed.map((s) => s.deltaRate)) };
}

/**
 * What a results file without evidence outcomes still fixes about the full-split figure, when the
 * evidence tasks are baseline failures (as sampled): at the low end no evidence task is rescued, at the
 * high end every evidence task of a valid patch is. Returns both ends as full-split figures.
 */
export function fullSplitRange(pool: HeldoutPool, evidencePerBenchmark: number): { low: FullSplitFigures; high: FullSplitFigures } {
  const cells = (rescued: boolean): EvidenceCell[] =>
    pool.cells.map((c) => ({ seed: c.seed, bench: c.bench, tasks: evidencePerBenchmark, baselinePass: 0, patchedPass: rescued ? evidencePerBenchmark : 0 }));
  return { low: fullSplitFigures(pool, cells(false)), high: fullSplitFigures(pool, cells(true)) };
}
