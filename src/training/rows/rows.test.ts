import { describe, expect, it } from 'vitest';

import { groupMixedRows, groupsAreHomogeneous } from './group-rows.js';
import { checkRowContext, RowContextMismatch, type RowContext } from './row-context.js';
import { buildRlRow, releaseShapeProblems, RL_ROW_VERSION, type RlRow } from './rl-row.js';

function row(benchmark: string, n: number): RlRow {
  return buildRlRow('S', `U ${n}`, {
    benchmark, batch_tag: `${benchmark}_${n}`, start: n * 10, end: n * 10 + 2, batch_size: 2, baseline_pass: 1,
    baseline_rewards: { [String(n * 10)]: 1, [String(n * 10 + 1)]: 0 }, target_model: 'm', target_agent_name: 'a',
  }, {
    row_version: RL_ROW_VERSION, split: 'rl_train', task_ids: [`dev:${n * 10}`, `dev:${n * 10 + 1}`], task_sha256: [null, null], env_split: 'dev', env_protocol: 'fc', env_options: {}, env_max_rounds: null, task_indices: [n * 10, n * 10 + 1],
    excluded_tasks: [], split_procedure: 'p', split_manifest_sha256: 'x', reward_threshold: 1, reward_metric: 'delta_pass_rate', response_protocol: 'prefill_think_patch',
    schema_style: 's', prompt_version: 'v1', prompt_static_prefix_sha256: 'aaa', prompt_sha256: 'bbb', packet_format: 'f', packet_failures: 1, packet_included: 1,
    target_spec: 'sim:dbbench', target_simulated: true, target_serving: { protocol: 'dbbench-fc-v1', maxRounds: null }, baseline_run: `${benchmark}/baseline`,
  });
}

const context: RowContext = { targetSpec: 'sim:dbbench', serving: { maxRounds: null, protocol: 'dbbench-fc-v1' }, promptVersion: 'v1', responseProtocol: 'prefill_think_patch', promptStaticPrefixSha256: 'aaa' };

describe('RL rows', () => {
  it('have the release shape, release fields first', () => {
    const r = row('dbbench', 1);
    expect(releaseShapeProblems(r)).toEqual([]);
    expect(Object.keys(r.metadata).slice(0, 9)).toEqual(['benchmark', 'batch_tag', 'start', 'end', 'batch_size', 'baseline_pass', 'baseline_rewards', 'target_model', 'target_agent_name']);
    expect(releaseShapeProblems({ ...r, label: 'x' })).toContain('label is not ""');
    expect(releaseShapeProblems({ ...r, metadata: { ...r.metadata, batch_size: 3 } })).toContain('metadata.batch_size differs from the number of baseline rewards');
  });

  it('are refused under another target, serving protocol or prompt, naming each difference', () => {
    const r = row('dbbench', 1);
    expect(() => checkRowContext(r, context)).not.toThrow();
    expect(() => checkRowContext(r, { ...context, targetSpec: 'sim:dbbench?seed=1' })).toThrow(RowContextMismatch);
    expect(() => checkRowContext(r, { ...context, targetSpec: 'sim:dbbench?seed=1' })).toThrow(/target_spec: the row has "sim:dbbench", this reward would use "sim:dbbench\?seed=1"/);
    try {
      checkRowContext(r, { ...context, serving: { protocol: 'dbbench-fc-v1', maxRounds: 5 }, promptStaticPrefixSha256: 'ccc', responseProtocol: 'full_think_patch' });
      expect.unreachable();
    } catch (error) {
      expect((error as RowContextMismatch).mismatches.map((m) => m.field)).toEqual(['target_serving', 'response_protocol', 'prompt_static_prefix_sha256']);
      expect((error as RowContextMismatch).code).toBe('config_error');
    }
  });

  it('are grouped so no rollout group mixes benchmarks, completing short last groups with repeats', () => {
    const rows = new Map([
      ['webshop', [1, 2, 3, 4, 5].map((n) => row('webshop', n))],
      ['dbbench', [1, 2].map((n) => row('dbbench', n))],
    ]);
    const g = groupMixedRows(rows, 4);
    expect(g.rows).toHaveLength(12);
    expect(groupsAreHomogeneous(g.rows, 4)).toBe(true);
    expect(g.groups.map((x) => x.benchmark)).toEqual(['dbbench', 'webshop', 'webshop']);
    expect(g.groups[0]!.batchTags).toEqual(['dbbench_1', 'dbbench_2', 'dbbench_1', 'dbbench_2']);
    expect(g.groups[2]!.batchTags).toEqual(['webshop_5', 'webshop_1', 'webshop_2', 'webshop_3']);
    expect(g.repeated).toHaveLength(5);
    expect(groupsAreHomogeneous([row('a', 1), row('b', 1)], 4)).toBe(false);
  });
});
