/**
 * CPython's `random.Random` (MT19937), bit for bit, for the calls the original makes: `seed(int)`,
 * `random()`, `uniform`, `shuffle` and `sample` (goal orders such as `random.seed(233); random.shuffle(goals)`
 * and the task splits' seeded draws). Reproducing them needs the same generator,
 * the same seeding (`init_by_array` over the 32-bit words of the seed) and the same
 * `_randbelow` (rejection sampling over `getrandbits(bit_length(n))`). Checked against Python 3.11.
 */

const N = 624;
const M = 397;
const MATRIX_A = 0x9908b0df;
const UPPER_MASK = 0x80000000;
const LOWER_MASK = 0x7fffffff;

/** A Python-compatible pseudo-random generator. Create with {@link createPythonRandom}. */
export interface PythonRandom {
  /** `random.random()`: a float in [0, 1) with 53 random bits. */
  random(): number;
  /** `random.getrandbits(k)` for 0 ≤ k ≤ 32. */
  getrandbits(k: number): number;
  /** `random._randbelow(n)`: an int in [0, n), n ≥ 1. */
  randbelow(n: number): number;
  /** `random.uniform(a, b)`: `a + (b - a) * random()`. */
  uniform(a: number, b: number): number;
  /** `random.shuffle(x)`, in place. */
  shuffle<T>(items: T[]): void;
  /** `random.sample(population, k)`. */
  sample<T>(population: readonly T[], k: number): T[];
  /** An independent generator in the same state. */
  clone(): PythonRandom;
}

/** `random.Random(seed)` for a non-negative or negative integer seed (Python uses `abs(seed)`). */
export function createPythonRandom(seed: number | bigint): PythonRandom {
  const state = { mt: new Uint32Array(N), index: N };
  seedByArray(state.mt, seedWords(seed));
  return fromState(state);
}

function seedWords(seed: number | bigint): number[] {
  let rest = typeof seed === 'bigint' ? seed : BigInt(Math.trunc(seed));
  if (rest < 0n) rest = -rest;
  if (rest === 0n) return [0];
  const words: number[] = [];
  while (rest > 0n) {
    words.push(Number(rest & 0xffffffffn));
    rest >>= 32n;
  }
  return words;
}

function initGenrand(mt: Uint32Array, s: number): void {
  mt[0] = s >>> 0;
  for (let i = 1; i < N; i++) {
    const prev = mt[i - 1]!;
    mt[i] = (Math.imul(1812433253, prev ^ (prev >>> 30)) + i) >>> 0;
  }
}

function seedByArray(mt: Uint32Array, key: readonly number[]): void {
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
  for (let kk = 0; kk < N; kk++) {
    const y = (mt[kk]! & UPPER_MASK) | (mt[(kk + 1) % N]! & LOWER_MASK);
    mt[kk] = (mt[(kk + M) % N]! ^ (y >>> 1) ^ (y & 1 ? MATRIX_A : 0)) >>> 0;
  }
}

function fromState(state: { mt: Uint32Array; index: number }): PythonRandom {
  const next32 = (): number => {
    if (state.index >= N) {
      twist(state.mt);
      state.index = 0;
    }
    let y = state.mt[state.index++]!;
    y ^= y >>> 11;
    y ^= (y << 7) & 0x9d2c5680;
    y ^= (y << 15) & 0xefc60000;
    y ^= y >>> 18;
    return y >>> 0;
  };
  const getrandbits = (k: number): number => {
    if (k < 0 || k > 32 || !Number.isInteger(k)) throw new RangeError(`getrandbits supports 0..32 bits, got ${k}`);
    if (k === 0) return 0;
    return next32() >>> (32 - k);
  };
  const randbelow = (n: number): number => {
    if (!Number.isInteger(n) || n < 1 || n > 0xffffffff) throw new RangeError(`randbelow needs 1 ≤ n < 2^32, got ${n}`);
    const k = Math.floor(Math.log2(n)) + 1;
    let r = getrandbits(k);
    while (r >= n) r = getrandbits(k);
    return r;
  };
  const random = (): number => {
    const a = next32() >>> 5;
    const b = next32() >>> 6;
    return (a * 67108864 + b) / 9007199254740992;
  };
  return {
    random,
    getrandbits,
    randbelow,
    uniform: (a, b) => a + (b - a) * random(),
    shuffle<T>(items: T[]): void {
      for (let i = items.length - 1; i > 0; i--) {
        const j = randbelow(i + 1);
        const tmp = items[i]!;
        items[i] = items[j]!;
        items[j] = tmp;
      }
    },
    sample<T>(population: readonly T[], k: number): T[] {
      const n = population.length;
      if (!Number.isInteger(k) || k < 0 || k > n) throw new RangeError('Sample larger than population or is negative');
      let setsize = 21;
      if (k > 5) setsize += 4 ** Math.ceil(Math.log(k * 3) / Math.log(4));
      const result: T[] = [];
      if (n <= setsize) {
        const pool = population.slice();
        for (let i = 0; i < k; i++) {
          const j = randbelow(n - i);
          result.push(pool[j]!);
          pool[j] = pool[n - i - 1]!;
        }
      } else {
        const selected = new Set<number>();
        for (let i = 0; i < k; i++) {
          let j = randbelow(n);
          while (selected.has(j)) j = randbelow(n);
          selected.add(j);
          result.push(population[j]!);
        }
      }
      return result;
    },
    clone: () => fromState({ mt: state.mt.slice(), index: state.index }),
  };
}
