import type { EpisodeRecord } from '../../episode/index.js';
import type { SuccessAt2 } from '../../evaluation/success-at-2.js';
import type { HeldoutArtifact } from '../../experiments/heldout/heldout-summary.js';
import type { BatchResult } from '../../run-dir/batch-artifacts.js';
import { RunArtifactError } from '../../run-dir/read-run.js';
import { recordsAt2, strategyOf } from '../strategy-parts.js';
import type { ExperimentReader } from './experiment-page.js';

/** One task of a seed: where its baseline and patched episodes are. */
export interface HeldoutTaskRow {
  task: number;
  role: 'held-out' | 'evidence';
  baseline: EpisodeRecord | null;
  /** Null when the patch was rejected (no intervention: the baseline episode stands). */
  patched: EpisodeRecord | null;
  /** The run store of the patched episode. */
  patchedStore: string | null;
}

/** One seed's numbers and the files behind them (paths relative to the run directory; null when absent). */
export interface HeldoutSeedFiles {
  seed: number;
  batch: string;
  patch: string | null;
  verdict: string | null;
  packet: string | null;
  /** The run store of the evidence tasks rerun with the patch. */
  evidenceStore: string | null;
  /** The run store of the held-out tasks rerun with the patch. */
  heldOutStore: string | null;
  tasks: HeldoutTaskRow[];
  /** Reflection only: success@2 of the held-out rerun store (null without one). */
  heldOutAt2: SuccessAt2 | null;
}

export interface HeldoutPageModel {
  name: string;
  artifact: HeldoutArtifact;
  baselineStore: string;
  seeds: HeldoutSeedFiles[];
  /** The baseline target strategy of the run (`--strategy`), null for the plain target. */
  strategy: string | null;
  /** Reflection only: success@2 of the baseline store (its own figure, never ranked against success@1). */
  baselineAt2: SuccessAt2 | null;
  files: { results: string | null; summary: string; identity: string };
}

function checkArtifact(a: unknown): HeldoutArtifact {
  const ok = typeof a === 'object' && a !== null && (a as HeldoutArtifact).schemaVersion === 1 && (a as HeldoutArtifact).kind === 'heldout' && Array.isArray((a as HeldoutArtifact).seeds);
  if (!ok) throw new RunArtifactError({ file: 'heldout.json', problem: 'invalid_shape', message: 'expected a held-out summary (schemaVersion 1, kind heldout, seeds)' });
  return a as HeldoutArtifact;
}

/** Reads `heldout.json` and finds, per seed, its patch, verdict, packet and the stores of its reruns. */
export function loadHeldoutPage(reader: ExperimentReader): HeldoutPageModel {
  const raw = reader.json<unknown>('heldout.json');
  if (raw === undefined) throw new RunArtifactError({ file: 'heldout.json', problem: 'missing', message: 'is missing: the held-out experiment has not finished; run the same command again to resume it.' });
  const artifact = checkArtifact(raw);
  const existing = (rel: string) => (reader.has(rel) ? rel : null);
  const baselineStore = 'baseline';
  const baseline = reader.storeRecords(baselineStore) ?? new Map<number, EpisodeRecord>();
  const strategy = strategyOf(reader.identity.settings);
  const reflection = strategy === 'reflection';
  const seeds = artifact.seeds.map((s): HeldoutSeedFiles => {
    const batch = `batches/seed${s.seed}`;
    const result = reader.json<BatchResult>(`${batch}/result.json`);
    const evidenceStore = result?.rerun ? existing(`reruns/${result.rerun.cacheKey}`) : null;
    const heldOutStore = s.valid ? existing(`arms/seed${s.seed}-heldout`) : null;
    if (s.valid && heldOutStore === null) reader.warn(`seed ${s.seed}: the held-out rerun arms/seed${s.seed}-heldout is missing.`);
    const evidence = evidenceStore && s.valid ? reader.storeRecords(evidenceStore) : null;
    const heldOut = heldOutStore ? reader.storeRecords(heldOutStore) : null;
    const heldOutTasks = [...baseline.keys()].filter((t) => !s.evidenceTaskIds.includes(t) && !artifact.excludedTasks.some((x) => x.task === t)).sort((a, b) => a - b);
    const row = (task: number, role: HeldoutTaskRow['role'], store: string | null, records: Map<number, EpisodeRecord> | null): HeldoutTaskRow => ({
      task, role, baseline: baseline.get(task) ?? null, patched: records?.get(task) ?? null, patchedStore: records?.has(task) ? store : null,
    });
    return {
      seed: s.seed,
      batch,
      patch: s.patchFile ? existing(s.patchFile) : null,
      verdict: existing(`${batch}/verdict.json`),
      packet: existing(`${batch}/packet.json`),
      evidenceStore,
      heldOutStore,
      tasks: [
        ...s.evidenceTaskIds.map((t) => row(t, 'evidence', evidenceStore, evidence)),
        ...heldOutTasks.map((t) => row(t, 'held-out', heldOutStore, heldOut)),
      ],
      heldOutAt2: reflection ? recordsAt2(heldOut?.values()) : null,
    };
  });
  return {
    name: reader.run.root.split(/[\\/]/).pop() ?? '',
    artifact,
    baselineStore,
    seeds,
    strategy,
    baselineAt2: reflection && reader.has(baselineStore) ? recordsAt2(baseline.values()) : null,
    files: { results: existing('results.json'), summary: 'heldout.json', identity: 'experiment.json' },
  };
}
