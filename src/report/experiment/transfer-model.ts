import type { EpisodeRecord } from '../../episode/index.js';
import type { TransferArtifact, TransferCell } from '../../experiments/transfer/transfer-summary.js';
import type { BatchResult } from '../../run-dir/batch-artifacts.js';
import { RunArtifactError } from '../../run-dir/read-run.js';
import { strategyOf } from '../strategy-parts.js';
import type { ExperimentReader } from './experiment-page.js';

/** One batch of a cell and its files (relative to the run directory; null when absent). */
export interface TransferBatchFiles {
  tag: string;
  validPatch: boolean;
  patch: string | null;
  verdict: string | null;
  /** The run store of the batch's tasks rerun with its patch. */
  rerunStore: string | null;
  tasks: number[];
}

/** One task of a cell: its baseline and patched episodes and where they are. */
export interface TransferTaskRow {
  task: number;
  baseline: EpisodeRecord | null;
  patched: EpisodeRecord | null;
  patchedStore: string | null;
}

export interface TransferCellFiles {
  cell: TransferCell;
  baselineStore: string | null;
  batches: TransferBatchFiles[];
  tasks: TransferTaskRow[];
}

export interface TransferPageModel {
  name: string;
  artifact: TransferArtifact;
  cells: TransferCellFiles[];
  /** The baseline target strategy every cell was played with (`--strategy`), null for the plain target. */
  strategy: string | null;
}

function checkArtifact(a: unknown): TransferArtifact {
  const t = a as TransferArtifact;
  const ok = typeof a === 'object' && a !== null && t.schemaVersion === 1 && t.kind === 'transfer' && Array.isArray(t.cells) && Array.isArray(t.targets) && Array.isArray(t.benches);
  if (!ok) throw new RunArtifactError({ file: 'transfer.json', problem: 'invalid_shape', message: 'expected a transfer summary (schemaVersion 1, kind transfer, targets, benches, cells)' });
  return t;
}

/** Reads `transfer.json` and, per cell, its baseline store, every batch's patch, verdict and rerun store, and each task's episodes. */
export function loadTransferPage(reader: ExperimentReader): TransferPageModel {
  const raw = reader.json<unknown>('transfer.json');
  if (raw === undefined) throw new RunArtifactError({ file: 'transfer.json', problem: 'missing', message: 'is missing: the transfer experiment has not finished; run the same command again to resume it.' });
  const artifact = checkArtifact(raw);
  const existing = (rel: string) => (reader.has(rel) ? rel : null);
  const cells = artifact.cells.map((cell): TransferCellFiles => {
    const dir = cell.dir.split('\\').join('/');
    const baselineStore = existing(`${dir}/baseline`);
    if (baselineStore === null) reader.warn(`${dir}: the cell's baseline store is missing.`);
    const baseline = baselineStore ? reader.storeRecords(baselineStore) : null;
    const excluded = new Set(artifact.excludedTasks.filter((x) => x.bench === cell.bench).map((x) => x.task));
    const patched = new Map<number, { record: EpisodeRecord; store: string }>();
    const batches = cell.batches.map((b): TransferBatchFiles => {
      const folder = `${dir}/batches/${b.tag}`;
      const result = reader.json<BatchResult>(`${folder}/result.json`);
      const rerunStore = result?.rerun ? existing(`${dir}/reruns/${result.rerun.cacheKey}`) : null;
      if (rerunStore && b.validPatch) for (const [t, r] of reader.storeRecords(rerunStore) ?? []) patched.set(t, { record: r, store: rerunStore });
      return { tag: b.tag, validPatch: b.validPatch, patch: existing(`${folder}/patch.json`), verdict: existing(`${folder}/verdict.json`), rerunStore, tasks: result?.taskIndices ?? [] };
    });
    const tasks = [...(baseline?.keys() ?? [])].filter((t) => !excluded.has(t)).sort((a, b) => a - b).map((task): TransferTaskRow => ({
      task, baseline: baseline?.get(task) ?? null, patched: patched.get(task)?.record ?? null, patchedStore: patched.get(task)?.store ?? null,
    }));
    return { cell, baselineStore, batches, tasks };
  });
  return { name: reader.run.root.split(/[\\/]/).pop() ?? '', artifact, cells, strategy: artifact.targetStrategy ?? strategyOf(reader.identity.settings) };
}
