import path from 'node:path';

import { successAt2, type SuccessAt2 } from '../evaluation/success-at-2.js';
import type { StrategyName } from '../runtime/strategies/index.js';
import { RunStore } from '../store/run-store.js';

/** One run store of an experiment (a baseline, an arm, a held-out rerun) and Reflection's success@2 over it. */
export interface StoreSuccessAt2 extends SuccessAt2 {
  /** What the store is (`baseline`, `seed7 held-out`, `r1 full`, `dbbench/t1 baseline`). */
  label: string;
  /** The store's folder, relative to the run directory. */
  dir: string;
}

export interface ExperimentStrategyReport {
  json: { name: StrategyName; reward: 'success@1'; successAt2?: StoreSuccessAt2[] };
  /** The line the summary starts with: which strategy the target played. */
  header: string;
  /** Reflection's success@2 of every store, printed after the summary; empty for the other strategies. */
  lines: string[];
}

/** The summary line that names the strategy a run was played with (improve and every experiment). */
export function strategyHeader(strategy: StrategyName, what: string): string {
  return `strategy: ${strategy} (${what} played with it; the reward compares success@1 of their first episodes)`;
}

/** success@2 of the last record of every task in the run store `dir` (undefined when there is no store). */
export function storeSuccessAt2(dir: string): SuccessAt2 | undefined {
  if (!RunStore.exists(dir)) return undefined;
  const store = RunStore.open(dir);
  try {
    return successAt2(store.records());
  } finally {
    store.close();
  }
}

/**
 * What an experiment says about its strategy: its rewards and deltas are success@1, played with the
 * strategy; for Reflection, success@2 of each of the given stores, reported on its own (never paired or ranked).
 */
export function experimentStrategyReport(strategy: StrategyName, root: string, stores: readonly { label: string; dir: string }[]): ExperimentStrategyReport {
  const header = strategyHeader(strategy, 'the baseline and every rerun');
  if (strategy !== 'reflection') return { json: { name: strategy, reward: 'success@1' }, header, lines: [] };
  const rows: StoreSuccessAt2[] = [];
  for (const s of stores) {
    const at2 = storeSuccessAt2(path.join(root, s.dir));
    if (at2) rows.push({ label: s.label, dir: s.dir, ...at2 });
  }
  const lines = ['reflection: success@2 (its own figure, not comparable with the success@1 deltas above and never paired or ranked with them)'];
  for (const r of rows) lines.push(`  ${r.label}: success@2 ${r.success2}/${r.tasks} (${(r.successAt2 * 100).toFixed(1)}%; ${r.rescued}/${r.retried} rescued by the second episode)`);
  return { json: { name: strategy, reward: 'success@1', successAt2: rows }, header, lines };
}

/** A rendered summary with the strategy's header above it and its success@2 lines below it (unchanged without a strategy). */
export function withStrategy(summary: string, strategy: ExperimentStrategyReport | undefined): string {
  if (!strategy) return `${summary}\n`;
  return `${strategy.header}\n${summary}\n${strategy.lines.map((l) => `${l}\n`).join('')}`;
}
