import type { EvalStatus, RewardMetric } from '../../episode/index.js';
import type { BootstrapOptions, SeedSpread } from '../../statistics/index.js';
import type { ExperimentCost } from '../shared/experiment-cost.js';
import { pairedCounts, type PairedCounts, type PairedReward } from '../shared/paired-counts.js';
import type { HeldoutResultsInput } from './build-results.js';
import { fullSplitFigures, type EvidenceCell } from './full-split.js';
import { formatHeldoutHeadline, poolHeldoutCells, type HeldoutCell } from './pooled-arithmetic.js';
import type { HeldoutCellRecord } from './results-schema.js';

export type { PairedCounts, PairedReward };

/** What one seed of a held-out run produced. */
export interface HeldoutSeedRun {
  seed: number;
  tag: string;
  status: EvalStatus;
  evidenceIds: number[];
  /** The results file's cell, less its counts. */
  cell: Omit<HeldoutCellRecord, 'held_out'>;
  heldOut: PairedReward[];
  evidence: PairedReward[];
  notes: string[];
}

export interface HeldoutSummaryInput {
  bench: string;
  split: string;
  threshold: number;
  metric: RewardMetric;
  target: { label: string; simulated: boolean };
  engineer: { label: string; symbolic: boolean };
  editor: { id: string; displayName: string };
  evidence: number;
  seeds: HeldoutSeedRun[];
  /** Tasks left out of every arm: their baseline episode failed for infrastructure reasons after the retries. */
  excludedTasks: { task: number; outcome: string; detail: string }[];
  bootstrap?: BootstrapOptions;
}

/** `heldout.json`: the experiment's own summary, every delta with its paired statistics. */
export interface HeldoutArtifact {
  schemaVersion: 1;
  kind: 'heldout';
  bench: string;
  split: string;
  target: { label: string; simulated: boolean };
  engineer: { label: string; symbolic: boolean };
  /** What kind of numbers these are: `simulated target`, `symbolic engineer`, both, or none. */
  labels: string[];
  editor: { id: string; displayName: string };
  evidencePerSeed: number;
  excludedTasks: { task: number; outcome: string; detail: string }[];
  seeds: {
    seed: number;
    status: EvalStatus;
    valid: boolean;
    hooks: string[];
    validationError: string | null;
    patchFile: string | null;
    evidenceTaskIds: number[];
    heldOut: PairedCounts;
    /** Held-out plus evidence tasks. */
    fullSplit: PairedCounts;
    notes: string[];
  }[];
  pooled: { headline: string; valid: string; deltaPass: SeedSpread; deltaRate: SeedSpread };
  fullSplit: { deltaPass: SeedSpread; deltaRate: SeedSpread };
  files: { results: string; baseline: string; batches: string; arms: string };
  /** Model calls and tokens per role, from the run directory's files (set once the run is complete). */
  cost?: ExperimentCost;
}

export interface HeldoutExperimentSummary {
  resultsInput: HeldoutResultsInput;
  artifact: HeldoutArtifact;
}

const PROTOCOL = (k: number) => `random${k}_failure_evidence_one_patch_full_split`;

/** Everything the run reports, from the per-task rewards of every seed. */
export function summarizeHeldoutExperiment(input: HeldoutSummaryInput): HeldoutExperimentSummary {
  const { bench, threshold } = input;
  const pass = (r: number) => r >= threshold;
  const withScore = input.metric === 'delta_average_reward';
  const counts = (pairs: readonly PairedReward[]): PairedCounts => pairedCounts(pairs, threshold, withScore, input.bootstrap);

  const perSeed = input.seeds.map((s) => ({ run: s, heldOut: counts(s.heldOut), fullSplit: counts([...s.heldOut, ...s.evidence].sort((x, y) => x.task - y.task)) }));
  const cells: HeldoutCell[] = perSeed.map(({ run, heldOut }) => ({
    seed: run.seed, bench, tasks: heldOut.tasks, baselinePass: heldOut.baselinePass, patchedPass: heldOut.patchedPass, rescued: heldOut.rescued, regressed: heldOut.regressed, valid: run.cell.valid,
  }));
  const pool = poolHeldoutCells(cells);
  const evidenceCells: EvidenceCell[] = perSeed.map(({ run }) => ({
    seed: run.seed, bench, tasks: run.evidence.length, baselinePass: run.evidence.filter((e) => pass(e.baseline)).length, patchedPass: run.evidence.filter((e) => pass(e.patched)).length,
  }));
  const full = fullSplitFigures(pool, evidenceCells);

  const labels = [...(input.target.simulated ? ['simulated target'] : []), ...(input.engineer.symbolic ? ['symbolic engineer'] : [])];
  const resultsInput: HeldoutResultsInput = {
    protocol: PROTOCOL(input.evidence),
    description: `Each seed samples ${input.evidence} baseline failures of the split as evidence; the engineer writes one patch from them, which is applied to every task of the split. The held-out figure excludes the evidence tasks.${labels.length ? ` Results of a ${labels.join(' and a ')}.` : ''}`,
    target_agent: input.target.simulated ? `${input.target.label} (SIMULATED)` : input.target.label,
    evidence_per_benchmark: input.evidence,
    seeds: input.seeds.map((s) => s.seed),
    invalid_patch_policy: 'A patch the validator rejects (or none at all) is no intervention: the held-out tasks keep their baseline outcomes and the delta is 0; the reason is recorded under validation_error.',
    evidence_task_ids: Object.fromEntries(input.seeds.map((s) => [String(s.seed), { [bench]: s.evidenceIds }])),
    editors: {
      [input.editor.id]: {
        display_name: input.editor.displayName,
        per_seed: Object.fromEntries(perSeed.map(({ run, heldOut }) => [String(run.seed), {
          [bench]: {
            ...run.cell,
            held_out: {
              tasks: heldOut.tasks,
              baseline_pass: heldOut.baselinePass,
              patched_pass: run.cell.valid ? heldOut.patchedPass : heldOut.baselinePass,
              delta_pass: run.cell.valid ? heldOut.deltaPass : 0,
              rescued_failures: run.cell.valid ? heldOut.rescued : 0,
              regressed_successes: run.cell.valid ? heldOut.regressed : 0,
            },
          },
        }])),
      },
    },
  };

  const artifact: HeldoutArtifact = {
    schemaVersion: 1,
    kind: 'heldout',
    bench,
    split: input.split,
    target: input.target,
    engineer: input.engineer,
    labels,
    editor: input.editor,
    evidencePerSeed: input.evidence,
    excludedTasks: input.excludedTasks,
    seeds: perSeed.map(({ run, heldOut, fullSplit }) => ({
      seed: run.seed, status: run.status, valid: run.cell.valid, hooks: run.cell.hooks, validationError: run.cell.validation_error, patchFile: run.cell.patch_file,
      evidenceTaskIds: run.evidenceIds, heldOut, fullSplit, notes: run.notes,
    })),
    pooled: { headline: formatHeldoutHeadline(input.editor.displayName, pool), valid: `${pool.valid.valid}/${pool.valid.total}`, deltaPass: pool.deltaPass, deltaRate: pool.deltaRate },
    fullSplit: { deltaPass: full.deltaPass, deltaRate: full.deltaRate },
    files: { results: 'results.json', baseline: 'baseline/', batches: 'batches/', arms: 'arms/' },
  };
  return { resultsInput, artifact };
}
