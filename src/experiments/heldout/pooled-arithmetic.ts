import { ConfigError } from '../../episode/index.js';
import { meanSd, type SeedSpread } from '../../statistics/index.js';

/** Held-out counts of one patch: one editor, one evidence seed, one benchmark. */
export interface HeldoutCell {
  seed: number;
  bench: string;
  /** Held-out tasks (the split less the evidence tasks). */
  tasks: number;
  baselinePass: number;
  /** Passes with the patch installed, as recorded. Ignored when the patch is invalid. */
  patchedPass: number;
  /** Failed at baseline, passed when patched. */
  rescued: number;
  /** Passed at baseline, failed when patched. */
  regressed: number;
  /** Whether a real intervention was installed (the validator accepted the patch). */
  valid: boolean;
}

/** A cell as it is scored: an invalid patch is no intervention, so its patched counts equal the baseline (Δ 0). */
export interface ScoredCell extends HeldoutCell {
  deltaPass: number;
}

/** Pooled figures of one seed: all benchmarks' held-out tasks together. */
export interface PooledSeed {
  seed: number;
  tasks: number;
  baselinePass: number;
  patchedPass: number;
  deltaPass: number;
  /** deltaPass / tasks (a fraction; ×100 for pp). */
  deltaRate: number;
  rescued: number;
  regressed: number;
  /** Valid patches of this seed, out of `benches.length`. */
  valid: number;
}

/** One benchmark over the seeds. */
export interface BenchmarkOverSeeds {
  bench: string;
  tasks: number;
  /** Seeds whose patch for this benchmark was valid. */
  valid: number;
  deltaPassPerSeed: number[];
  deltaPass: SeedSpread;
  /** Per-seed deltaPass / tasks (fractions). */
  deltaRate: SeedSpread;
}

/** The held-out arithmetic of one editor: the paper's "mean ± sd over seeds of the pooled change". */
export interface HeldoutPool {
  seeds: number[];
  benches: string[];
  /** Valid patches over all cells, and the number of cells (seeds × benchmarks). */
  valid: { valid: number; total: number };
  perSeed: PooledSeed[];
  /** Pooled Δ passes over seeds. */
  deltaPass: SeedSpread;
  /** Pooled Δ pass rate over seeds (fractions). */
  deltaRate: SeedSpread;
  perBench: BenchmarkOverSeeds[];
  cells: ScoredCell[];
}

/** Scores one cell: an invalid patch counts as no intervention (patched = baseline, nothing rescued or regressed). */
export function scoreHeldoutCell(cell: HeldoutCell): ScoredCell {
  if (!cell.valid) return { ...cell, patchedPass: cell.baselinePass, rescued: 0, regressed: 0, deltaPass: 0 };
  return { ...cell, deltaPass: cell.patchedPass - cell.baselinePass };
}

/**
 * Pools one editor's cells: per seed, the sum over benchmarks of baseline and patched passes; then mean
 * ± sample sd of the pooled delta over seeds, and the same per benchmark. Seeds and benchmarks keep the
 * order of their first appearance; every (seed, benchmark) pair must appear exactly once, with the same
 * task count for a benchmark in every seed.
 */
export function poolHeldoutCells(cells: readonly HeldoutCell[]): HeldoutPool {
  if (cells.length === 0) throw new ConfigError({ message: 'Held-out pooling needs at least one (seed, benchmark) cell.', field: 'cells' });
  const seeds = unique(cells.map((c) => c.seed));
  const benches = unique(cells.map((c) => c.bench));
  const grid = new Map<string, ScoredCell>();
  for (const cell of cells) {
    const key = `${cell.seed}/${cell.bench}`;
    if (grid.has(key)) throw new ConfigError({ message: `Held-out cell seed ${cell.seed}, ${cell.bench} appears twice.`, field: 'cells' });
    if (cell.valid && cell.patchedPass - cell.baselinePass !== cell.rescued - cell.regressed) {
      throw new ConfigError({
        message: `Held-out cell seed ${cell.seed}, ${cell.bench}: patched − baseline (${cell.patchedPass - cell.baselinePass}) is not rescued − regressed (${cell.rescued - cell.regressed}).`,
        field: 'cells',
      });
    }
    grid.set(key, scoreHeldoutCell(cell));
  }
  const at = (seed: number, bench: string): ScoredCell => {
    const cell = grid.get(`${seed}/${bench}`);
    if (!cell) throw new ConfigError({ message: `Held-out cell seed ${seed}, ${bench} is missing: every seed needs every benchmark (${benches.join(', ')}).`, field: 'cells' });
    return cell;
  };

  const perBench = benches.map((bench): BenchmarkOverSeeds => {
    const row = seeds.map((seed) => at(seed, bench));
    const tasks = row[0]!.tasks;
    const other = row.find((c) => c.tasks !== tasks);
    if (other) throw new ConfigError({ message: `${bench} has ${tasks} held-out tasks in seed ${row[0]!.seed} but ${other.tasks} in seed ${other.seed}.`, field: 'cells' });
    const deltaPassPerSeed = row.map((c) => c.deltaPass);
    return {
      bench,
      tasks,
      valid: row.filter((c) => c.valid).length,
      deltaPassPerSeed,
      deltaPass: meanSd(deltaPassPerSeed),
      deltaRate: meanSd(deltaPassPerSeed.map((d) => d / tasks)),
    };
  });

  const perSeed = seeds.map((seed): PooledSeed => {
    const row = benches.map((bench) => at(seed, bench));
    const sum = (pick: (c: ScoredCell) => number) => row.reduce((total, c) => total + pick(c), 0);
    const tasks = sum((c) => c.tasks);
    const deltaPass = sum((c) => c.deltaPass);
    return {
      seed,
      tasks,
      baselinePass: sum((c) => c.baselinePass),
      patchedPass: sum((c) => c.patchedPass),
      deltaPass,
      deltaRate: deltaPass / tasks,
      rescued: sum((c) => c.rescued),
      regressed: sum((c) => c.regressed),
      valid: row.filter((c) => c.valid).length,
    };
  });

  const scored = seeds.flatMap((seed) => benches.map((bench) => at(seed, bench)));
  return {
    seeds,
    benches,
    valid: { valid: scored.filter((c) => c.valid).length, total: scored.length },
    perSeed,
    deltaPass: meanSd(perSeed.map((s) => s.deltaPass)),
    deltaRate: meanSd(perSeed.map((s) => s.deltaRate)),
    perBench,
    cells: scored,
  };
}

/**
 * The paper's headline line for one editor: `Harness-R1: +8.9 ± 1.5 pp over 1,270 tasks; valid 9/9`.
 * Minus signs are U+2212; one seed prints no spread.
 */
export function formatHeldoutHeadline(name: string, pool: HeldoutPool): string {
  const tasks = unique(pool.perSeed.map((s) => s.tasks));
  const taskText = tasks.length === 1 ? tasks[0]!.toLocaleString('en-US') : tasks.map((t) => t.toLocaleString('en-US')).join('/');
  const { mean, sd } = pool.deltaRate;
  const signedMean = `${Number((mean * 100).toFixed(1)) >= 0 ? '+' : '−'}${Math.abs(mean * 100).toFixed(1)}`;
  const spread = sd === null ? '' : ` ± ${(sd * 100).toFixed(1)}`;
  return `${name}: ${signedMean}${spread} pp over ${taskText} tasks; valid ${pool.valid.valid}/${pool.valid.total}`;
}

function unique<T>(values: readonly T[]): T[] {
  return [...new Set(values)];
}
