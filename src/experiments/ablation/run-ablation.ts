import { createHash } from 'node:crypto';

import { isInfraOutcome, type EpisodeRecord, type RecordedTurn } from '../../episode/index.js';
import { rerunPatch, type ImproveContext } from '../../evaluation/improve/improve-batch.js';
import { recordedTurnsOf } from '../../evaluation/improve/play-baseline.js';
import type { HarnessPatch } from '../../patch/index.js';
import { canonicalJson } from '../../evaluation/improve/rerun-cache-key.js';
import type { Environment } from '../../runtime/environment.js';
import { ExperimentRunDir } from '../../run-dir/experiment-run-dir.js';
import type { BootstrapOptions } from '../../statistics/index.js';
import { measureExperimentCost } from '../shared/experiment-cost.js';
import { playBaseline, type BaselineIdentity } from '../shared/play-baseline.js';
import { ablationArms } from './ablation-arms.js';
import { summarizeAblation, type AblationArtifact, type ArmRepeat } from './ablation-summary.js';

export const ABLATION_KIND = 'ablation';

/** One repeat's target: its own model (a simulated target with its own seed) and baseline identity. */
export interface AblationRepeat {
  context: ImproveContext;
  baselineIdentity: BaselineIdentity;
  /** Where the no-intervention arm is played. */
  environment: Environment;
}

export interface AblationOptions {
  /** `rootDir` of the first repeat's context is the run directory. */
  repeats: AblationRepeat[];
  taskIndices: number[];
  patch: HarnessPatch;
  /** Where the patch came from (a file, a run's batch), for the summary. */
  patchSource: string;
  settings: Record<string, unknown>;
  bootstrap?: BootstrapOptions;
}

/**
 * The lifecycle ablation: the same patch rerun on the same tasks with every hook (full), with none (no
 * intervention: the target alone), and with each lifecycle position disabled in turn, each arm `R` times
 * (one target per repeat; simulated targets with varied seeds). An arm whose position the patch has no
 * hook at is the full patch itself and reuses its episodes. Every arm and repeat is a run store under
 * `<run>/arms/`, so running it again resumes.
 */
export async function runAblationExperiment(options: AblationOptions): Promise<AblationArtifact> {
  const first = options.repeats[0]!.context;
  const run = new ExperimentRunDir(first.rootDir);
  const patchSha = createHash('sha256').update(canonicalJson(options.patch)).digest('hex');
  run.claim({ schemaVersion: 1, kind: ABLATION_KIND, settings: { bench: first.benchmark.name, split: first.split, tasks: options.taskIndices, repeats: options.repeats.length, patch: patchSha, ...options.settings } });
  run.writePatch(options.patch);
  const hooksInPatch = new Set(options.patch.actions.flatMap((a) => (a.type === 'add_code_hook' ? [a.hook] : [])));
  const arms = ablationArms();
  const played: ArmRepeat[] = [];
  // Tasks with an infrastructure failure left after the retries in any arm or repeat (a task the backend
  // cannot set up) are left out of every arm, so that all arms stay paired on the same tasks; they are named.
  const excluded = new Map<number, string>();

  for (const [r, repeat] of options.repeats.entries()) {
    const ctx = repeat.context;
    const byArm = new Map<string, EpisodeRecord[]>();
    // The no-intervention arm of this repeat is its baseline: the arms played after it replay its turns.
    let baselineTurns: Map<number, RecordedTurn[]> | undefined;
    for (const arm of arms) {
      const name = `r${r + 1}-${arm.id}`;
      let records: EpisodeRecord[];
      let sameAsFull = false;
      if (!arm.patched) {
        records = [...(await playBaseline(ctx, repeat.environment, repeat.baselineIdentity, options.taskIndices, run.armDir(name))).values()];
        if (ctx.replay === 'exact') baselineTurns = recordedTurnsOf(run.armDir(name));
      } else if (arm.disabled.length > 0 && arm.disabled.every((h) => !hooksInPatch.has(h))) {
        records = byArm.get('full')!;
        sameAsFull = true;
      } else {
        const armCtx: ImproveContext = arm.disabled.length === 0 ? ctx : { ...ctx, disabledHooks: arm.disabled, rerunContext: { ...ctx.rerunContext, disabledHooks: arm.disabled } };
        ctx.onProgress?.({ kind: 'stage', batchTag: name, stage: 'rerun', detail: arm.label });
        records = (await rerunPatch(armCtx, name, options.patch, options.taskIndices, run.armDir(name), baselineTurns)).records;
      }
      for (const x of records) if (isInfraOutcome(x.outcome) && !excluded.has(x.task.index)) excluded.set(x.task.index, `${name} ${x.outcome}`);
      byArm.set(arm.id, records);
      const rewards = new Map(records.map((x) => [x.task.index, x.reward]));
      played.push({ arm: arm.id, repeat: r + 1, target: ctx.target.label, rewards, sameAsFull, dir: sameAsFull ? `arms/r${r + 1}-full` : `arms/${name}` });
    }
  }

  const summary = summarizeAblation({
    bench: first.benchmark.name,
    split: first.split,
    threshold: first.threshold,
    metric: first.metric,
    target: { label: first.target.label, simulated: first.target.simulated },
    patchSource: options.patchSource,
    patchHooks: [...hooksInPatch],
    tasks: options.taskIndices.filter((i) => !excluded.has(i)),
    excludedTasks: [...excluded].sort(([a], [b]) => a - b).map(([task, where]) => ({ task, where })),
    arms,
    played,
    ...(options.bootstrap ? { bootstrap: options.bootstrap } : {}),
  });
  summary.cost = measureExperimentCost(run.root);
  run.writeSummaryOf(ABLATION_KIND, summary);
  return summary;
}
