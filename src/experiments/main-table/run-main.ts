import path from 'node:path';

import { isInfraOutcome } from '../../episode/index.js';
import type { ImproveContext } from '../../evaluation/improve/improve-batch.js';
import { successAt2, type SuccessAt2 } from '../../evaluation/success-at-2.js';
import type { StrategyName } from '../../runtime/strategies/index.js';
import { IncompleteExperimentError } from '../shared/incomplete.js';
import { playBaseline } from '../shared/play-baseline.js';
import type { Engineer } from '../../engineer/engineer.js';
import { ExperimentRunDir } from '../../run-dir/experiment-run-dir.js';
import { ImproveRunDir } from '../../run-dir/improve-run-dir.js';
import type { BootstrapOptions } from '../../statistics/index.js';
import { measureExperimentCost } from '../shared/experiment-cost.js';
import { cellContext, playCellBaseline, targetFolder, type OpenedBench, type OpenedTarget } from '../shared/open-cells.js';
import { patchBatches } from '../shared/patch-batches.js';
import { summarizeMain, type MainArtifact, type MainBench, type MainBlockInput, type MainRowSpec } from './main-summary.js';

export const MAIN_KIND = 'main';

/** A benchmark opened with every target and every engineer of the table. */
export interface MainOpenedBench extends OpenedBench {
  /** In the order of the engineer SPECs. */
  engineers: Engineer[];
}

export interface MainOptions {
  rootDir: string;
  benches: string[];
  targets: string[];
  /** Engineer SPECs: one row each under every target. */
  engineers: string[];
  /** Baseline target strategies: one no-patch row each under every target (none when absent). */
  strategies?: StrategyName[];
  batchSize: number;
  settings: Record<string, unknown>;
  openBench(bench: string): Promise<MainOpenedBench>;
  bootstrap?: BootstrapOptions;
}

/** How a strategy row is named in the table. */
export const STRATEGY_ROW_LABELS: Record<StrategyName, string> = {
  react: 'ReAct (strategy, no patch)',
  self_refine: 'Self-Refine (strategy, no patch)',
  reflection: 'Reflection (strategy, no patch; success@1)',
  trajectory_reflection: 'Trajectory reflection (strategy, no patch)',
};

/**
 * The rows under each target: the default harness (no patch), one per baseline strategy (each its own
 * no-patch arm of the target, folder named after the strategy), then one per engineer.
 */
export function mainRows(engineers: readonly string[], strategies: readonly StrategyName[] = []): MainRowSpec[] {
  return [
    { id: 'default', label: 'Default harness (no patch)' },
    ...strategies.map((strategy): MainRowSpec => ({ id: strategy, label: STRATEGY_ROW_LABELS[strategy], strategy })),
    ...engineers.map((engineer, i): MainRowSpec => ({ id: `e${i + 1}`, label: `+ ${engineer}`, engineer })),
  ];
}

/**
 * The paper's main table: on every benchmark, every target's no-harness baseline (the default-harness
 * row) and, per engineer, that engineer's patches of the target's own failures (the improve loop's
 * batches, rerun with the target). Layout: `cells/<bench>/t<i>/baseline/` shared by the rows of a target,
 * `cells/<bench>/t<i>/e<j>/` (batches, reruns) per engineer, so running it again resumes.
 */
export async function runMainExperiment(options: MainOptions): Promise<MainArtifact> {
  const run = new ExperimentRunDir(options.rootDir);
  const strategies = options.strategies ?? [];
  // Strategies join the identity only when given, so a table made without them resumes unchanged.
  run.claim({ schemaVersion: 1, kind: MAIN_KIND, settings: { benches: options.benches, targets: options.targets, engineers: options.engineers, batchSize: options.batchSize, ...(strategies.length > 0 ? { strategies } : {}), ...options.settings } });
  const rows = mainRows(options.engineers, strategies);
  const benches: MainBench[] = [];
  const targets: { spec: string; label: string; simulated: boolean }[] = [];
  let engineers: { spec: string; label: string; symbolic: boolean }[] = [];
  const blocks: MainBlockInput[] = [];

  for (const name of options.benches) {
    const bench = await options.openBench(name);
    try {
      const first = bench.targets[0]!.context;
      benches.push({ name: bench.name, split: bench.split, columns: bench.columns, metric: first.metric, threshold: first.threshold });
      engineers = bench.engineers.map((e, i) => ({ spec: options.engineers[i]!, label: e.label, symbolic: e.kind === 'symbolic' }));
      for (const [i, target] of bench.targets.entries()) {
        if (targets.length < bench.targets.length) targets.push({ spec: target.spec, label: target.context.target.label, simulated: target.context.target.simulated });
        const dir = run.cellDir(bench.name, targetFolder(i));
        const baseline = await playCellBaseline(cellContext(target.context, dir, `${bench.name}/${targetFolder(i)}`), bench, target, dir);
        const scored = bench.taskIndices.map((t) => baseline.get(t)!).filter((r) => !isInfraOutcome(r.outcome));
        const block: MainBlockInput = {
          bench: bench.name,
          target: target.spec,
          tasks: scored.map((r) => ({ task: r.task.index, family: typeof r.detail.family === 'string' ? r.detail.family : '', baseline: r.reward })),
          rows: [{ row: rows[0]!.id, rewards: new Map(scored.map((r) => [r.task.index, r.reward])), batches: [], dir: path.relative(run.root, dir), cost: measureExperimentCost(new ImproveRunDir(dir).baselineDir) }],
          excludedTasks: bench.taskIndices.filter((t) => !scored.some((r) => r.task.index === t)),
        };
        for (const strategy of strategies) {
          const row = rows.find((r) => r.strategy === strategy)!;
          const strategyDir = path.join(dir, row.id);
          const played = await playStrategyRow(cellContext(target.context, strategyDir, `${bench.name}/${targetFolder(i)}/${row.id}`), bench, target, strategy, strategyDir, block.tasks.map((x) => x.task));
          block.rows.push({ row: row.id, ...played, batches: [], dir: path.relative(run.root, strategyDir), cost: measureExperimentCost(strategyDir) });
        }
        for (const [j, engineer] of bench.engineers.entries()) {
          const row = rows.find((r) => r.engineer === options.engineers[j])!;
          const engineerDir = path.join(dir, row.id);
          const ctx = cellContext({ ...target.context, engineer }, engineerDir, `${bench.name}/${targetFolder(i)}/${row.id}`);
          const patched = await patchBatches(ctx, bench.taskIndices, options.batchSize, baseline);
          block.rows.push({ row: row.id, rewards: patched.patched, batches: patched.batches.map((b) => ({ tag: b.batchTag, status: b.status, validPatch: b.validPatch })), dir: path.relative(run.root, engineerDir), cost: measureExperimentCost(engineerDir) });
        }
        blocks.push(block);
      }
    } finally {
      await bench.close();
    }
  }

  const summary = summarizeMain({ benches, targets, rows, engineers, blocks, batchSize: options.batchSize, cost: measureExperimentCost(run.root), ...(options.bootstrap ? { bootstrap: options.bootstrap } : {}) });
  run.writeSummaryOf(MAIN_KIND, summary);
  return summary;
}

/**
 * A strategy row of one target: the target plays every task of the benchmark with the strategy and no
 * patch into the run store `dir` (played once, resumed, refused for another strategy or target). Its
 * rewards are the first episodes' (success@1, like every other row); Reflection's success@2 of the same
 * tasks comes beside them, never in their place. A task the default row scores but this row could not
 * (an infrastructure failure after the retries) leaves the experiment incomplete: run it again.
 */
async function playStrategyRow(ctx: ImproveContext, bench: OpenedBench, target: OpenedTarget, strategy: StrategyName, dir: string, scoredTasks: readonly number[]): Promise<{ rewards: Map<number, number>; successAt2?: SuccessAt2 }> {
  const identity = { ...target.identity, options: { ...target.identity.options, strategy } };
  const records = await playBaseline({ ...ctx, strategy }, bench.environment, identity, bench.taskIndices, dir);
  const mine = scoredTasks.map((t) => records.get(t)!);
  const infra = mine.filter((r) => isInfraOutcome(r.outcome));
  if (infra.length > 0) {
    throw new IncompleteExperimentError({ message: `${dir}: ${strategy} episodes still failed for infrastructure reasons (${infra.map((r) => `#${r.task.index} ${r.outcome}`).join(', ')}); run the same command again.` });
  }
  return { rewards: new Map(mine.map((r) => [r.task.index, r.reward])), ...(strategy === 'reflection' ? { successAt2: successAt2(mine) } : {}) };
}

