import { beforeAll, describe, expect, it } from 'vitest';

import { isInfraOutcome, type EpisodeRecord } from '../../../episode/index.js';
import { buildEngineerPrompt, EVIDENCE_MARKER } from '../../../engineer/engineer-prompt.js';
import { buildRevisionContext, REVISION_LIMITS } from './revision-context.js';
import type { PreviousAttempt } from '../../../engineer/previous-attempt.js';
import { engineerInput, runSimBaseline } from '../../../testing/sim-baseline.fixture.js';

let records: EpisodeRecord[];

beforeAll(async () => {
  records = await runSimBaseline(Array.from({ length: 20 }, (_, i) => i));
});

function attempt(overrides: Partial<PreviousAttempt> = {}): PreviousAttempt {
  return {
    result: { tasks: 19, baselinePass: 12, patchedPass: 11, delta: -1 / 19, status: 'valid' },
    flips: { correctToWrong: [9, 4], wrongToCorrect: [2] },
    rawOutput: `HEAD${'x'.repeat(30000)}TAIL`,
    patch: { benchmark: 'dbbench', description: 'd', actions: [] },
    ...overrides,
  };
}

const traceCount = (text: string) => (text.match(/^### Trace index=/gm) ?? []).length;

describe('buildRevisionContext (protocol.md §2.8)', () => {
  it('states the previous result, the flips and the facts, and middle-truncates the previous output', () => {
    const text = buildRevisionContext(attempt());
    expect(text.startsWith('## Second-pass revision context\n\n')).toBe(true);
    expect(text).toContain('- baseline pass: 12/19\n- patched pass: 11/19 (-1 tasks)\n- mean reward delta: -0.0526\n- status: valid');
    expect(text).toContain('for diagnosis only');
    expect(text).toContain('- correct → wrong: 4, 9\n- wrong → correct: 2');
    expect(text).toMatch(/\[\] after an INSERT, UPDATE or DELETE means the statement ran/);
    const output = text.split('### Previous raw output\n\n')[1]!.split('\n\n### Previous patch JSON')[0]!;
    expect(output).toHaveLength(REVISION_LIMITS.maxOutputChars);
    expect(output.startsWith('HEADx')).toBe(true);
    expect(output.endsWith('xTAIL')).toBe(true);
    expect(output).toContain('...[middle truncated]...');
    expect(text).toContain('### Previous patch JSON\n\n{\n  "benchmark": "dbbench",');
    expect(text).toContain('### Regression traces (correct without the patch, wrong with it)\n\n(none)');
    expect(text.trimEnd().endsWith('keep any on_before_action guard narrow.')).toBe(true);
  });

  it('shows at most 6 regression and 2 improvement traces of 34 messages, from messages only, without infrastructure failures', () => {
    const scored = records.filter((r) => !isInfraOutcome(r.outcome));
    const infra = records.filter((r) => isInfraOutcome(r.outcome));
    const tampered = scored.map((r) => ({ ...structuredClone(r), detail: { label: ['LABEL-SENTINEL'] } }));
    const text = buildRevisionContext(attempt({ regressions: [...tampered.slice(0, 8), ...infra], improvements: tampered.slice(8, 11) }));
    const regressions = text.split('### Regression traces')[1]!.split('### Improvement traces')[0]!;
    const improvements = text.split('### Improvement traces')[1]!.split('### What to do now')[0]!;
    expect(traceCount(regressions)).toBe(6);
    expect(regressions).toContain('...[2 more not shown]');
    expect(traceCount(improvements)).toBe(2);
    expect(improvements).toContain('...[1 more not shown]');
    expect(text).not.toContain('LABEL-SENTINEL');
    expect(regressions).not.toMatch(/index=5 /);
    for (const line of text.split('\n').filter((l) => l.startsWith('...[trace truncated]'))) {
      const more = Number(/\((\d+) more/.exec(line)?.[1]);
      expect(more).toBeGreaterThan(0);
    }
    // A 41-message round-limit loop keeps 34 messages.
    const long = tampered.slice(0, 8).find((r) => r.messages.length - 1 > 34);
    expect(long).toBeDefined();
    expect(text).toContain(`...[trace truncated] (${long!.messages.length - 1 - 34} more messages)`);
  });

  it('is appended after the evidence of the engineer prompt', () => {
    const previous = attempt({ rawOutput: 'short', patch: '{"benchmark": "dbbench"}' });
    const { prompt, packet } = buildEngineerPrompt(engineerInput(records), { protocol: 'prefill_think_patch', previous });
    expect(prompt.user.endsWith(`${EVIDENCE_MARKER}\n\n${packet.text}\n\n${buildRevisionContext(previous)}`)).toBe(true);
    expect(buildRevisionContext(previous)).toContain('### Previous patch JSON\n\n{"benchmark": "dbbench"}');
  });
});
