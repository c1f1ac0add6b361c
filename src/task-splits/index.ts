export { allocateLargestRemainder } from './allocate.js';
export { buildSplits } from './build-splits.js';
export type { BuiltSplits } from './build-splits.js';
export { compareWithPaper, differingCounts, formatCount } from './compare-counts.js';
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
export { writeSplits, splitFiles } from './write-splits.js';
export type { WrittenFile } from './write-splits.js';
export { HELD_OUT_PARTITIONS, PARTITIONS, SPLIT_BATCH_SIZE, TRAINING_PARTITIONS } from './partitions.js';
export type { PaperCount, PaperCountBasis, PaperCounts, PaperSplits, PartitionName, SplitBuildOptions, SplitFile } from './partitions.js';
export { canonicalSha256, fileSha256 } from './task-hash.js';
export { locateByPrefix } from './locate.js';
export type { LocatedSplit, LocatedTask } from './locate.js';
