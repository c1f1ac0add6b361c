import type { EngineerInput } from '../engineer/engineer.js';
import type { RewardDecision } from '../evaluation/improve/decide-reward.js';
import type { JudgedBatch, RewardPathContext } from '../evaluation/improve/judge-proposal.js';
import type { CatalogRow } from './row-catalog.js';

/**
 * A row ready for rewards: its baseline read back and checked against the row (prompt digest, target,
 * serving, prompt version), and the reward path of `improve` set up for its batch.
 */
export interface PreparedRow {
  entry: CatalogRow;
  /** The engineer input the row's prompt was built from (its digest checked against the row's). */
  input: EngineerInput;
  targetSpec: string;
  targetSimulated: boolean;
  batch: JudgedBatch;
  /** The reward path (reruns under the service's store); the service adds its own abort signal. */
  ctx: RewardPathContext;
  /** Set when the batch has nothing to repair (no failure, or nothing scored): every response gets it. */
  untouched: RewardDecision | undefined;
  baselinePass: number;
}

/** Sets up a catalog row; throws `RowContextMismatch` (or a `ConfigError`) when the row does not belong here. */
export type PrepareRow = (entry: CatalogRow) => Promise<PreparedRow>;
