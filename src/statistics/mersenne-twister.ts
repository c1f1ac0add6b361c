import { ConfigError } from '../episode/index.js';
import { createPythonRandom } from '../python/python-random.js';

/**
 * A seeded uniform source. Every draw is a pure function of the seed and the number of earlier draws, so a
 * statistic computed from it is reproducible byte for byte.
 */
export interface SeededRandom {
  /** The seed it was created with. */
  readonly seed: number;
  /** The next 32-bit output word, an integer in [0, 2^32). */
  nextUint32(): number;
  /** A float in [0, 1) with 53 random bits (Python's `random.random()`). */
  random(): number;
  /** A uniform integer in [0, n), without modulo bias (Python's `randrange(n)`); 1 <= n < 2^32. */
  below(n: number): number;
}

const TWO_POW_32 = 0x1_0000_0000;

/**
 * MT19937 seeded the way CPython's `random.seed(int)` seeds it: the project's one Python-exact generator
 * (`python/python-random.ts`), seen through the three draws the statistics need.
 *
 * Why this generator: it is the one Python's standard library uses, so any resample drawn here can be
 * redrawn with `random.Random(seed).randrange(n)` in three lines of Python; the golden tests do exactly
 * that. `random()` and `below()` consume words exactly as CPython's `random()` and `_randbelow()` do.
 *
 * @param seed a non-negative safe integer
 */
export function createMersenneTwister(seed: number): SeededRandom {
  if (!Number.isSafeInteger(seed) || seed < 0) {
    throw new ConfigError({ message: `A random seed must be a non-negative integer up to 2^53 - 1; got ${String(seed)}.`, field: 'seed' });
  }
  const python = createPythonRandom(seed);
  return {
    seed,
    nextUint32: () => python.getrandbits(32),
    random: () => python.random(),
    below(n: number): number {
      if (!Number.isInteger(n) || n < 1 || n >= TWO_POW_32) {
        throw new ConfigError({ message: `below(n) needs an integer 1 <= n < 2^32; got ${String(n)}.`, field: 'n' });
      }
      return python.randbelow(n);
    },
  };
}
