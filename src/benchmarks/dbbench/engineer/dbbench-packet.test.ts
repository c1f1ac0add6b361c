import { beforeAll, describe, expect, it } from 'vitest';

import { resolveDataDir } from '../../../config/data-dir.js';
import { isInfraOutcome, type ChatMessage, type EpisodeRecord } from '../../../episode/index.js';
import { loadDbBenchSplit } from '../../../environments/dbbench/load-tasks.js';
import { renderDbBenchTrace } from './dbbench-trace.js';
import type { EpisodeEvidence } from '../../../engineer/episode-evidence.js';
import { buildFailurePacket } from '../../../engineer/failure-packet.js';
import { DBBENCH_EVIDENCE_LIMITS } from './dbbench-evidence-limits.js';
import { sanitizeEvidenceText } from '../../../engineer/sanitize-evidence.js';
import { engineerBenchmark, engineerInput, runSimBaseline, TEST_REGISTRY } from '../../../testing/sim-baseline.fixture.js';

const TASKS = Array.from({ length: 20 }, (_, i) => i);
let records: EpisodeRecord[];

beforeAll(async () => {
  records = await runSimBaseline(TASKS);
});

const clone = (r: EpisodeRecord): EpisodeRecord => structuredClone(r);
const failuresOf = (rs: EpisodeRecord[]) => rs.filter((r) => !isInfraOutcome(r.outcome) && r.reward < 1 && r.messages.length > 0);
const traceIndices = (text: string) => [...text.matchAll(/^### Trace index=(\d+) /gm)].map((m) => Number(m[1]));

describe('buildFailurePacket on a real simulated DBBench baseline (dev 0:20, seed 1)', () => {
  it('has the header, the heuristic overview and the 4 lowest-reward failures in (reward, index) order', () => {
    const packet = buildFailurePacket(engineerInput(records));
    const failures = failuresOf(records);
    const scored = records.filter((r) => !isInfraOutcome(r.outcome));
    const passed = scored.filter((r) => r.reward >= 1);
    // The simulated target with seed 1 fails enough of dev 0:20 for the selection rules to matter.
    expect(failures.length).toBeGreaterThan(4);
    expect(records.find((r) => r.task.index === 5)?.outcome).toBe('env_error');

    const expectedOrder = [...failures].sort((a, b) => a.reward - b.reward || a.task.index - b.task.index).slice(0, 4).map((r) => r.task.index);
    expect(traceIndices(packet.text)).toEqual(expectedOrder);
    expect(packet.text.split('\n').slice(0, 7)).toEqual([
      '# DBBench no-harness evidence for batch_000',
      '',
      '- tasks in batch: 20 (split dev, source slice 0:20)',
      `- baseline pass: ${passed.length}/${scored.length} (pass means reward >= 1.0)`,
      '- infrastructure failures excluded: 1 (env_error 1); they say nothing about the agent and are not counted or shown',
      `- failures: ${failures.length}; traces included: 4 (lowest reward first, then task index)`,
      '',
    ]);
    expect(packet.text).toContain('\n\n## Existing Batch Overview\n\nHeuristic overview computed deterministically');
    const failing = [...failures].sort((a, b) => a.task.index - b.task.index).map((r) => `${r.task.index}=0.0`);
    expect(packet.text).toContain(`- failing tasks (index=reward): ${failing.join(', ')}`);
    expect(packet.text).toContain('\n\n## Failure Traces\n\n### Trace index=');
    expect(packet).toMatchObject({
      bench: 'dbbench',
      format: 'dbbench-evidence-v1',
      stats: { tasks: 20, scored: 19, passed: passed.length, failures: failures.length, included: 4, excluded: { total: 1, byOutcome: { env_error: 1 } }, truncated: false },
    });
    expect(packet.stats.chars).toBe(packet.text.length);
    // System prompts never reach the packet.
    const system = records[0]!.messages[0] as Extract<ChatMessage, { role: 'system' }>;
    expect(packet.text).not.toContain(system.content.slice(0, 80));
  });

  it('is byte-identical for the same episodes, whatever their order, and for a fresh rerun of the same tasks', async () => {
    const first = buildFailurePacket(engineerInput(records)).text;
    const shuffled = [...records].reverse();
    expect(buildFailurePacket(engineerInput(shuffled, { taskIndices: [...TASKS].reverse() })).text).toBe(first);
    const rerun = await runSimBaseline(TASKS);
    expect(buildFailurePacket(engineerInput(rerun)).text).toBe(first);
  });

  it('never reads detail, steps or the hook trace: changing them changes nothing', () => {
    const before = buildFailurePacket(engineerInput(records)).text;
    const tampered = records.map((r) => ({
      ...clone(r),
      detail: { label: ['GROUND-TRUTH-SENTINEL'], ground_truth: 'GROUND-TRUTH-SENTINEL', std_sql: 'SELECT secret', answer_md5: 'f00d' },
      steps: [{ round: 1, tool: 'execute_sql', input: 'STEP-SENTINEL', observation: 'STEP-SENTINEL', status: 'executed' as const }],
      hookTrace: [{ round: 1, hook: 'on_init' as const, hookIndex: 0, effect: 'init', disposition: 'applied' as const, detail: 'TRACE-SENTINEL' }],
    }));
    const after = buildFailurePacket(engineerInput(tampered)).text;
    expect(after).toBe(before);
    expect(after).not.toMatch(/SENTINEL|secret|f00d/);
  });

  it('contains no label value that only the grader detail knows', () => {
    const packet = buildFailurePacket(engineerInput(records), { limits: { maxFailures: 20 } });
    const tasks = loadDbBenchSplit(resolveDataDir(), 'dev');
    const seen = records.flatMap((r) => r.messages.map((m) => (m.role === 'assistant' ? `${m.content ?? ''} ${JSON.stringify(m.toolCalls ?? [])}` : m.content))).join('\n');
    let checked = 0;
    for (const record of failuresOf(records)) {
      const task = tasks[record.task.index]!;
      if (task.kind !== 'query') continue;
      const detailText = JSON.stringify(record.detail);
      for (const label of task.label) {
        // A label that the grader verdict quotes but that no message ever showed: it must not leak.
        if (label.length < 3 || seen.includes(label) || !detailText.includes(label)) continue;
        expect(packet.text, `label of task ${record.task.index}`).not.toContain(label);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(0);
  });

  it('leaves infrastructure failures out and says how many were excluded', () => {
    const failure = failuresOf(records).find((r) => r.messages.length > 3)!;
    const infra = (index: number, outcome: 'model_error' | 'hook_fault'): EpisodeRecord => ({
      ...clone(failure),
      task: { ...failure.task, index },
      outcome,
      reward: 0,
      messages: [...clone(failure).messages, { role: 'user', content: `INFRA-SENTINEL ${outcome}` }],
    });
    const episodes = [...records, infra(20, 'model_error'), infra(21, 'hook_fault')];
    const packet = buildFailurePacket(engineerInput(episodes), { limits: { maxFailures: 50 } });
    const scored = records.filter((r) => !isInfraOutcome(r.outcome));
    expect(packet.text).toContain('- infrastructure failures excluded: 3 (model_error 1, env_error 1, hook_fault 1); they say nothing about the agent');
    expect(packet.text).toContain(`- baseline pass: ${scored.filter((r) => r.reward >= 1).length}/${scored.length} `);
    expect(packet.text).toContain('- outcomes: ');
    expect(packet.text).toMatch(/; excluded: model_error 1, env_error 1, hook_fault 1\n/);
    expect(packet.text).not.toContain('INFRA-SENTINEL');
    expect(traceIndices(packet.text)).not.toContain(20);
    expect(traceIndices(packet.text)).not.toContain(21);
    expect(traceIndices(packet.text)).not.toContain(5);
    expect(packet.stats.excluded).toEqual({ total: 3, byOutcome: { model_error: 1, env_error: 1, hook_fault: 1 } });
    expect(packet.stats.failures).toBe(failuresOf(records).length);
  });

  it('renders real traces within the message budget', () => {
    const packet = buildFailurePacket(engineerInput(records));
    const long = failuresOf(records).find((r) => r.messages.filter((m) => m.role !== 'system').length > 22);
    expect(long, 'a failing episode longer than 22 messages (a round-limit loop)').toBeDefined();
    const rendered = long!.messages.filter((m) => m.role !== 'system').length;
    expect(packet.text).toContain(`...[trace truncated] (${rendered - 22} more messages)`);
    for (const trace of packet.text.split('\n\n### ').slice(1)) {
      const entries = trace.split('\n').filter((line) => /^(USER|TOOL_RESULT|ASSISTANT_TEXT):/.test(line));
      expect(entries.length).toBeLessThanOrEqual(22);
    }
  });

  it('cuts the whole evidence at the total budget and the overview at its own', () => {
    const small = buildFailurePacket(engineerInput(records), { limits: { maxEvidenceChars: 2500 } });
    expect(small.text.length).toBeLessThanOrEqual(2500);
    expect(small.text.endsWith('\n...[evidence truncated]')).toBe(true);
    expect(small.stats.truncated).toBe(true);
    expect(small.stats.included).toBeLessThan(4);
    expect(small.stats.included).toBe(traceIndices(small.text).length);

    const overview = buildFailurePacket(engineerInput(records), { limits: { maxOverviewChars: 300 } }).text;
    const body = overview.split('## Existing Batch Overview\n\n')[1]!.split('\n\n## Failure Traces')[0]!;
    expect(body.length).toBeLessThanOrEqual(300);
    expect(body.endsWith('...[truncated]')).toBe(true);
  });

  it('says so when every scored task passed', () => {
    const passing = records.filter((r) => r.reward >= 1);
    const packet = buildFailurePacket(engineerInput(passing));
    expect(packet.text).toContain('## Failure Traces\n\nNo failures: every scored task reached the pass threshold.');
    expect(packet.text).toContain('- failing tasks: none');
    expect(packet.stats).toMatchObject({ failures: 0, included: 0 });
  });

  it('says that nothing was scored, not that everything passed, when every episode is an infrastructure failure', () => {
    const broken = records.slice(0, 4).map((r) => ({ ...r, outcome: 'model_error' as const, reward: 0 }));
    const packet = buildFailurePacket(engineerInput(broken));
    expect(packet.text).toContain('## Failure Traces\n\nNo scored tasks: every episode of this batch ended in an infrastructure failure');
    expect(packet.text).not.toContain('every scored task reached');
  });

  it('is the renderer each built-in benchmark names in its definition', () => {
    for (const name of TEST_REGISTRY.names()) expect(engineerBenchmark(name).packet.format).toBe(name === 'dbbench' ? 'dbbench-evidence-v1' : `${name}-trace-packet-v1`);
  });

});

describe('renderDbBenchTrace limits (protocol.md §2.4–2.5)', () => {
  const limits = {
    maxMessages: DBBENCH_EVIDENCE_LIMITS.maxMessagesPerTrace,
    maxToolResultChars: DBBENCH_EVIDENCE_LIMITS.maxToolResultChars,
    maxAssistantChars: DBBENCH_EVIDENCE_LIMITS.maxAssistantChars,
    maxUserChars: DBBENCH_EVIDENCE_LIMITS.maxUserChars,
    maxToolArgsChars: DBBENCH_EVIDENCE_LIMITS.maxToolArgsChars,
    maxCallsPerMessage: DBBENCH_EVIDENCE_LIMITS.maxCallsPerMessage,
  };
  const call = (id: string, query: string) => ({ id, name: 'execute_sql', arguments: JSON.stringify({ query }) });
  const messages: ChatMessage[] = [
    { role: 'system', content: 'SYSTEM PROMPT' },
    { role: 'user', content: `Question: ${'q'.repeat(3000)}` },
    { role: 'user', content: 'Evaluation metadata: hidden' },
    {
      role: 'assistant',
      content: 'a'.repeat(2000),
      toolCalls: [call('c1', `SELECT   ${'x'.repeat(2000)}\n\n FROM t`), call('c2', 'SELECT 2'), call('c3', 'SELECT 3'), call('c4', 'SELECT 4')],
    },
    { role: 'tool', toolCallId: 'c1', content: 'r'.repeat(5000) },
    ...Array.from({ length: 40 }, (_, i): ChatMessage => ({ role: 'tool', toolCallId: `c${i}`, content: `row ${i}` })),
  ];
  const evidence: EpisodeEvidence = { index: 7, outcome: 'wrong_answer', reward: 0, rounds: 3, messages };
  const lines = renderDbBenchTrace(evidence, limits, 'paths').split('\n');
  const field = (prefix: string) => lines.filter((l) => l.startsWith(prefix)).map((l) => l.slice(prefix.length));

  it('cuts each kind of text to its budget, marker included', () => {
    expect(lines[0]).toBe('### Trace index=7 status=wrong_answer reward=0.0 rounds=3');
    expect(field('USER: ')[0]).toHaveLength(900);
    expect(field('ASSISTANT_TEXT: ')[0]).toHaveLength(500);
    const [args] = field('ASSISTANT_TOOL execute_sql: ');
    expect(args).toHaveLength(600);
    expect(args).not.toMatch(/\s{2}|\n/);
    expect(field('TOOL_RESULT: ')[0]).toHaveLength(1200);
    for (const cut of [field('USER: ')[0], field('ASSISTANT_TEXT: ')[0], args, field('TOOL_RESULT: ')[0]]) expect(cut!.endsWith('...[truncated]')).toBe(true);
  });

  it('shows at most 2 calls per message, skips system and evaluation-metadata messages, and stops after 22 messages', () => {
    expect(field('ASSISTANT_TOOL execute_sql: ')).toHaveLength(2);
    expect(lines).toContain('ASSISTANT_TOOL ...[2 more tool calls not shown]');
    expect(lines.join('\n')).not.toMatch(/SYSTEM PROMPT|Evaluation metadata/);
    // 43 messages after the skipped ones; 22 are shown.
    expect(field('USER: ').length + field('TOOL_RESULT: ').length + 1).toBe(22);
    expect(lines.at(-1)).toBe('...[trace truncated] (21 more messages)');
  });

  it('masks local paths in DBBench traces but keeps product-like cell values', () => {
    const text = renderDbBenchTrace(
      { index: 1, outcome: 'wrong_answer', reward: 0, rounds: 1, messages: [{ role: 'tool', toolCallId: 'x', content: "Error: cannot open /home/alice/run/db.sqlite; value B012345678 at 'C:\\Users\\bob\\x'" }] },
      limits,
      'paths',
    );
    expect(text).toContain("TOOL_RESULT: Error: cannot open [PATH]; value B012345678 at '[PATH]'");
  });
});

describe('sanitizeEvidenceText', () => {
  it('masks local paths and, when asked, product ids; leaves URLs and ordinary text alone', () => {
    const text = 'see /tmp/run-1/out.json and (/mnt/data/x) B07XJ8C8F5 http://host/tmp/a a/home/b /tmpfoo';
    expect(sanitizeEvidenceText(text, 'none')).toBe(text);
    expect(sanitizeEvidenceText(text, 'paths')).toBe('see [PATH] and ([PATH]) B07XJ8C8F5 http://host/tmp/a a/home/b /tmpfoo');
    expect(sanitizeEvidenceText(text, 'paths_and_product_ids')).toBe('see [PATH] and ([PATH]) [PRODUCT_ID] http://host/tmp/a a/home/b /tmpfoo');
  });
});
