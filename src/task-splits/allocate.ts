import { ConfigError } from '../episode/index.js';

/**
 * Splits `total` over groups in proportion to their sizes by the largest-remainder method: each group
 * gets the floor of its quota, and the leftover units go to the largest fractional parts, ties to the
 * group listed first. The result always sums to `total`, which plain per-group rounding does not
 * promise. On the text-world benchmark's shipped families the two agree (this reproduces the release's
 * stratified test draw).
 */
export function allocateLargestRemainder(sizes: ReadonlyMap<string, number>, total: number): Map<string, number> {
  const whole = [...sizes.values()].reduce((a, b) => a + b, 0);
  if (!Number.isInteger(total) || total < 0 || total > whole) {
    throw new ConfigError({ message: `Cannot allocate ${total} tasks over groups holding ${whole}.`, field: 'pool' });
  }
  const keys = [...sizes.keys()];
  const quotas = keys.map((k) => (whole === 0 ? 0 : (total * sizes.get(k)!) / whole));
  const alloc = quotas.map((q) => Math.floor(q));
  const order = keys.map((_, i) => i).sort((a, b) => quotas[b]! - alloc[b]! - (quotas[a]! - alloc[a]!) || a - b);
  let left = total - alloc.reduce((a, b) => a + b, 0);
  for (const i of order) {
    if (left <= 0) break;
    alloc[i]!++;
    left--;
  }
  return new Map(keys.map((k, i) => [k, alloc[i]!]));
}
