/** Number formats shared by the report's tables, cards and charts. */

/** `7/9 (77.8%)`; `-` when there is nothing to count. */
export function formatPassCount(pass: number, total: number): string {
  return total === 0 ? `${pass}/0` : `${pass}/${total} (${formatPercent(pass / total)})`;
}

export function formatPercent(x: number): string {
  return `${(x * 100).toFixed(1)}%`;
}

/** A signed delta in percentage points: `+11.1 pp`, `-5.0 pp`, `+0.0 pp`. */
export function formatPoints(x: number): string {
  const rounded = Number((x * 100).toFixed(1));
  return `${rounded >= 0 ? '+' : '−'}${Math.abs(rounded).toFixed(1)} pp`;
}

/** A signed number with a fixed number of decimals: `+0.111`, `−0.250`. */
export function formatSigned(x: number, digits = 3): string {
  const rounded = Number(x.toFixed(digits));
  return `${rounded >= 0 ? '+' : '−'}${Math.abs(rounded).toFixed(digits)}`;
}

/** Rewards are usually 0 or 1; shaped rewards keep three decimals. */
export function formatReward(x: number): string {
  return Number.isInteger(x) ? String(x) : x.toFixed(3);
}
