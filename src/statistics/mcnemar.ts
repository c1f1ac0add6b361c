import { ConfigError } from '../episode/index.js';

/** The exact McNemar test on the discordant pairs of a paired pass/fail comparison. */
export interface McNemarResult {
  /** Rescued tasks: failed at baseline, passed when patched. */
  b: number;
  /** Regressed tasks: passed at baseline, failed when patched. */
  c: number;
  /** Discordant pairs, b + c. */
  n: number;
  /** Two-sided exact p-value: 2 · P(X <= min(b, c)) for X ~ Binomial(b + c, 1/2), capped at 1; 1 when b + c = 0. */
  p: number;
  /** Mid-p variant: the exact p-value less P(X = min(b, c)), capped at 1; less conservative, same scale. */
  midP: number;
}

/**
 * Exact McNemar test (two-sided exact binomial test of b against b + c with probability 1/2).
 *
 * The tail is summed in exact integer arithmetic (BigInt binomial coefficients) and divided by 2^(b+c)
 * only at the end, so the p-value is the correctly rounded double of the exact rational for any p above
 * 2^-1022 (below that, within one subnormal step). Why not a library: at the sizes of interest (b + c in
 * the tens to thousands) `jstat`'s binomial CDF is rounded to 10 decimals, so (50, 2) comes out as p = 0,
 * and `simple-statistics`' gammaln-based table is off by ~1e-12 relative at (500, 480); the exact sum
 * costs well under a millisecond at b + c = 1,000 (see bench/statistics-bench.ts).
 */
export function mcnemarExact(b: number, c: number): McNemarResult {
  for (const [name, value] of [['b', b], ['c', c]] as const) {
    if (!Number.isSafeInteger(value) || value < 0) {
      throw new ConfigError({ message: `McNemar counts must be non-negative integers; ${name} = ${String(value)}.`, field: name });
    }
  }
  const n = b + c;
  const k = Math.min(b, c);
  const { tail, point } = lowerTail(n, k);
  // p = 2·tail / 2^n and mid-p = (2·tail − point) / 2^n; both are 1 when b = c.
  const p = Math.min(1, dyadicToNumber(2n * tail, n));
  const midP = Math.min(1, dyadicToNumber(2n * tail - point, n));
  return { b, c, n, p, midP };
}

/** Σ_{i<=k} C(n, i) and C(n, k), exactly. */
function lowerTail(n: number, k: number): { tail: bigint; point: bigint } {
  let term = 1n;
  let tail = 1n;
  const bigN = BigInt(n);
  for (let i = 0; i < k; i++) {
    const step = BigInt(i);
    term = (term * (bigN - step)) / (step + 1n);
    tail += term;
  }
  return { tail, point: term };
}

/** num / 2^shift as the nearest double (num >= 0): keep 64 leading bits plus a sticky bit, then scale by powers of two. */
function dyadicToNumber(num: bigint, shift: number): number {
  if (num === 0n) return 0;
  const bits = num.toString(2).length;
  let mantissa = num;
  let exponent = -shift;
  if (bits > 64) {
    const drop = BigInt(bits - 64);
    const sticky = (num & ((1n << drop) - 1n)) === 0n ? 0n : 1n;
    mantissa = (num >> drop) | sticky;
    exponent += bits - 64;
  }
  return scaleByPowerOfTwo(Number(mantissa), exponent);
}

/** x · 2^e for x in [1, 2^64) and e <= 64: one exact 2^-1000 step first, so the power itself never underflows too early. */
function scaleByPowerOfTwo(x: number, e: number): number {
  if (e < -1000) return x * 2 ** -1000 * 2 ** (e + 1000);
  return x * 2 ** e;
}
