import { ConfigError } from '../../episode/index.js';
import { pyRound } from '../../python/python-round.js';
import { meanSd, type SeedSpread } from '../../statistics/index.js';
import { poolHeldoutCells, type HeldoutPool } from './pooled-arithmetic.js';
import { checkHeldoutResults, heldoutCells } from './results-file.js';
import { POOLED_KEY, type BenchmarkSummaryRecord, type HeldoutCellRecord, type HeldoutEditorRecord, type HeldoutResultsFile, type PooledHeldOutRecord } from './results-schema.js';

/** What a held-out run knows before summarizing: everything in the file except `held_out_tasks` and the editors' summaries. */
export interface HeldoutResultsInput extends Omit<HeldoutResultsFile, 'held_out_tasks' | 'editors'> {
  editors: Record<string, { display_name: string; per_seed: Record<string, Record<string, HeldoutCellRecord>> }>;
}

/** Decimals of the summary means and sds, as the original writes them. */
const SUMMARY_DIGITS = 2;

/**
 * Builds the full results file from per-seed cells: `held_out_tasks` and, per editor, `valid_patches`,
 * `pooled_held_out` and `per_benchmark`, computed by `poolHeldoutCells` and rounded like the original
 * (Python `round(x, 2)`). Fed the cells of the shipped `results.json`, it gives back that file.
 */
export function buildHeldoutResults(input: HeldoutResultsInput): HeldoutResultsFile {
  const editorIds = Object.keys(input.editors);
  if (editorIds.length === 0) throw new ConfigError({ message: 'Held-out results need at least one editor.', field: 'editors' });
  const firstSeed = input.editors[editorIds[0]!]!.per_seed[String(input.seeds[0])] ?? {};
  const benches = Object.keys(firstSeed);
  const held_out_tasks: Record<string, number> = {};
  for (const bench of benches) held_out_tasks[bench] = firstSeed[bench]!.held_out.tasks;
  held_out_tasks[POOLED_KEY] = benches.reduce((total, b) => total + held_out_tasks[b]!, 0);

  const counts = { ...input, held_out_tasks };
  const problems = checkHeldoutResults(counts);
  if (problems.length > 0) throw new ConfigError({ message: `Held-out cells are inconsistent:\n${problems.map((p) => `  - ${p}`).join('\n')}`, field: 'editors' });

  const editors: Record<string, HeldoutEditorRecord> = {};
  for (const id of editorIds) {
    const { display_name, per_seed } = input.editors[id]!;
    editors[id] = { display_name, ...editorSummary(poolHeldoutCells(heldoutCells(counts, id))), per_seed };
  }
  // Spelled out so that the keys come in the file's order whatever the input's order.
  return {
    protocol: input.protocol,
    description: input.description,
    target_agent: input.target_agent,
    evidence_per_benchmark: input.evidence_per_benchmark,
    held_out_tasks,
    seeds: input.seeds,
    invalid_patch_policy: input.invalid_patch_policy,
    evidence_task_ids: input.evidence_task_ids,
    editors,
  };
}

/** The summary fields of one editor's record, from its pool. */
export function editorSummary(pool: HeldoutPool): Pick<HeldoutEditorRecord, 'valid_patches' | 'pooled_held_out' | 'per_benchmark'> {
  const tasks = pool.perSeed[0]!.tasks;
  const per_benchmark: Record<string, BenchmarkSummaryRecord> = {};
  for (const b of pool.perBench) {
    per_benchmark[b.bench] = {
      held_out_tasks: b.tasks,
      valid_patches: b.valid,
      delta_pass_per_seed: b.deltaPassPerSeed,
      ...spreadRecord(b.deltaPass, b.deltaPassPerSeed.map((d) => (d / b.tasks) * 100)),
    };
  }
  return {
    valid_patches: `${pool.valid.valid}/${pool.valid.total}`,
    pooled_held_out: {
      tasks,
      baseline_pass_per_seed: pool.perSeed.map((s) => s.baselinePass),
      patched_pass_per_seed: pool.perSeed.map((s) => s.patchedPass),
      delta_pass_per_seed: pool.perSeed.map((s) => s.deltaPass),
      ...spreadRecord(pool.deltaPass, pool.perSeed.map((s) => s.deltaRate * 100)),
    },
    per_benchmark,
  };
}

/**
 * Mismatches between the summaries a file stores and those its cells give: empty when every stored
 * figure is what `buildHeldoutResults` computes. Each entry names the field and both values.
 */
export function heldoutSummaryMismatches(results: HeldoutResultsFile): string[] {
  const mismatches: string[] = [];
  for (const [id, stored] of Object.entries(results.editors)) {
    const computed = editorSummary(poolHeldoutCells(heldoutCells(results, id)));
    compare(`editors.${id}`, { valid_patches: stored.valid_patches, pooled_held_out: stored.pooled_held_out, per_benchmark: stored.per_benchmark }, computed, mismatches);
  }
  return mismatches;
}

function spreadRecord(deltaPass: SeedSpread, ppPerSeed: number[]): Omit<PooledHeldOutRecord, 'tasks' | 'baseline_pass_per_seed' | 'patched_pass_per_seed' | 'delta_pass_per_seed'> {
  // The pp figures are the mean and sd of the per-seed pp values, as in the original's files.
  const pp = meanSd(ppPerSeed);
  const round = (x: number | null) => (x === null ? null : pyRound(x, SUMMARY_DIGITS));
  return {
    delta_pass_mean: pyRound(deltaPass.mean, SUMMARY_DIGITS),
    delta_pass_sample_std: round(deltaPass.sd),
    delta_pass_rate_pp_mean: pyRound(pp.mean, SUMMARY_DIGITS),
    delta_pass_rate_pp_sample_std: round(pp.sd),
  };
}

function compare(path: string, stored: unknown, computed: unknown, out: string[]): void {
  if (typeof computed === 'object' && computed !== null && typeof stored === 'object' && stored !== null) {
    const keys = new Set([...Object.keys(stored), ...Object.keys(computed)]);
    for (const key of keys) compare(`${path}.${key}`, (stored as Record<string, unknown>)[key], (computed as Record<string, unknown>)[key], out);
    return;
  }
  if (!Object.is(stored, computed)) out.push(`${path}: stored ${JSON.stringify(stored)}, computed ${JSON.stringify(computed)}`);
}
