import { z } from 'zod';

/**
 * The held-out results file of the original release (`heldout_generalization/results.json`,
 * protocol `random10_failure_evidence_one_patch_full_split`). Keys are the original's snake_case; key
 * order in these schemas is the file's order, which the writer keeps. Unknown keys are rejected so that
 * nothing is dropped silently on a read → write round trip.
 */

const count = z.number().int().nonnegative();
const signedCount = z.number().int();
const seedKey = z.string().regex(/^\d+$/, 'a seed key is a decimal integer');

/** Held-out counts of one (editor, seed, benchmark) cell: the patch applied to the split minus the evidence tasks. */
export const heldOutCountsSchema = z.strictObject({
  tasks: count,
  baseline_pass: count,
  patched_pass: count,
  delta_pass: signedCount,
  /** Failed at baseline, passed when patched (McNemar's b). */
  rescued_failures: count,
  /** Passed at baseline, failed when patched (McNemar's c). */
  regressed_successes: count,
});

/** One patch: where it is, whether the validator accepted it, and its held-out counts. */
export const heldoutCellSchema = z.strictObject({
  patch_file: z.string().nullable(),
  valid: z.boolean(),
  hooks: z.array(z.string()),
  validation_error: z.string().nullable(),
  patch_sha256: z.string().regex(/^[0-9a-f]{64}$/, 'a lowercase hex sha256').optional(),
  note: z.string().optional(),
  held_out: heldOutCountsSchema,
});

/** Spread over seeds as the original writes it: means and sample sds rounded to 2 decimals; sd `null` for one seed. */
const spreadFields = {
  delta_pass_mean: z.number(),
  delta_pass_sample_std: z.number().nullable(),
  delta_pass_rate_pp_mean: z.number(),
  delta_pass_rate_pp_sample_std: z.number().nullable(),
};

export const pooledHeldOutSchema = z.strictObject({
  tasks: count,
  baseline_pass_per_seed: z.array(count),
  patched_pass_per_seed: z.array(count),
  delta_pass_per_seed: z.array(signedCount),
  ...spreadFields,
});

export const benchmarkSummarySchema = z.strictObject({
  held_out_tasks: count,
  valid_patches: count,
  delta_pass_per_seed: z.array(signedCount),
  ...spreadFields,
});

export const heldoutEditorSchema = z.strictObject({
  display_name: z.string(),
  /** `valid/total` over all (seed, benchmark) cells, e.g. `8/9`. */
  valid_patches: z.string().regex(/^\d+\/\d+$/, 'valid/total, e.g. 8/9'),
  pooled_held_out: pooledHeldOutSchema,
  per_benchmark: z.record(z.string(), benchmarkSummarySchema),
  per_seed: z.record(seedKey, z.record(z.string(), heldoutCellSchema)),
});

export const heldoutResultsSchema = z.strictObject({
  protocol: z.string(),
  description: z.string(),
  target_agent: z.string(),
  evidence_per_benchmark: count,
  /** Held-out tasks per benchmark, plus `pooled` (their sum). */
  held_out_tasks: z.record(z.string(), count),
  seeds: z.array(count).min(1),
  invalid_patch_policy: z.string(),
  evidence_task_ids: z.record(seedKey, z.record(z.string(), z.array(count))),
  editors: z.record(z.string(), heldoutEditorSchema),
});

export type HeldoutResultsFile = z.infer<typeof heldoutResultsSchema>;
export type HeldoutEditorRecord = z.infer<typeof heldoutEditorSchema>;
export type HeldoutCellRecord = z.infer<typeof heldoutCellSchema>;
export type HeldOutCounts = z.infer<typeof heldOutCountsSchema>;
export type PooledHeldOutRecord = z.infer<typeof pooledHeldOutSchema>;
export type BenchmarkSummaryRecord = z.infer<typeof benchmarkSummarySchema>;

/** Keys whose values the original writes as Python floats (`14.0`, not `14`). */
export const HELDOUT_FLOAT_KEYS: ReadonlySet<string> = new Set(Object.keys(spreadFields));

/** The key of `held_out_tasks` that holds the sum over benchmarks. */
export const POOLED_KEY = 'pooled';
