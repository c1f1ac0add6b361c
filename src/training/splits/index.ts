export { buildSplits } from './build-splits.js';
export type { BuildSplitsOptions } from './build-splits.js';
export { buildWebShopSplits, WEBSHOP_SPLIT_PROCEDURE } from './webshop-splits.js';
export { buildAlfworldSplits, ALFWORLD_SPLIT_PROCEDURE } from './alfworld-splits.js';
export { buildDbBenchSplits, DBBENCH_SPLIT_PROCEDURE } from './dbbench-splits.js';
export { assertNoLeakage, findLeaks, checkManifestDisjoint } from './leakage.js';
export type { Leak, TaskRef } from './leakage.js';
export {
  loadSplitManifest,
  parseSplitManifest,
  partitionTasks,
  serializeSplitManifest,
  SPLIT_MANIFEST_KIND,
  SPLIT_MANIFEST_VERSION,
} from './split-manifest.js';
export type { CountComparison, ExcludedTask, IndexBatch, SourceFile, SplitManifest, SplitPartition, SplitTask } from './split-manifest.js';
export { writeSplits, splitFiles, ALFWORLD_SPLIT_FILES } from './write-splits.js';
export type { WrittenFile } from './write-splits.js';
export {
  ALFWORLD_SPLIT,
  DBBENCH_SPLIT,
  HELD_OUT_PARTITIONS,
  isSplitBenchmark,
  PAPER_COUNTS,
  PARTITIONS,
  SPLIT_BATCH_SIZE,
  SPLIT_BENCHMARKS,
  TRAINING_PARTITIONS,
  WEBSHOP_SPLIT,
} from './paper-splits.js';
export type { PaperCount, PaperCountBasis, PartitionName, SplitBenchmark } from './paper-splits.js';
export { canonicalSha256 } from './task-hash.js';
