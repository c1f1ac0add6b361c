import { quantileSorted } from 'simple-statistics';

import { ConfigError } from '../episode/index.js';
import { createMersenneTwister } from './mersenne-twister.js';

/** Resamples drawn when none is given. */
export const DEFAULT_BOOTSTRAP_RESAMPLES = 10_000;
/** The most resamples accepted: beyond this the interval stops moving and the run only gets slower. */
export const MAX_BOOTSTRAP_RESAMPLES = 1_000_000;
/** Confidence level when none is given. */
export const DEFAULT_CONFIDENCE = 0.95;
/** Seed when none is given, so two runs of the same data print the same interval. */
export const DEFAULT_BOOTSTRAP_SEED = 0;

/** Options of {@link pairedBootstrap}; every field has a documented default. */
export interface BootstrapOptions {
  /** Bootstrap resamples (default {@link DEFAULT_BOOTSTRAP_RESAMPLES}); an integer in [1, {@link MAX_BOOTSTRAP_RESAMPLES}]. */
  resamples?: number;
  /** Two-sided confidence level in (0, 1) (default {@link DEFAULT_CONFIDENCE}). */
  confidence?: number;
  /** Seed of the resampling generator (default {@link DEFAULT_BOOTSTRAP_SEED}). */
  seed?: number;
}

/** A percentile bootstrap confidence interval of a paired mean difference. */
export interface BootstrapInterval {
  /** Paired tasks. */
  n: number;
  /** Point estimate: mean of (patched − baseline) over the tasks. */
  delta: number;
  /** Lower end of the interval. */
  low: number;
  /** Upper end of the interval. */
  high: number;
  confidence: number;
  resamples: number;
  seed: number;
  method: 'paired-bootstrap-percentile';
}

/**
 * Paired bootstrap CI of the mean of patched[i] − baseline[i]: draw n task indices with replacement
 * (the same index picks both arms, which keeps the pairing), take the mean difference, repeat, and read
 * the (1 − confidence)/2 and (1 + confidence)/2 quantiles of the resampled means (linear interpolation,
 * numpy's default "type 7" definition).
 *
 * Indices come from {@link createMersenneTwister}: resample r, draw i is the (r·n + i)-th
 * `randrange(n)` of Python's `random.Random(seed)`, so the interval can be recomputed outside this tool.
 * Outcomes may be 0/1 passes or scores; the interval is in the outcomes' unit (fractions, not pp).
 */
export function pairedBootstrap(baseline: readonly number[], patched: readonly number[], options: BootstrapOptions = {}): BootstrapInterval {
  const n = checkPaired(baseline, patched);
  const resamples = options.resamples ?? DEFAULT_BOOTSTRAP_RESAMPLES;
  const confidence = options.confidence ?? DEFAULT_CONFIDENCE;
  const seed = options.seed ?? DEFAULT_BOOTSTRAP_SEED;
  if (!Number.isInteger(resamples) || resamples < 1 || resamples > MAX_BOOTSTRAP_RESAMPLES) {
    throw new ConfigError({ message: `Bootstrap resamples must be an integer from 1 to ${MAX_BOOTSTRAP_RESAMPLES}; got ${String(resamples)}.`, field: 'resamples' });
  }
  if (!(confidence > 0 && confidence < 1)) {
    throw new ConfigError({ message: `Confidence level must lie strictly between 0 and 1; got ${String(confidence)}.`, field: 'confidence' });
  }
  const diffs = new Float64Array(n);
  for (let i = 0; i < n; i++) diffs[i] = patched[i]! - baseline[i]!;
  const rng = createMersenneTwister(seed);
  const means = new Float64Array(resamples);
  for (let r = 0; r < resamples; r++) {
    let sum = 0;
    for (let i = 0; i < n; i++) sum += diffs[rng.below(n)]!;
    means[r] = sum / n;
  }
  means.sort();
  const sorted = Array.from(means);
  const alpha = (1 - confidence) / 2;
  return {
    n,
    delta: meanOf(diffs),
    low: quantileSorted(sorted, alpha),
    high: quantileSorted(sorted, 1 - alpha),
    confidence,
    resamples,
    seed,
    method: 'paired-bootstrap-percentile',
  };
}

/** Left-to-right sum, in the order the resampling loop uses. */
function meanOf(values: Float64Array): number {
  let sum = 0;
  for (const v of values) sum += v;
  return sum / values.length;
}

/** The number of pairs; both arms must be the same non-empty length with finite values. */
function checkPaired(baseline: readonly number[], patched: readonly number[]): number {
  if (baseline.length !== patched.length) {
    throw new ConfigError({ message: `Paired outcomes need one baseline and one patched value per task; got ${baseline.length} and ${patched.length}.`, field: 'outcomes' });
  }
  if (baseline.length === 0) throw new ConfigError({ message: 'Paired statistics need at least one task.', field: 'outcomes' });
  if (baseline.length >= 0x1_0000_0000) throw new ConfigError({ message: `At most 2^32 - 1 paired tasks are supported; got ${baseline.length}.`, field: 'outcomes' });
  for (const arm of [baseline, patched]) {
    const bad = arm.findIndex((v) => !Number.isFinite(v));
    if (bad >= 0) throw new ConfigError({ message: `Task ${bad} has a non-finite outcome (${String(arm[bad])}).`, field: 'outcomes' });
  }
  return baseline.length;
}
