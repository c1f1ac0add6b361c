/** Number and duration formatting for terminal output: no float noise, units a reader expects. */

/** A number rounded to `digits` decimals with trailing zeros dropped: 0.020000000000000004 → "0.02". */
export function formatNumber(x: number, digits = 3): string {
  if (!Number.isFinite(x)) return String(x);
  const rounded = Number(x.toFixed(digits));
  return String(Object.is(rounded, -0) ? 0 : rounded);
}

/** A signed delta: "+0.02", "-0.1", "0". */
export function formatSigned(x: number, digits = 3): string {
  const s = formatNumber(x, digits);
  return x > 0 && s !== '0' ? `+${s}` : s;
}

/** A duration in milliseconds as "850 ms", "12.3 s", "3 min 05 s" or "1 h 02 min". */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return '?';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const seconds = ms / 1000;
  if (seconds < 60) return `${seconds < 10 ? seconds.toFixed(1) : Math.round(seconds)} s`;
  const totalSeconds = Math.round(seconds);
  const minutes = Math.floor(totalSeconds / 60);
  if (minutes < 60) return `${minutes} min ${String(totalSeconds % 60).padStart(2, '0')} s`;
  return `${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, '0')} min`;
}
