import { ConfigError } from '../../episode/index.js';

/** Reference batch size of Harness-R1 (`--batch-size` default 10). */
export const DEFAULT_BATCH_SIZE = 10;

export interface Batch {
  /** Stable name, `batch_000`, `batch_001`, … in task order. */
  tag: string;
  taskIndices: number[];
}

/** Cuts a task list into consecutive batches of `size` (the last one may be smaller); `limit` keeps the first N. */
export function makeBatches(taskIndices: readonly number[], size = DEFAULT_BATCH_SIZE, limit?: number): Batch[] {
  if (!Number.isInteger(size) || size < 1) throw new ConfigError({ message: `--batch-size must be a positive integer, got ${size}.`, field: 'batchSize' });
  if (limit !== undefined && (!Number.isInteger(limit) || limit < 1)) {
    throw new ConfigError({ message: `--batches must be a positive integer, got ${limit}.`, field: 'batches' });
  }
  const batches: Batch[] = [];
  for (let i = 0; i < taskIndices.length; i += size) {
    batches.push({ tag: `batch_${String(batches.length).padStart(3, '0')}`, taskIndices: taskIndices.slice(i, i + size) });
  }
  return limit === undefined ? batches : batches.slice(0, limit);
}
