import { beforeAll, describe, expect, it } from 'vitest';

import type { EpisodeRecord } from '../../../episode/index.js';
import type { DbBenchTask } from '../../../environments/dbbench/dbbench-task.js';
import { DbBenchEpisodeState } from '../../../environments/dbbench/episode-state.js';
import { buildDbBenchHookContext } from '../../../environments/dbbench/hook-context.js';
import { CODE_HOOK_NAMES } from '../../../patch/index.js';
import { buildEngineerPrompt, EVIDENCE_MARKER, PREFILL_THINK, renderEngineerPrompt, splitAtEvidenceMarker } from '../../../engineer/engineer-prompt.js';
import { buildFailurePacket } from '../../../engineer/failure-packet.js';
import { PROMPT_VERSION } from '../../../engineer/prompt-templates.js';
import { engineerInput, runSimBaseline, engineerBenchmark } from '../../../testing/sim-baseline.fixture.js';

let records: EpisodeRecord[];

beforeAll(async () => {
  records = await runSimBaseline(Array.from({ length: 12 }, (_, i) => i));
});

function section(text: string, heading: string): string {
  const start = text.indexOf(`${heading}\n`);
  expect(start, heading).toBeGreaterThanOrEqual(0);
  const next = text.indexOf('\n## ', start + heading.length);
  return text.slice(start, next < 0 ? undefined : next);
}

describe('the DBBench prefill prompt (prefill_think_patch)', () => {
  it('is system + user, with scope line, prefill sentence, format, runtime context, marker and evidence in that order', () => {
    const { prompt, packet } = buildEngineerPrompt(engineerInput(records), { protocol: 'prefill_think_patch' });
    expect(prompt.messages.map((m) => m.role)).toEqual(['system', 'user']);
    expect(prompt).toMatchObject({ version: PROMPT_VERSION, bench: 'dbbench', protocol: 'prefill_think_patch', schemaStyle: 'dbbench_life_multihook_v1', prefill: PREFILL_THINK });
    expect(PREFILL_THINK).toBe('<think>\n');
    expect(prompt.system).toMatch(/^You are the harness engineer of Harness-R1\. .*DBBench.*<patch> block\.$/s);

    const paragraphs = prompt.user.split('\n\n');
    expect(paragraphs[0]).toMatch(/^Scope: you edit only the reusable DBBench harness/);
    expect(paragraphs[1]).toMatch(/thinking block has already been opened.*close it with <\/think>.*exactly one <patch> block/s);
    const order = ['## Patch format (DBBench, code hooks only)', 'Output contract: once your reasoning is done', '## The hooks', '## Code rules', '## No leakage', '## The ctx of a DBBench hook', '## Your reasoning', '## DBBench Runtime Context', `\n${EVIDENCE_MARKER}\n\n# DBBench no-harness evidence for batch_000`];
    const positions = order.map((s) => prompt.user.indexOf(s));
    expect(positions.every((p) => p > 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
    // The marker is a line of its own, exactly once, and the evidence follows it unchanged to the end.
    expect(prompt.user.split('\n').filter((l) => l === EVIDENCE_MARKER)).toHaveLength(1);
    expect(splitAtEvidenceMarker(prompt.user)?.rest).toBe(`\n${packet.text}`);
    expect(prompt.user.endsWith(packet.text)).toBe(true);
  });

  it('states the patch contract: keys, add_code_hook only, hook order, 2–4 hooks, return shapes, limits and forbidden constructs', () => {
    const { user } = renderEngineerPrompt({ benchmark: engineerBenchmark('dbbench'), protocol: 'prefill_think_patch', evidence: 'E' });
    const format = section(user, '## Patch format (DBBench, code hooks only)');
    expect(format).toContain('"benchmark": exactly "dbbench"');
    expect(format).toContain('"description"');
    expect(format).toContain('a list of 2 to 4 actions');
    expect(format).toContain('add_code_hook is the only action type accepted');
    const hooks = section(user, '## The hooks');
    const at = CODE_HOOK_NAMES.map((h) => hooks.indexOf(`${CODE_HOOK_NAMES.indexOf(h) + 1}. ${h}:`));
    expect(at.every((p) => p > 0)).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
    for (const shape of ['{"skills": ["tip", ...], "tool_hint": "text"}', '{"kind": "inject_hint", "message": "text"}', '{"message": "text"}', '{"kind": "block_and_prompt", "message": "text"}']) {
      expect(hooks).toContain(shape);
    }
    expect(hooks).toMatch(/"rewrite_action" and "force_action" are ignored on DBBench/);
    expect(hooks).toMatch(/blocked call is answered at once with a tool message/);
    expect(hooks).toMatch(/tool_hint and skills go into the system prompt/);
    expect(hooks).toContain('cut to 900 characters');
    const rules = section(user, '## Code rules');
    expect(rules).toContain('at most 8000 characters per hook');
    expect(rules).toContain('plus up to 5 helper functions');
    expect(rules).toContain('import, while, lambda, class, with, raise, global');
    expect(rules).toContain('`except Exception:`');
    expect(rules).toContain('start with an underscore');
    for (const name of ['getattr', 'setattr', 'type', 'dir', 'vars', 'eval', 'exec', 'open']) expect(rules).toMatch(new RegExp(`[ :]${name}[,.]`));
    expect(rules).toMatch(/re\.search.*re\.compile is rejected/s);
    const leak = section(user, '## No leakage');
    expect(leak).toMatch(/cell values, expected answers, task indices or SQL copied from the evidence/);
    expect(section(user, '## Your reasoning')).toMatch(/four short bullets.*No JSON/s);
  });

  it('lists every ctx key and predicate the DBBench runtime really builds', () => {
    const task: DbBenchTask = { index: 0, description: 'q', addDescription: '', type: 'counting', kind: 'query', label: [], table: { name: 't', columns: ['a'], rows: [] } };
    const call = { id: 'c', tool: 'execute_sql', args: { query: 'SELECT 1' }, firstValue: 'SELECT 1' };
    const ctx = buildDbBenchHookContext({ hook: 'on_post_step', round: 1, remaining: 5, call, observation: '[]' }, new DbBenchEpisodeState(task));
    const { user } = renderEngineerPrompt({ benchmark: engineerBenchmark('dbbench'), protocol: 'prefill_think_patch', evidence: 'E' });
    const ctxSection = section(user, '## The ctx of a DBBench hook');
    expect(ctxSection).toContain('Its only top-level keys are action, state, task, dbbench and predicates.');
    for (const [group, value] of Object.entries(ctx)) {
      const line = ctxSection.split('\n').find((l) => l.startsWith(`- ctx["${group}"]`));
      expect(line, group).toBeDefined();
      for (const key of Object.keys(value as object)) expect(line, `${group}.${key}`).toMatch(new RegExp(`\\b${key}\\b`));
    }
    const runtime = section(user, '## DBBench Runtime Context');
    expect(runtime).toMatch(/successful INSERT, UPDATE or DELETE returns \[\]/);
    expect(runtime).toMatch(/judged on the committed answer values/);
    expect(runtime).toMatch(/never exposed as ctx\["world"\]/);
  });

  it('keeps everything before the marker static: the same bytes and digest for any batch', () => {
    const a = buildEngineerPrompt(engineerInput(records), { protocol: 'prefill_think_patch' }).prompt;
    const b = buildEngineerPrompt(engineerInput(records.slice(0, 6), { batchTag: 'batch_001' }), { protocol: 'prefill_think_patch' }).prompt;
    expect(a.user).not.toBe(b.user);
    expect(splitAtEvidenceMarker(a.user)?.prefix).toBe(splitAtEvidenceMarker(b.user)?.prefix);
    expect(a.system).toBe(b.system);
    expect(a.staticPrefixSha256).toBe(b.staticPrefixSha256);
    expect(a.staticPrefixSha256).toMatch(/^[0-9a-f]{64}$/);
    // And the same episodes give the same prompt, byte for byte.
    expect(buildEngineerPrompt(engineerInput(records), { protocol: 'prefill_think_patch' }).prompt).toEqual(a);
  });
});

describe('the DBBench full_think_patch prompt', () => {
  it('has the stricter no-leak system text, no scope/prefill paragraphs, the full output contract and no prefill', () => {
    const full = renderEngineerPrompt({ benchmark: engineerBenchmark('dbbench'), protocol: 'full_think_patch', evidence: 'EVIDENCE' });
    const prefill = renderEngineerPrompt({ benchmark: engineerBenchmark('dbbench'), protocol: 'prefill_think_patch', evidence: 'EVIDENCE' });
    expect(full.prefill).toBeUndefined();
    expect(full.system).toMatch(/Never hard-code table cell values, expected answers, task ids, or SQL lifted from the evidence/);
    expect(full.user.startsWith('## Patch format (DBBench, code hooks only)')).toBe(true);
    expect(full.user).toContain('Output contract: first a <think> block with a short analysis of the recurring failures, then a <patch> block');
    expect(full.user).not.toContain('thinking block has already been opened');
    expect(full.user.endsWith(`\n${EVIDENCE_MARKER}\n\nEVIDENCE`)).toBe(true);
    expect(full.staticPrefixSha256).not.toBe(prefill.staticPrefixSha256);
  });
});

describe('engineer prompts for other benchmarks', () => {
  it('append a revision context after the evidence, as DBBench does, leaving the static prefix alone', () => {
    const first = renderEngineerPrompt({ benchmark: engineerBenchmark('webshop'), protocol: 'prefill_think_patch', evidence: 'E' });
    const second = renderEngineerPrompt({ benchmark: engineerBenchmark('webshop'), protocol: 'prefill_think_patch', evidence: 'E', revisionContext: 'R' });
    expect(second.user).toBe(`${first.user}\n\nR`);
    expect(second.staticPrefixSha256).toBe(first.staticPrefixSha256);
    expect(buildFailurePacket(engineerInput(records, { bench: 'alfworld' })).format).toBe('alfworld-trace-packet-v1');
  });
});
