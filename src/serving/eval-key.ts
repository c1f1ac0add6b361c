import { createHash } from 'node:crypto';

import { canonicalJson, RERUN_CACHE_PROTOCOL } from '../evaluation/improve/rerun-cache-key.js';
import { validateProposal } from '../evaluation/improve/judge-proposal.js';
import { responseTextResult } from '../engineer/response-text-result.js';
import type { ResponseProtocol } from '../patch/index.js';
import type { PreparedRow } from './prepared-row.js';

const sha256 = (value: unknown) => createHash('sha256').update(canonicalJson(value)).digest('hex');

/** The digest of one request: its row and its response text, exactly. */
export function responseKeyOf(rowKey: string, response: string): string {
  return sha256({ row: rowKey, response });
}

/**
 * What a response's reward depends on, as a SHA-256: for a valid patch, the canonical normalized patch,
 * the batch (tag and tasks) and the rerun context (target, benchmark identity, threshold, metric), so two
 * responses with the same patch share one evaluation; for an answer with no patch to rerun (empty,
 * rejected, or a batch with nothing to repair), the row and the response itself. `rerun` says whether
 * the evaluation plays episodes.
 */
export async function evalKeyOf(prepared: PreparedRow, response: string): Promise<{ evalKey: string; rerun: boolean }> {
  const row = prepared.entry.key;
  if (prepared.untouched) return { evalKey: sha256({ kind: 'untouched', row }), rerun: false };
  const proposal = responseTextResult(response, prepared.entry.row.metadata.response_protocol as ResponseProtocol);
  if (proposal.status === 'request_failed') return { evalKey: sha256({ kind: 'engineer_failure', row }), rerun: false };
  const verdict = await validateProposal(prepared.ctx, proposal.proposal);
  if (verdict.kind === 'invalid') return { evalKey: sha256({ kind: 'rejected', row, response }), rerun: false };
  return {
    evalKey: sha256({ kind: 'rerun', protocol: RERUN_CACHE_PROTOCOL, batchTag: prepared.batch.tag, taskIndices: [...prepared.batch.evidence.baseline.keys()], patch: verdict.patch, context: prepared.ctx.rerunContext }),
    rerun: true,
  };
}
