import { readFileSync } from 'node:fs';

import { z } from 'zod';

import { ConfigError } from '../episode/index.js';
import { PARTITIONS, type PaperCountBasis, type PartitionName } from './partitions.js';

/** Version of `manifest.json`; bump when its shape changes. */
export const SPLIT_MANIFEST_VERSION = 1 as const;
export const SPLIT_MANIFEST_KIND = 'harness-r1/task-splits' as const;

/** One task of a partition: its identity and the SHA-256 of its content (null when the data does not hold it). */
export interface SplitTask {
  id: string;
  sha256: string | null;
  /** The family (stratum) the benchmark's own split file files the task under, for stratified splits. */
  family?: string;
}

/** A contiguous batch of task indices, `[start, end)`, for benchmarks whose batches are index ranges. */
export interface IndexBatch {
  start: number;
  end: number;
}

export interface SplitPartition {
  /** In the order exporters use: cut into consecutive batches of `batchSize`, unless `batches` is given. */
  tasks: SplitTask[];
  /** The partition's batches, when the split is made at batch level. */
  batches?: IndexBatch[];
  /** Tasks per family, for stratified splits. */
  families?: Record<string, number>;
}

/** A data file the split was built from, relative to the data directory (shipped) or as given (user pool). */
export interface SourceFile {
  role: string;
  path: string;
  bytes: number;
  sha256: string;
}

export interface CountComparison {
  partition: PartitionName | 'pool';
  ours: number;
  paper: number | null;
  basis: PaperCountBasis;
  /** Why ours differs, or what the paper count is; empty when both agree and there is nothing to say. */
  note: string;
}

/** Tasks of the pool left out of every partition, with the reason (e.g. the same content as a test task). */
export interface ExcludedTask {
  id: string;
  sha256: string | null;
  reason: string;
}

export interface SplitManifest {
  schemaVersion: typeof SPLIT_MANIFEST_VERSION;
  kind: typeof SPLIT_MANIFEST_KIND;
  /** The benchmark's registry name. */
  benchmark: string;
  /** Name of the procedure (our reading of the paper's Appendix 10), versioned. */
  procedure: string;
  pool: { kind: 'shipped' | 'user'; description: string };
  /** Named `random.Random` seeds the procedure used. */
  seeds: Record<string, number>;
  batchSize: number;
  sources: SourceFile[];
  /** Pool (before exclusions), partitions, excluded, and tasks whose content the data lacks (null sha256). */
  counts: Record<'pool' | PartitionName | 'excluded' | 'withoutContent', number>;
  /** Our counts against the paper's, one row per partition plus the pool. */
  comparison: CountComparison[];
  /** Facts a user should know (missing content, capped reservations, near-duplicates). */
  notes: string[];
  partitions: Record<PartitionName, SplitPartition>;
  excluded: ExcludedTask[];
}

/** The manifest as written: two-space JSON with a final newline, keys in the order above. */
export function serializeSplitManifest(manifest: SplitManifest): string {
  return `${JSON.stringify(manifest, null, 2)}\n`;
}

const sha = z.string().regex(/^[0-9a-f]{64}$/);
const taskSchema = z.strictObject({ id: z.string().min(1), sha256: sha.nullable(), family: z.string().optional() });
const partitionSchema = z.strictObject({
  tasks: z.array(taskSchema),
  batches: z.array(z.strictObject({ start: z.number().int().nonnegative(), end: z.number().int().nonnegative() })).optional(),
  families: z.record(z.string(), z.number().int().nonnegative()).optional(),
});
const count = z.number().int().nonnegative();
const manifestSchema = z.strictObject({
  schemaVersion: z.literal(SPLIT_MANIFEST_VERSION),
  kind: z.literal(SPLIT_MANIFEST_KIND),
  benchmark: z.string().min(1),
  procedure: z.string().min(1),
  pool: z.strictObject({ kind: z.enum(['shipped', 'user']), description: z.string() }),
  seeds: z.record(z.string(), z.number().int()),
  batchSize: z.number().int().positive(),
  sources: z.array(z.strictObject({ role: z.string(), path: z.string(), bytes: count, sha256: sha })),
  counts: z.strictObject({ pool: count, test: count, validation: count, sft_train: count, rl_train: count, excluded: count, withoutContent: count }),
  comparison: z.array(
    z.strictObject({
      partition: z.enum([...PARTITIONS, 'pool']),
      ours: count,
      paper: count.nullable(),
      basis: z.enum(['stated', 'derived', 'unknown']),
      note: z.string(),
    }),
  ),
  notes: z.array(z.string()),
  partitions: z.strictObject({ test: partitionSchema, validation: partitionSchema, sft_train: partitionSchema, rl_train: partitionSchema }),
  excluded: z.array(z.strictObject({ id: z.string(), sha256: sha.nullable(), reason: z.string() })),
});

/** Validates parsed manifest JSON; `source` names it in errors, which name the bad field. */
export function parseSplitManifest(json: unknown, source: string): SplitManifest {
  const parsed = manifestSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const field = issue.path.map(String).join('.') || 'manifest';
    throw new ConfigError({ message: `${source}: not a split manifest (${field}: ${issue.message}).`, field });
  }
  return parsed.data as SplitManifest;
}

/** Reads a `manifest.json` written by `harness-r1 splits`. */
export function loadSplitManifest(file: string): SplitManifest {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, 'utf8'));
  } catch (cause) {
    throw new ConfigError({ message: `Cannot read split manifest ${file}: ${(cause as Error).message}`, field: 'manifest', cause });
  }
  return parseSplitManifest(json, file);
}

/** The tasks of some partitions, in partition order. */
export function partitionTasks(manifest: SplitManifest, names: readonly PartitionName[]): SplitTask[] {
  return names.flatMap((name) => manifest.partitions[name].tasks);
}
