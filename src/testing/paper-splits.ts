/**
 * Test support for task splits: a built-in benchmark's paper splits by name, through the registry as
 * `harness-r1 splits` finds them.
 */
import { BenchmarkRegistry } from '../benchmarks/registry.js';
import { ConfigError } from '../episode/index.js';
import { buildSplits, splitFiles, type SplitBuildOptions, type SplitFile, type SplitManifest } from '../task-splits/index.js';

const registry = new BenchmarkRegistry();

/** The registered benchmarks that have paper splits, in registry order. */
export const SPLIT_BENCHMARKS: readonly string[] = registry
  .all()
  .filter((d) => d.paperSplits !== undefined)
  .map((d) => d.name);

function splitsOf(bench: string): NonNullable<ReturnType<BenchmarkRegistry['get']>['paperSplits']> {
  const splits = registry.find(bench)?.paperSplits;
  if (splits === undefined) throw new ConfigError({ message: `Unknown benchmark '${bench}'.`, field: 'bench', allowed: SPLIT_BENCHMARKS });
  return splits;
}

/** Builds a benchmark's splits (checked for leaks) and returns the manifest. */
export function buildBenchSplits(options: SplitBuildOptions & { bench: string }): SplitManifest {
  const { bench, ...rest } = options;
  return buildSplits(splitsOf(bench), rest).manifest;
}

/** Every file `harness-r1 splits` writes for a manifest: `manifest.json` and the benchmark's own. */
export function benchSplitFiles(manifest: SplitManifest): SplitFile[] {
  return splitFiles(manifest, splitsOf(manifest.benchmark).files?.(manifest) ?? []);
}
