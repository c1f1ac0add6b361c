import { createHash } from 'node:crypto';

/**
 * Keyed randomness for the simulated target. A draw is a pure function of (seed, task identity, draw
 * name): no state, no wall clock, no call order. Re-deriving the same draw on every request therefore
 * gives the same value, whatever the concurrency or the order in which episodes run.
 */

/** Hex SHA-256 of the parts joined with NUL, the one hashing primitive of the simulation. */
export function simHash(...parts: readonly (string | number)[]): string {
  return createHash('sha256').update(parts.map(String).join('\u0000')).digest('hex');
}

/** A uniform number in [0, 1) for this (seed, task, name). 48 bits of the hash are used. */
export function simDraw(seed: number, taskKey: string, name: string): number {
  const hex = simHash('sim-draw-v1', seed, taskKey, name).slice(0, 12);
  return Number.parseInt(hex, 16) / 2 ** 48;
}

/** An integer in [0, n) for this (seed, task, name); n must be a positive integer. */
export function simIndex(seed: number, taskKey: string, name: string, n: number): number {
  if (!Number.isInteger(n) || n <= 0) throw new RangeError(`simIndex needs a positive integer bound, got ${n}`);
  return Math.min(n - 1, Math.floor(simDraw(seed, taskKey, name) * n));
}

/** True with probability `rate` for this (seed, task, name). Raising the rate only adds true draws. */
export function simChance(seed: number, taskKey: string, name: string, rate: number): boolean {
  return simDraw(seed, taskKey, name) < rate;
}
