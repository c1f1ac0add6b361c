/** The diverging colour scale of the transfer heatmap: red below 0, a neutral grey at 0, green above. */
export const HEAT_NEGATIVE = [179, 38, 30] as const;
export const HEAT_NEUTRAL = [240, 241, 243] as const;
export const HEAT_POSITIVE = [47, 125, 79] as const;

const hex = (rgb: readonly number[]) => `#${rgb.map((v) => Math.round(v).toString(16).padStart(2, '0')).join('')}`;

/**
 * The background of a cell whose pass-rate delta (a fraction) is `delta`, on a scale symmetric around 0
 * that reaches full colour at ±`maxAbs` (at least 0.1, so tiny deltas stay pale).
 */
export function heatColor(delta: number, maxAbs: number): string {
  const reach = Math.max(0.1, maxAbs);
  const t = Math.max(-1, Math.min(1, delta / reach));
  const end = t < 0 ? HEAT_NEGATIVE : HEAT_POSITIVE;
  const w = Math.abs(t);
  return hex(HEAT_NEUTRAL.map((n, i) => n + (end[i]! - n) * w));
}

/** Dark text on pale cells, white text on saturated ones. */
export function heatTextColor(delta: number, maxAbs: number): string {
  return Math.abs(delta) / Math.max(0.1, maxAbs) > 0.55 ? '#ffffff' : '#1d2430';
}
