import { ConfigError } from '../episode/index.js';
import { mcnemarExact, type McNemarResult } from './mcnemar.js';
import { pairedBootstrap, type BootstrapInterval, type BootstrapOptions } from './paired-bootstrap.js';

/**
 * What is shown next to a delta: the point estimate, its paired bootstrap interval and, for pass/fail
 * outcomes, the exact McNemar test on rescued (b) and regressed (c) tasks. Plain JSON: it goes into
 * `--json` output and run artifacts as it is. Rates and deltas are fractions (×100 for pp).
 */
export interface PairedSummary {
  /** `pass`: 0/1 success per task (McNemar applies); `score`: a per-task score such as a shop reward in [0, 1]. */
  kind: 'pass' | 'score';
  /** Paired tasks. */
  n: number;
  /** Mean baseline outcome (pass rate or mean score). */
  baseline: number;
  /** Mean patched outcome. */
  patched: number;
  /** patched − baseline. */
  delta: number;
  ci: Omit<BootstrapInterval, 'n' | 'delta'>;
  /** Exact McNemar test for `pass`; `null` for `score`, where tasks are not simply rescued or regressed. */
  mcnemar: McNemarResult | null;
}

/** Paired summary of per-task successes (same tasks, same order, in both arms). */
export function summarizePairedPasses(baseline: readonly boolean[], patched: readonly boolean[], options: BootstrapOptions = {}): PairedSummary {
  // The bootstrap checks the pairing first, so the counts below always see two arms of one length.
  const summary = summarize('pass', baseline.map(Number), patched.map(Number), options, null);
  let rescued = 0;
  let regressed = 0;
  for (let i = 0; i < baseline.length; i++) {
    if (!baseline[i] && patched[i]) rescued++;
    if (baseline[i] && !patched[i]) regressed++;
  }
  return { ...summary, mcnemar: mcnemarExact(rescued, regressed) };
}

/** Paired summary of per-task scores (e.g. shop rewards in [0, 1]); no McNemar test. */
export function summarizePairedScores(baseline: readonly number[], patched: readonly number[], options: BootstrapOptions = {}): PairedSummary {
  return summarize('score', baseline, patched, options, null);
}

function summarize(kind: PairedSummary['kind'], baseline: readonly number[], patched: readonly number[], options: BootstrapOptions, mcnemar: McNemarResult | null): PairedSummary {
  const { n, delta, ...ci } = pairedBootstrap(baseline, patched, options);
  return { kind, n, baseline: average(baseline), patched: average(patched), delta, ci, mcnemar };
}

function average(values: readonly number[]): number {
  let sum = 0;
  for (const v of values) sum += v;
  return sum / values.length;
}

/** The four cells of a paired pass/fail table, as results files that keep only counts record them. */
export interface PairedPassCounts {
  /** Paired tasks. */
  tasks: number;
  /** Tasks passed at baseline. */
  baselinePass: number;
  /** Failed at baseline, passed when patched. */
  rescued: number;
  /** Passed at baseline, failed when patched. */
  regressed: number;
}

/**
 * Per-task outcomes with the given counts, in a fixed order (pass→pass, pass→fail, fail→pass,
 * fail→fail). The bootstrap interval depends on the counts only through this canonical order, so the
 * same counts and seed always give the same interval.
 */
export function pairedPassesFromCounts(counts: PairedPassCounts): { baseline: boolean[]; patched: boolean[] } {
  const { tasks, baselinePass, rescued, regressed } = counts;
  for (const [name, value] of Object.entries(counts)) {
    if (!Number.isSafeInteger(value) || value < 0) throw new ConfigError({ message: `Paired count ${name} must be a non-negative integer; got ${String(value)}.`, field: name });
  }
  if (baselinePass > tasks || regressed > baselinePass || rescued > tasks - baselinePass) {
    throw new ConfigError({
      message: `Inconsistent paired counts: ${baselinePass} baseline passes, ${regressed} regressed and ${rescued} rescued do not fit in ${tasks} tasks.`,
      field: 'counts',
    });
  }
  const cells: [boolean, boolean, number][] = [
    [true, true, baselinePass - regressed],
    [true, false, regressed],
    [false, true, rescued],
    [false, false, tasks - baselinePass - rescued],
  ];
  const baseline: boolean[] = [];
  const patched: boolean[] = [];
  for (const [b, p, count] of cells) {
    for (let i = 0; i < count; i++) {
      baseline.push(b);
      patched.push(p);
    }
  }
  return { baseline, patched };
}
