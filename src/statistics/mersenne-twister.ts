import { ConfigError } from '../episode/index.js';

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

const N = 624;
const M = 397;
const MATRIX_A = 0x9908b0df;
const UPPER_MASK = 0x80000000;
const LOWER_MASK = 0x7fffffff;
const TWO_POW_32 = 0x1_0000_0000;

/**
 * MT19937, the Mersenne Twister of Matsumoto and Nishimura (1998), seeded the way CPython's
 * `random.seed(int)` seeds it (`init_by_array` over the 32-bit words of the seed, low word first).
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
  return new MersenneTwister(seed);
}

class MersenneTwister implements SeededRandom {
  private readonly mt = new Uint32Array(N);
  private index = N;

  constructor(readonly seed: number) {
    initByArray(this.mt, seedWords(seed));
  }

  nextUint32(): number {
    if (this.index >= N) {
      twist(this.mt);
      this.index = 0;
    }
    let y = this.mt[this.index++]!;
    y ^= y >>> 11;
    y ^= (y << 7) & 0x9d2c5680;
    y ^= (y << 15) & 0xefc60000;
    y ^= y >>> 18;
    return y >>> 0;
  }

  random(): number {
    const a = this.nextUint32() >>> 5;
    const b = this.nextUint32() >>> 6;
    return (a * 67108864 + b) / 9007199254740992;
  }

  below(n: number): number {
    if (!Number.isInteger(n) || n < 1 || n >= TWO_POW_32) {
      throw new ConfigError({ message: `below(n) needs an integer 1 <= n < 2^32; got ${String(n)}.`, field: 'n' });
    }
    // CPython draws k = bit_length(n) bits and retries until the draw is below n (k is 1 even for n = 1).
    const shift = Math.clz32(n);
    let r = this.nextUint32() >>> shift;
    while (r >= n) r = this.nextUint32() >>> shift;
    return r;
  }
}

/** The 32-bit words of the seed, least significant first; zero is one word `[0]` (as in CPython). */
function seedWords(seed: number): number[] {
  const low = seed % TWO_POW_32;
  const high = Math.floor(seed / TWO_POW_32);
  return high === 0 ? [low] : [low, high];
}

function initGenrand(mt: Uint32Array, s: number): void {
  mt[0] = s >>> 0;
  for (let i = 1; i < N; i++) {
    const prev = mt[i - 1]!;
    mt[i] = (Math.imul(1812433253, prev ^ (prev >>> 30)) + i) >>> 0;
  }
}

function initByArray(mt: Uint32Array, key: readonly number[]): void {
  initGenrand(mt, 19650218);
  let i = 1;
  let j = 0;
  for (let k = Math.max(N, key.length); k > 0; k--) {
    const prev = mt[i - 1]!;
    mt[i] = ((mt[i]! ^ Math.imul(prev ^ (prev >>> 30), 1664525)) + key[j]! + j) >>> 0;
    i++;
    j++;
    if (i >= N) {
      mt[0] = mt[N - 1]!;
      i = 1;
    }
    if (j >= key.length) j = 0;
  }
  for (let k = N - 1; k > 0; k--) {
    const prev = mt[i - 1]!;
    mt[i] = ((mt[i]! ^ Math.imul(prev ^ (prev >>> 30), 1566083941)) - i) >>> 0;
    i++;
    if (i >= N) {
      mt[0] = mt[N - 1]!;
      i = 1;
    }
  }
  mt[0] = 0x80000000;
}

function twist(mt: Uint32Array): void {
  const mix = (upper: number, lower: number, far: number): number => {
    const y = (upper & UPPER_MASK) | (lower & LOWER_MASK);
    return (far ^ (y >>> 1) ^ (y & 1 ? MATRIX_A : 0)) >>> 0;
  };
  let kk = 0;
  for (; kk < N - M; kk++) mt[kk] = mix(mt[kk]!, mt[kk + 1]!, mt[kk + M]!);
  for (; kk < N - 1; kk++) mt[kk] = mix(mt[kk]!, mt[kk + 1]!, mt[kk + M - N]!);
  mt[N - 1] = mix(mt[N - 1]!, mt[0]!, mt[M - 1]!);
}
