import { ConfigError } from '../../episode/index.js';
import { canonicalJson } from '../../evaluation/improve/rerun-cache-key.js';
import type { RlRow } from './rl-row.js';

/** What a reward is about to be computed under: the target, its serving options and the prompt protocol. */
export interface RowContext {
  targetSpec: string;
  /** The environment identity the rerun plays under (protocol, rounds, grading, backend…). */
  serving: Record<string, unknown>;
  promptVersion: string;
  responseProtocol: string;
  promptStaticPrefixSha256: string;
}

/** One way a row's frozen baseline does not belong to a context. */
export interface RowMismatch {
  field: 'target_spec' | 'target_serving' | 'prompt_version' | 'response_protocol' | 'prompt_static_prefix_sha256';
  row: unknown;
  context: unknown;
}

/** A row used under another target, serving protocol or prompt than its baseline was frozen with. */
export class RowContextMismatch extends ConfigError {
  readonly mismatches: readonly RowMismatch[];
  constructor(row: RlRow, mismatches: readonly RowMismatch[]) {
    const lines = mismatches.map((m) => `${m.field}: the row has ${canonicalJson(m.row)}, this reward would use ${canonicalJson(m.context)}`);
    super({
      message: `Row ${row.metadata.batch_tag} (${row.metadata.benchmark}) froze its baseline under another context; its reward would compare against a baseline of something else. ${lines.join('; ')}.`,
      field: 'row',
    });
    this.mismatches = mismatches;
  }
}

/**
 * Refuses a row whose baseline was frozen for another target, serving protocol or prompt: the reward of a
 * patch is a delta against that baseline, so it only means something under the same context. Throws
 * `RowContextMismatch` naming every field that differs; returns quietly when the row belongs.
 */
export function checkRowContext(row: RlRow, context: RowContext): void {
  const m = row.metadata;
  const mismatches: RowMismatch[] = [];
  const compare = (field: RowMismatch['field'], rowValue: unknown, contextValue: unknown) => {
    if (canonicalJson(rowValue) !== canonicalJson(contextValue)) mismatches.push({ field, row: rowValue, context: contextValue });
  };
  compare('target_spec', m.target_spec, context.targetSpec);
  compare('target_serving', m.target_serving, context.serving);
  compare('prompt_version', m.prompt_version, context.promptVersion);
  compare('response_protocol', m.response_protocol, context.responseProtocol);
  compare('prompt_static_prefix_sha256', m.prompt_static_prefix_sha256, context.promptStaticPrefixSha256);
  if (mismatches.length > 0) throw new RowContextMismatch(row, mismatches);
}
