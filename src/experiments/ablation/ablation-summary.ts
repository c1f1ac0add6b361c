import type { RewardMetric } from '../../episode/index.js';
import { meanSd, summarizePairedPasses, summarizePairedScores, type BootstrapOptions, type PairedSummary, type SeedSpread } from '../../statistics/index.js';
import type { ExperimentCost } from '../shared/experiment-cost.js';
import type { AblationArm } from './ablation-arms.js';

/** One arm played once (one repeat): every task's reward. */
export interface ArmRepeat {
  arm: string;
  repeat: number;
  target: string;
  rewards: ReadonlyMap<number, number>;
  /** The arm disables only positions the patch has no hook at: these are the full patch's episodes. */
  sameAsFull: boolean;
  /** The run store behind it, relative to the run directory. */
  dir: string;
}

export interface AblationSummaryInput {
  bench: string;
  split: string;
  threshold: number;
  metric: RewardMetric;
  target: { label: string; simulated: boolean };
  patchSource: string;
  patchHooks: string[];
  /** The paired tasks (every arm, every repeat). */
  tasks: number[];
  excludedTasks: { task: number; where: string }[];
  arms: AblationArm[];
  played: ArmRepeat[];
  bootstrap?: BootstrapOptions;
}

/** One row of the table. */
export interface AblationRow {
  arm: string;
  label: string;
  disabled: string[];
  sameAsFull: boolean;
  /** Pass rate per repeat (fractions), mean ± sample sd. */
  success: SeedSpread;
  /** Mean reward per repeat (the paper's Score column), when the benchmark's metric is the average reward. */
  score?: SeedSpread;
  /** This arm's success minus the full patch's, per repeat. */
  dropVsFull: SeedSpread;
  /** Paired against the full patch over tasks × repeats (pass/fail: bootstrap interval and exact McNemar). Absent for the full row. */
  paired?: PairedSummary;
  pairedScore?: PairedSummary;
  runs: string[];
}

/** `ablation.json`. */
export interface AblationArtifact {
  schemaVersion: 1;
  kind: 'ablation';
  bench: string;
  split: string;
  target: { label: string; simulated: boolean };
  labels: string[];
  patchSource: string;
  patchHooks: string[];
  tasks: number;
  repeats: number;
  repeatTargets: string[];
  excludedTasks: { task: number; where: string }[];
  rows: AblationRow[];
  /** Model calls and tokens per role, from the run directory's files (set once the run is complete). */
  cost?: ExperimentCost;
}

/** Rows of the ablation table from every arm's rewards. */
export function summarizeAblation(input: AblationSummaryInput): AblationArtifact {
  const repeats = [...new Set(input.played.map((p) => p.repeat))].sort((a, b) => a - b);
  const withScore = input.metric === 'delta_average_reward';
  const of = (arm: string, repeat: number) => input.played.find((p) => p.arm === arm && p.repeat === repeat)!;
  const rewards = (p: ArmRepeat) => input.tasks.map((t) => p.rewards.get(t)!);
  const rate = (values: number[]) => values.filter((v) => v >= input.threshold).length / values.length;
  const avg = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;

  const rows = input.arms.map((arm): AblationRow => {
    const mine = repeats.map((r) => rewards(of(arm.id, r)));
    const full = repeats.map((r) => rewards(of('full', r)));
    const row: AblationRow = {
      arm: arm.id,
      label: arm.label,
      disabled: arm.disabled,
      sameAsFull: repeats.every((r) => of(arm.id, r).sameAsFull),
      success: meanSd(mine.map(rate)),
      ...(withScore ? { score: meanSd(mine.map(avg)) } : {}),
      dropVsFull: meanSd(mine.map((m, i) => rate(m) - rate(full[i]!))),
      runs: repeats.map((r) => of(arm.id, r).dir),
    };
    if (arm.id !== 'full') {
      const a = full.flat();
      const b = mine.flat();
      row.paired = summarizePairedPasses(a.map((v) => v >= input.threshold), b.map((v) => v >= input.threshold), input.bootstrap);
      if (withScore) row.pairedScore = summarizePairedScores(a, b, input.bootstrap);
    }
    return row;
  });

  return {
    schemaVersion: 1,
    kind: 'ablation',
    bench: input.bench,
    split: input.split,
    target: input.target,
    labels: input.target.simulated ? ['simulated target'] : [],
    patchSource: input.patchSource,
    patchHooks: input.patchHooks,
    tasks: input.tasks.length,
    repeats: repeats.length,
    repeatTargets: repeats.map((r) => of('full', r).target),
    excludedTasks: input.excludedTasks,
    rows,
  };
}
