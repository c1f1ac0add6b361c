import { ConfigError } from '../episode/index.js';
import { createMersenneTwister } from './mersenne-twister.js';

/**
 * `k` distinct items of `population` drawn without replacement, in draw order, exactly as CPython's
 * `random.Random(seed).sample(population, k)` draws them (the same generator, the same two strategies: a
 * shrinking pool for small populations, rejection from a set otherwise). So a sample drawn here can be
 * redrawn with two lines of Python.
 */
export function seededSample<T>(population: readonly T[], k: number, seed: number): T[] {
  const n = population.length;
  if (!Number.isInteger(k) || k < 0 || k > n) throw new ConfigError({ message: `Cannot sample ${k} of ${n} items.`, field: 'k' });
  const rng = createMersenneTwister(seed);
  const result: T[] = [];
  // CPython: setsize = 21, plus 4 ** ceil(log(3k, 4)) when k > 5; the pool strategy when n <= setsize.
  let setsize = 21;
  if (k > 5) setsize += 4 ** Math.ceil(Math.log(k * 3) / Math.log(4));
  if (n <= setsize) {
    const pool = [...population];
    for (let i = 0; i < k; i++) {
      const j = rng.below(n - i);
      result.push(pool[j]!);
      pool[j] = pool[n - i - 1]!;
    }
    return result;
  }
  const selected = new Set<number>();
  for (let i = 0; i < k; i++) {
    let j = rng.below(n);
    while (selected.has(j)) j = rng.below(n);
    selected.add(j);
    result.push(population[j]!);
  }
  return result;
}
