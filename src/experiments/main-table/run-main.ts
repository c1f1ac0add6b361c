import path from 'node:path';

import { ConfigError, isInfraOutcome } from '../../episode/index.js';
import type { Engineer } from '../../engineer/engineer.js';
import { ExperimentRunDir } from '../../run-dir/experiment-run-dir.js';
import type { BootstrapOptions } from '../../statistics/index.js';
import { measureExperimentCost } from '../shared/experiment-cost.js';
import { cellContext, playCellBaseline, targetFolder, type OpenedBench } from '../shared/open-cells.js';
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
  batchSize: number;
  settings: Record<string, unknown>;
  openBench(bench: string): Promise<MainOpenedBench>;
  bootstrap?: BootstrapOptions;
}

/**
 * The rows under each target: the default harness (no patch), then one per engineer. Baseline strategies
 * (ReAct, Self-Refine, Reflection) join here as `{ strategy }` rows once targets can play them; each
 * would be its own no-patch arm of the target.
 */
export function mainRows(engineers: readonly string[]): MainRowSpec[] {
  return [
    { id: 'default', label: 'Default harness (no patch)' },
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
  run.claim({ schemaVersion: 1, kind: MAIN_KIND, settings: { benches: options.benches, targets: options.targets, engineers: options.engineers, batchSize: options.batchSize, ...options.settings } });
  const rows = mainRows(options.engineers);
  if (rows.some((r) => r.strategy !== undefined)) throw new ConfigError({ message: 'Baseline strategy rows are not played yet.', field: 'strategy' });
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
          rows: [{ row: rows[0]!.id, rewards: new Map(scored.map((r) => [r.task.index, r.reward])), batches: [], dir: path.relative(run.root, dir) }],
          excludedTasks: bench.taskIndices.filter((t) => !scored.some((r) => r.task.index === t)),
        };
        for (const [j, engineer] of bench.engineers.entries()) {
          const row = rows[j + 1]!;
          const engineerDir = path.join(dir, row.id);
          const ctx = cellContext({ ...target.context, engineer }, engineerDir, `${bench.name}/${targetFolder(i)}/${row.id}`);
          const patched = await patchBatches(ctx, bench.taskIndices, options.batchSize, baseline);
          block.rows.push({ row: row.id, rewards: patched.patched, batches: patched.batches.map((b) => ({ tag: b.batchTag, status: b.status, validPatch: b.validPatch })), dir: path.relative(run.root, engineerDir) });
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
