import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';

import { ConfigError, isInfraOutcome, type EpisodeRecord } from '../../episode/index.js';
import { improveBatch, rerunPatch, type ImproveContext } from '../../evaluation/improve/improve-batch.js';
import { recordedTurnsOf } from '../../evaluation/improve/play-baseline.js';
import type { Environment } from '../../runtime/environment.js';
import { ExperimentRunDir } from '../../run-dir/experiment-run-dir.js';
import { seededSample, type BootstrapOptions } from '../../statistics/index.js';
import { measureExperimentCost } from '../shared/experiment-cost.js';
import { IncompleteExperimentError } from '../shared/incomplete.js';
import { playBaseline, type BaselineIdentity } from '../shared/play-baseline.js';
import { buildHeldoutResults } from './build-results.js';
import { summarizeHeldoutExperiment, type HeldoutExperimentSummary, type HeldoutSeedRun } from './heldout-summary.js';
import { writeHeldoutResults } from './results-file.js';
import type { HeldoutCellRecord } from './results-schema.js';

export const HELDOUT_KIND = 'heldout';

export interface HeldoutExperimentOptions {
  /** The improve context of the patches: engineer, target, validator, sandbox; `rootDir` is the experiment's run directory. */
  context: ImproveContext;
  baselineEnvironment: Environment;
  baselineIdentity: BaselineIdentity;
  /** The split's tasks (the whole split unless the caller narrows it). */
  taskIndices: number[];
  seeds: number[];
  /** Evidence failures sampled per seed. */
  evidence: number;
  /** The editor as the results file names it (`harness-r1`, `symbolic`) and its display name. */
  editor: { id: string; displayName: string };
  /** Settings that change the numbers besides the above (target spec, options): kept in experiment.json. */
  settings: Record<string, unknown>;
  bootstrap?: BootstrapOptions;
}

/**
 * The held-out generalization protocol (`random<k>_failure_evidence_one_patch_full_split`): one baseline
 * of the split; per seed, `evidence` failures sampled from it (`random.Random(seed).sample` of the failing
 * task indices, ascending), one failure packet, one patch, validated; a valid patch rerun on every other
 * task (held-out) and on the evidence tasks (the full-split figure); a rejected one is no intervention.
 * Every stage is a file under the run directory, so running it again resumes where it stopped.
 */
export async function runHeldoutExperiment(options: HeldoutExperimentOptions): Promise<HeldoutExperimentSummary> {
  const { context: ctx, seeds, evidence } = options;
  if (new Set(seeds).size !== seeds.length || seeds.length === 0) throw new ConfigError({ message: `--seeds must name distinct seeds; got ${seeds.join(',')}.`, field: 'seeds' });
  const run = new ExperimentRunDir(ctx.rootDir);
  run.claim({ schemaVersion: 1, kind: HELDOUT_KIND, settings: { bench: ctx.benchmark.name, split: ctx.split, tasks: options.taskIndices, seeds, evidence, editor: options.editor.id, engineer: ctx.engineer.label, ...options.settings } });

  const baseline = await playBaseline(ctx, options.baselineEnvironment, options.baselineIdentity, options.taskIndices, run.baselineDir);
  const baselineTurns = ctx.replay === 'exact' ? recordedTurnsOf(run.baselineDir) : undefined;
  // A task whose baseline episode failed for infrastructure reasons after the retries (a task the backend
  // cannot set up) is left out of every arm and named in the summary, as improve leaves it out of a batch.
  const all = options.taskIndices.map((i) => baseline.get(i)!);
  const excluded = all.filter((r) => isInfraOutcome(r.outcome));
  const records = all.filter((r) => !isInfraOutcome(r.outcome));
  const tasks = records.map((r) => r.task.index);
  const passes = (r: EpisodeRecord) => r.reward >= ctx.threshold;
  const failures = records.filter((r) => !passes(r)).map((r) => r.task.index);
  if (failures.length < evidence) {
    throw new ConfigError({ message: `The baseline fails ${failures.length} of ${records.length} tasks, fewer than --evidence ${evidence}; lower --evidence or widen --tasks.`, field: 'evidence' });
  }

  const seedRuns: HeldoutSeedRun[] = [];
  for (const seed of seeds) {
    const tag = `seed${seed}`;
    const evidenceIds = seededSample(failures, evidence, seed).sort((a, b) => a - b);
    const result = await improveBatch(ctx, { tag, taskIndices: evidenceIds }, baseline, baselineTurns);
    if (result.status === 'missing_evaluation') throw new IncompleteExperimentError({ message: `${tag}: evidence reruns still failed for infrastructure reasons (${result.notes.join('; ')}); run the same command again.` });
    const dir = run.batch(tag);
    const patch = result.validPatch ? dir.readPatch() : undefined;
    const heldOut = tasks.filter((i) => !evidenceIds.includes(i));
    let patchedHeldOut = new Map(heldOut.map((i) => [i, baseline.get(i)!.reward]));
    if (patch) {
      ctx.onProgress?.({ kind: 'stage', batchTag: tag, stage: 'rerun', detail: `${heldOut.length} held-out task(s)` });
      const rerun = await rerunPatch(ctx, `${tag}-heldout`, patch, heldOut, run.armDir(`${tag}-heldout`), baselineTurns);
      const missing = rerun.records.filter((r) => isInfraOutcome(r.outcome));
      if (missing.length > 0) throw new IncompleteExperimentError({ message: `${tag}: ${missing.length} held-out episode(s) still failed for infrastructure reasons; run the same command again to retry them.` });
      patchedHeldOut = new Map(rerun.records.map((r) => [r.task.index, r.reward]));
    }
    const patchFile = dir.file('patch');
    const cell: Omit<HeldoutCellRecord, 'held_out'> = patch
      ? { patch_file: path.relative(run.root, patchFile), valid: true, hooks: patch.actions.flatMap((a) => (a.type === 'add_code_hook' ? [a.hook] : [])), validation_error: null, patch_sha256: createHash('sha256').update(readFileSync(patchFile)).digest('hex') }
      : { patch_file: null, valid: false, hooks: [], validation_error: result.rejection ?? result.status };
    seedRuns.push({
      seed,
      tag,
      status: result.status,
      evidenceIds,
      cell,
      heldOut: heldOut.map((i) => ({ task: i, baseline: baseline.get(i)!.reward, patched: patchedHeldOut.get(i)! })),
      evidence: evidenceIds.map((i) => ({ task: i, baseline: baseline.get(i)!.reward, patched: patch ? (result.patched?.rewards[String(i)] ?? 0) : baseline.get(i)!.reward })),
      notes: result.notes,
    });
  }

  const summary = summarizeHeldoutExperiment({
    bench: ctx.benchmark.name,
    split: ctx.split,
    threshold: ctx.threshold,
    metric: ctx.metric,
    target: { label: ctx.target.label, simulated: ctx.target.simulated },
    engineer: { label: ctx.engineer.label, symbolic: ctx.engineer.kind === 'symbolic' },
    editor: options.editor,
    evidence,
    seeds: seedRuns,
    excludedTasks: excluded.map((r) => ({ task: r.task.index, outcome: r.outcome, detail: String(r.detail.error ?? '').slice(0, 300) })),
    ...(options.bootstrap ? { bootstrap: options.bootstrap } : {}),
  });
  writeHeldoutResults(run.resultsFile, buildHeldoutResults(summary.resultsInput));
  summary.artifact.cost = measureExperimentCost(run.root);
  run.writeSummaryOf(HELDOUT_KIND, summary.artifact);
  return summary;
}
