import type { EvalStatus, RewardMetric } from '../../episode/index.js';
import type { BootstrapOptions, PairedSummary } from '../../statistics/index.js';
import type { ExperimentCost } from '../shared/experiment-cost.js';
import { pairedCounts } from '../shared/paired-counts.js';
import type { SuccessAt2 } from '../../evaluation/success-at-2.js';

/**
 * One row of the table under each target. The default harness has neither an engineer nor a strategy;
 * an engineer row patches the default target's failures; a strategy row (a baseline target strategy:
 * ReAct, Self-Refine, Reflection) sets `strategy` and is played as its own no-patch arm.
 */
export interface MainRowSpec {
  id: string;
  label: string;
  engineer?: string;
  strategy?: string;
}

/** A benchmark of the table: its columns' headings and how a task passes. */
export interface MainBench {
  name: string;
  split: string;
  columns: { success: string; score?: string };
  metric: RewardMetric;
  threshold: number;
}

/** What one target played on one benchmark: the tasks (with their family) and every row's rewards. */
export interface MainBlockInput {
  bench: string;
  target: string;
  /** Tasks scored for this target (no infrastructure failure at baseline), in task order. */
  tasks: { task: number; family: string; baseline: number }[];
  /** Row id → task → reward with that row's intervention (the default row: the baseline itself). */
  rows: { row: string; rewards: ReadonlyMap<number, number>; batches: { tag: string; status: EvalStatus; validPatch: boolean }[]; dir: string; /** Reflection rows: success@2 of the same tasks. */ successAt2?: SuccessAt2; /** What this row itself played and asked (its own folder). */ cost?: ExperimentCost }[];
  excludedTasks: number[];
}

export interface MainSummaryInput {
  benches: MainBench[];
  targets: { spec: string; label: string; simulated: boolean }[];
  rows: MainRowSpec[];
  engineers: { spec: string; label: string; symbolic: boolean }[];
  blocks: MainBlockInput[];
  batchSize: number;
  cost: ExperimentCost;
  bootstrap?: BootstrapOptions;
}

/** One row's figures on one benchmark. Rates are fractions. */
export interface MainBenchCell {
  bench: string;
  tasks: number;
  success: number;
  /** Mean reward (the Score column), where the benchmark's metric is the average reward. */
  score?: number;
  /** Success per task family, families in alphabetical order; empty when the benchmark has none. */
  families: { family: string; tasks: number; success: number }[];
  /** Paired against the default harness on the same tasks (absent on the default row). */
  vsDefault?: { rescued: number; regressed: number; success: PairedSummary; score?: PairedSummary };
  batches: { tag: string; status: EvalStatus; validPatch: boolean }[];
  dir: string;
  excludedTasks: number[];
  /**
   * Reflection rows only: success@2 of the same tasks (first episode, or the second one after a failure,
   * with the reflection in context). Its own column: never ranked against success@1 and never paired.
   */
  successAt2?: SuccessAt2;
  /**
   * What this row itself cost, per role: the default row its baseline, a strategy row its own episodes
   * (reflection calls and second episodes included), an engineer row its engineer answers and reruns.
   */
  cost?: ExperimentCost;
}

export interface MainRow {
  target: string;
  row: string;
  label: string;
  engineer?: string;
  strategy?: string;
  cells: MainBenchCell[];
  /** Equal-weight mean of the benchmarks' success columns. */
  avg: number;
  /** `avg` minus the default row's (absent on the default row). */
  avgDelta?: number;
  /** Reflection rows only: the equal-weight mean of the benchmarks' success@2 (its own column, never compared with `avg`). */
  avgAt2?: number;
}

/** `main.json`. */
export interface MainArtifact {
  schemaVersion: 1;
  kind: 'main';
  labels: string[];
  benches: MainBench[];
  targets: { spec: string; label: string; simulated: boolean }[];
  engineers: { spec: string; label: string; symbolic: boolean }[];
  batchSize: number;
  /** Target-major: every target's rows in the order of the row list. */
  rows: MainRow[];
  cost: ExperimentCost;
}

/** The paper's Table 1 from every target's per-task rewards: one row per target × row spec. */
export function summarizeMain(input: MainSummaryInput): MainArtifact {
  const rows = input.targets.flatMap((t) => input.rows.map((spec): MainRow => {
    const cells = input.benches.map((b): MainBenchCell => {
      const block = input.blocks.find((x) => x.bench === b.name && x.target === t.spec)!;
      const mine = block.rows.find((r) => r.row === spec.id)!;
      const pass = (r: number) => r >= b.threshold;
      const rewards = block.tasks.map((x) => mine.rewards.get(x.task)!);
      const withScore = b.metric === 'delta_average_reward';
      const families = [...new Set(block.tasks.map((x) => x.family))].filter((f) => f !== '').sort();
      const cell: MainBenchCell = {
        bench: b.name,
        tasks: rewards.length,
        success: rewards.filter(pass).length / rewards.length,
        ...(withScore ? { score: rewards.reduce((a, v) => a + v, 0) / rewards.length } : {}),
        families: families.map((family) => {
          const of = block.tasks.filter((x) => x.family === family).map((x) => mine.rewards.get(x.task)!);
          return { family, tasks: of.length, success: of.filter(pass).length / of.length };
        }),
        batches: mine.batches,
        dir: mine.dir,
        excludedTasks: block.excludedTasks,
        ...(mine.successAt2 ? { successAt2: mine.successAt2 } : {}),
        ...(mine.cost ? { cost: mine.cost } : {}),
      };
      if (spec.id !== input.rows[0]!.id) {
        const c = pairedCounts(block.tasks.map((x) => ({ task: x.task, baseline: x.baseline, patched: mine.rewards.get(x.task)! })), b.threshold, withScore, input.bootstrap);
        cell.vsDefault = { rescued: c.rescued, regressed: c.regressed, success: c.paired, ...(c.score ? { score: c.score } : {}) };
      }
      return cell;
    });
    return {
      target: t.spec, row: spec.id, label: spec.label,
      ...(spec.engineer !== undefined ? { engineer: spec.engineer } : {}),
      ...(spec.strategy !== undefined ? { strategy: spec.strategy } : {}),
      cells, avg: cells.reduce((a, c) => a + c.success, 0) / cells.length,
      ...(cells.every((c) => c.successAt2) ? { avgAt2: cells.reduce((a, c) => a + c.successAt2!.successAt2, 0) / cells.length } : {}),
    };
  }));
  for (const row of rows) {
    const base = rows.find((r) => r.target === row.target && r.row === input.rows[0]!.id)!;
    if (row !== base) row.avgDelta = row.avg - base.avg;
  }
  const labels = [...(input.targets.some((t) => t.simulated) ? ['simulated target'] : []), ...(input.engineers.some((e) => e.symbolic) ? ['symbolic engineer'] : [])];
  return { schemaVersion: 1, kind: 'main', labels, benches: input.benches, targets: input.targets, engineers: input.engineers, batchSize: input.batchSize, rows, cost: input.cost };
}
