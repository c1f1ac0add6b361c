import { mean, sampleStandardDeviation } from 'simple-statistics';

import { ConfigError } from '../episode/index.js';

/** Mean ± sample standard deviation of one figure over repeated runs (seeds). */
export interface SeedSpread {
  /** Runs. */
  n: number;
  mean: number;
  /** Sample standard deviation (n − 1 in the denominator); `null` for a single run, where it is undefined. */
  sd: number | null;
  /** The per-run values, in the order given. */
  values: number[];
}

/**
 * Mean and sample standard deviation over seeds, as the paper reports its held-out figures
 * (`mean ± sd` over three evidence seeds). One run has no spread: `sd` is `null`, never 0.
 */
export function meanSd(values: readonly number[]): SeedSpread {
  if (values.length === 0) throw new ConfigError({ message: 'A mean over seeds needs at least one value.', field: 'values' });
  const bad = values.findIndex((v) => !Number.isFinite(v));
  if (bad >= 0) throw new ConfigError({ message: `Value ${bad} is not a finite number (${String(values[bad])}).`, field: 'values' });
  const list = [...values];
  return { n: list.length, mean: mean(list), sd: list.length < 2 ? null : sampleStandardDeviation(list), values: list };
}
