import path from 'node:path';

import { isInfraOutcome } from '../../episode/index.js';
import { ExperimentRunDir } from '../../run-dir/experiment-run-dir.js';
import type { BootstrapOptions } from '../../statistics/index.js';
import { measureExperimentCost } from '../shared/experiment-cost.js';
import { cellContext, playCellBaseline, targetFolder, type OpenedBench } from '../shared/open-cells.js';
import { patchBatches } from '../shared/patch-batches.js';
import { cellSuccessAt2 } from './transfer-at2.js';
import { summarizeTransfer, type TransferArtifact, type TransferBench, type TransferCellInput, type TransferTarget } from './transfer-summary.js';

export const TRANSFER_KIND = 'transfer';

export interface TransferOptions {
  rootDir: string;
  benches: string[];
  /** Target SPECs as given (the matrix's rows). */
  targets: string[];
  batchSize: number;
  /** Everything that changes the numbers (tasks, options, engineer): kept in `experiment.json`. */
  settings: Record<string, unknown>;
  /** Opens one benchmark with every target (in the order of `targets`), each context asking the experiment's engineer; closed after its column. */
  openBench(bench: string): Promise<OpenedBench>;
  bootstrap?: BootstrapOptions;
  /** The baseline target strategy every cell is played with; `reflection` adds each cell's success@2 (never in the deltas). */
  strategy?: string;
}

/**
 * Cross-target transfer: on every benchmark, every target gets its own no-harness baseline of the same
 * tasks and its own patches (the improve loop's batches, one engineer answer per batch, from that target's
 * failures), rerun with that target. Each cell is an improve-style folder `cells/<bench>/t<i>/`, so running
 * it again resumes. Tasks some target could not be evaluated on (an infrastructure failure at baseline
 * after the retries) are left out of the column for every target, so the cells stay matched.
 */
export async function runTransferExperiment(options: TransferOptions): Promise<TransferArtifact> {
  const run = new ExperimentRunDir(options.rootDir);
  run.claim({ schemaVersion: 1, kind: TRANSFER_KIND, settings: { benches: options.benches, targets: options.targets, batchSize: options.batchSize, ...options.settings } });
  const benches: TransferBench[] = [];
  const targets: TransferTarget[] = [];
  const cells: TransferCellInput[] = [];
  const excludedTasks: { bench: string; task: number; where: string }[] = [];
  let engineer = { label: '', symbolic: false };

  for (const name of options.benches) {
    const bench = await options.openBench(name);
    try {
      const first = bench.targets[0]!.context;
      engineer = { label: first.engineer.label, symbolic: first.engineer.kind === 'symbolic' };
      benches.push({ name: bench.name, split: bench.split, column: bench.columns.success, metric: first.metric, threshold: first.threshold });
      const played = [];
      for (const [i, target] of bench.targets.entries()) {
        if (targets.length < bench.targets.length) targets.push({ spec: target.spec, label: target.context.target.label, simulated: target.context.target.simulated });
        const dir = run.cellDir(bench.name, targetFolder(i));
        const ctx = cellContext(target.context, dir, `${bench.name}/${targetFolder(i)}`);
        const baseline = await playCellBaseline(ctx, bench, target, dir);
        const patched = await patchBatches(ctx, bench.taskIndices, options.batchSize, baseline);
        played.push({ target, dir, baseline, patched });
      }
      const left = new Map<number, string>();
      for (const [i, p] of played.entries()) {
        for (const task of bench.taskIndices) {
          const record = p.baseline.get(task);
          if ((!record || isInfraOutcome(record.outcome)) && !left.has(task)) left.set(task, `${targetFolder(i)} baseline ${record?.outcome ?? 'missing'}`);
        }
      }
      for (const [task, where] of [...left].sort(([a], [b]) => a - b)) excludedTasks.push({ bench: bench.name, task, where });
      const matched = bench.taskIndices.filter((t) => !left.has(t));
      for (const p of played) {
        cells.push({
          bench: bench.name,
          target: p.target.spec,
          pairs: matched.map((task) => ({ task, baseline: p.baseline.get(task)!.reward, patched: p.patched.patched.get(task)! })),
          batches: p.patched.batches.map((b) => ({ tag: b.batchTag, status: b.status, validPatch: b.validPatch })),
          dir: path.relative(run.root, p.dir),
          ...(options.strategy === 'reflection' ? { successAt2: cellSuccessAt2(p.dir, matched, p.baseline, p.patched.batches) } : {}),
        });
      }
    } finally {
      await bench.close();
    }
  }

  const summary = summarizeTransfer({
    benches, targets, engineer, batchSize: options.batchSize, ...(options.strategy ? { strategy: options.strategy } : {}), cells, excludedTasks, cost: measureExperimentCost(run.root), ...(options.bootstrap ? { bootstrap: options.bootstrap } : {}),
  });
  run.writeSummaryOf(TRANSFER_KIND, summary);
  return summary;
}
