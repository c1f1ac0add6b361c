import type { PairedSummary } from './paired-summary.js';
import type { SeedSpread } from './seed-spread.js';

/** How a figure is printed: `pp` multiplies fractions by 100 (pass rates); `score` prints the value itself. */
export type FigureUnit = 'pp' | 'score';

/** Options of the formatters. */
export interface FormatOptions {
  /** Default `pp` for pass summaries and spreads, `score` for score summaries. */
  unit?: FigureUnit;
  /** Decimals (default 1 for `pp`, 3 for `score`). */
  digits?: number;
  /** Print the mid-p value beside the exact p (default false). */
  midP?: boolean;
}

/**
 * One line for a delta: `+8.9 pp [95% CI +6.1, +11.6], McNemar p=0.003 (b=50, c=2)`; a score summary
 * has no McNemar part: `+0.052 [95% CI +0.031, +0.074]`. Minus signs are U+2212, as in the report.
 */
export function formatPairedSummary(summary: PairedSummary, options: FormatOptions = {}): string {
  const unit = options.unit ?? (summary.kind === 'pass' ? 'pp' : 'score');
  const digits = options.digits ?? defaultDigits(unit);
  const suffix = unit === 'pp' ? ' pp' : '';
  const { ci, mcnemar } = summary;
  const interval = `[${formatConfidence(ci.confidence)} CI ${signed(ci.low, unit, digits)}, ${signed(ci.high, unit, digits)}]`;
  const head = `${signed(summary.delta, unit, digits)}${suffix} ${interval}`;
  if (!mcnemar) return head;
  const mid = options.midP ? `, mid-p=${formatPValue(mcnemar.midP)}` : '';
  return `${head}, McNemar p=${formatPValue(mcnemar.p)}${mid} (b=${mcnemar.b}, c=${mcnemar.c})`;
}

/** `+8.9 ± 1.5 pp (n=3)`; one run prints no spread: `+8.9 pp (n=1, no sd)`. Values are fractions unless `unit` is `score`. */
export function formatSeedSpread(spread: SeedSpread, options: FormatOptions = {}): string {
  const unit = options.unit ?? 'pp';
  const digits = options.digits ?? defaultDigits(unit);
  const suffix = unit === 'pp' ? ' pp' : '';
  const scale = unit === 'pp' ? 100 : 1;
  if (spread.sd === null) return `${signed(spread.mean, unit, digits)}${suffix} (n=${spread.n}, no sd)`;
  return `${signed(spread.mean, unit, digits)} ± ${(spread.sd * scale).toFixed(digits)}${suffix} (n=${spread.n})`;
}

/** Three decimals from 0.001 up (`0.003`, `1.000`), two significant digits below (`6.1e-13`), `<5e-324` below the smallest double. */
export function formatPValue(p: number): string {
  if (p >= 0.001) return p.toFixed(3);
  if (p === 0) return '<5e-324';
  return p.toExponential(1);
}

/** `95%`, `99.5%`. */
export function formatConfidence(confidence: number): string {
  return `${Number((confidence * 100).toFixed(2))}%`;
}

function defaultDigits(unit: FigureUnit): number {
  return unit === 'pp' ? 1 : 3;
}

/** Sign always shown; a value that rounds to zero prints as `+0.0`. */
function signed(x: number, unit: FigureUnit, digits: number): string {
  const rounded = Number((unit === 'pp' ? x * 100 : x).toFixed(digits));
  return `${rounded >= 0 ? '+' : '−'}${Math.abs(rounded).toFixed(digits)}`;
}
