import { beforeAll, describe, expect, it } from 'vitest';

import type { EpisodeRecord } from '../episode/index.js';
import { buildEngineerPrompt, EVIDENCE_MARKER } from '../engineer/engineer-prompt.js';
import { toEpisodeEvidence } from '../engineer/episode-evidence.js';
import { ALFWORLD_PACKET_LIMITS, ALFWORLD_TRACE_STYLE } from './alfworld/engineer/alfworld-engineer.js';
import { WEBSHOP_PACKET_LIMITS, WEBSHOP_TRACE_STYLE } from './webshop/engineer/webshop-engineer.js';
import { MIDDLE_CUT_MARK } from '../engineer/packet-text.js';
import { buildRevisionContext } from './dbbench/engineer/revision-context.js';
import type { PreviousAttempt } from '../engineer/previous-attempt.js';
import { engineerInput, runSimTraceBaseline } from '../testing/sim-baseline.fixture.js';
import { renderTraceSection, type TracePacketLimits, type TraceStyle } from '../engineer/trace-packet.js';

type TraceBench = 'webshop' | 'alfworld';
const STYLES: Record<TraceBench, TraceStyle> = { webshop: WEBSHOP_TRACE_STYLE, alfworld: ALFWORLD_TRACE_STYLE };
const LIMITS: Record<TraceBench, TracePacketLimits> = { webshop: WEBSHOP_PACKET_LIMITS, alfworld: ALFWORLD_PACKET_LIMITS };
import { batchPositions, buildTraceRevisionContext, renderTraceRevisionContext, TRACE_REVISION_LIMITS } from '../engineer/trace-revision-context.js';

/**
 * Baseline episodes of the simulated targets, renumbered to task indices that cannot appear by chance
 * (91xx), with a `detail` that carries sentinels where grader verdicts and goal data would be.
 */
const INDICES = [9103, 9117, 9124, 9138, 9145, 9159, 9162, 9176];
const runs = {} as Record<TraceBench, EpisodeRecord[]>;

function renumber(records: EpisodeRecord[]): EpisodeRecord[] {
  return records.map((r, i) => ({
    ...structuredClone(r),
    task: { ...r.task, index: INDICES[i]! },
    detail: { ...r.detail, verdict: 'DETAIL-SENTINEL', goal: { instruction: 'GOAL-SENTINEL', asin: 'B0GOALASIN' } },
  }));
}

beforeAll(async () => {
  const tasks = INDICES.map((_, i) => i);
  runs.alfworld = renumber(await runSimTraceBaseline('alfworld', tasks));
  runs.webshop = renumber(await runSimTraceBaseline('webshop', tasks));
}, 120_000);

const failing = (bench: TraceBench) => runs[bench].filter((r) => r.reward < 1);
const passing = (bench: TraceBench) => runs[bench].filter((r) => r.reward >= 1);

const PATCH = {
  benchmark: 'alfworld',
  description: 'Track the stage and hint once per stage.',
  actions: [
    { type: 'add_code_hook', hook: 'on_init', code: 'def hook(ctx, nb):\n    nb["stage"] = "find"\n    return None\n' },
    { type: 'add_code_hook', hook: 'make_pre_hint', code: 'def hook(ctx, nb):\n    return {"message": "Check the admissible actions first."}\n' },
  ],
};

/** Regressions: the first two failing episodes (as if they had passed before); still failing: the rest. */
function attempt(bench: TraceBench, overrides: Partial<PreviousAttempt> = {}): PreviousAttempt {
  const fails = failing(bench);
  return {
    result: { tasks: 8, baselinePass: 5, patchedPass: 4, delta: -0.125, status: 'scored', baselineMean: 0.625, patchedMean: 0.5 },
    flips: { correctToWrong: fails.slice(0, 2).map((r) => r.task.index), wrongToCorrect: [passing(bench)[0]!.task.index] },
    rawOutput: 'RAW-OUTPUT-SENTINEL',
    patch: { ...PATCH, benchmark: bench },
    regressions: fails.slice(0, 2),
    improvements: passing(bench).slice(0, 1),
    stillFailing: fails.slice(2),
    ...overrides,
  };
}

const positionOf = (bench: TraceBench, record: EpisodeRecord) => runs[bench].indexOf(record) + 1;
/** What fills the traces placeholder: after the heading and its one-paragraph note, up to the next heading. */
const tracePart = (text: string) => text.split('### Traces of the patched run\n\n')[1]!.split('\n\n### What to do now')[0]!.split('\n\n').slice(1).join('\n\n');
const sections = (text: string) => tracePart(text).split(/\n\n(?=## Patched-run trace \d+:)/).filter((s) => s.startsWith('## Patched-run trace'));

function rawText(records: readonly EpisodeRecord[]): string {
  return records.flatMap((r) => r.messages.map((m) => `${m.content ?? ''} ${(m.role === 'assistant' ? (m.toolCalls ?? []) : []).map((c) => c.arguments).join(' ')}`)).join('\n');
}

function expectNoLeaks(text: string): void {
  for (const index of INDICES) expect(text).not.toContain(String(index));
  expect(text).not.toContain('DETAIL-SENTINEL');
  expect(text).not.toContain('GOAL-SENTINEL');
  expect(text).not.toContain('B0GOALASIN');
  expect(text).not.toContain('RAW-OUTPUT-SENTINEL');
  expect(text).not.toMatch(/valid_unseen|webshopTaskManifest|goalSeed/);
}

describe('buildTraceRevisionContext (WebShop and ALFWorld second pass)', () => {
  it('shows the previous patch, its batch result and the flips by position in the batch', () => {
    const previous = attempt('alfworld');
    const text = buildTraceRevisionContext(STYLES.alfworld, previous, { taskIndices: INDICES, sectionLimits: LIMITS.alfworld });
    expect(text.startsWith('## Second-pass revision context\n\n')).toBe(true);
    expect(text).toContain('the same ALFWorld tasks were played again');
    expect(text).toContain('- status: scored\n- scored tasks: 8\n- passes: baseline 5/8, patched 4/8 (-1)\n- mean reward: baseline 0.6250, patched 0.5000 (-0.1250)');
    const [a, b] = failing('alfworld').map((r) => positionOf('alfworld', r));
    expect(text).toContain(`- regressed (passed without the patch, fail with it): ${a}, ${b}\n- rescued (failed without the patch, pass with it): ${positionOf('alfworld', passing('alfworld')[0]!)}`);
    expect(text).toContain(`### Previous patch JSON\n\n${JSON.stringify(previous.patch, null, 2)}\n`);
    expect(text.trimEnd().endsWith('object instance or trace.')).toBe(true);
    expectNoLeaks(text);
  });

  it('renders patched-run traces with the failure packet renderer: regressions first, then still failing, ALFWorld instances masked', () => {
    const previous = attempt('alfworld');
    const { text, traces } = renderTraceRevisionContext(STYLES.alfworld, previous, { taskIndices: INDICES, sectionLimits: LIMITS.alfworld });
    const fails = failing('alfworld');
    expect(fails.length).toBeGreaterThanOrEqual(3);
    expect(traces).toEqual({ shown: Math.min(fails.length, TRACE_REVISION_LIMITS.maxTraces), candidates: fails.length });
    const shown = sections(text);
    expect(shown).toHaveLength(traces.shown);
    // Regressions in batch order, then the still-failing episodes lowest reward first (all 0 here: batch order).
    shown.forEach((section, i) => {
      const record = fails[i]!;
      const kind = i < 2 ? 'passed without the patch, fails with it' : 'failed without the patch, still fails with it';
      expect(section.split('\n')[0]).toBe(`## Patched-run trace ${i + 1}: task ${positionOf('alfworld', record)} of the batch (${kind})`);
      const body = renderTraceSection(ALFWORLD_TRACE_STYLE, toEpisodeEvidence(record), i + 1, ALFWORLD_PACKET_LIMITS).split('\n').slice(1).join('\n');
      expect(section.split('\n').slice(1).join('\n')).toBe(body);
    });
    // The agent saw numbered instances; the context never shows one.
    const instance = /\b(cabinet|countertop|drawer|shelf|sinkbasin|toilet|desk|sidetable|diningtable|garbagecan|fridge|microwave|stoveburner|coffeemachine|dresser|bed|armchair|sofa|safe|bathtubbasin|towelholder|handtowelholder|toiletpaperhanger|soapbottle|soapbar|cloth|pan|mug|pencil|saltshaker|cart|countertop) \d{1,3}\b/;
    expect(rawText(fails)).toMatch(instance);
    expect(text).not.toMatch(instance);
    expect(tracePart(text)).toMatch(/\w+ \[a\]/);
    expectNoLeaks(text);
  });

  it('masks WebShop product ids in traces and in the patch, and never shows detail, goal data or task indices', () => {
    const previous = attempt('webshop', { patch: { ...PATCH, benchmark: 'webshop', description: 'Never buy B07ABCDE12 again; see /home/someone/notes.txt.' } });
    const text = buildTraceRevisionContext(STYLES.webshop, previous, { taskIndices: INDICES, sectionLimits: LIMITS.webshop });
    const fails = failing('webshop');
    expect(rawText(fails)).toMatch(/\b[Bb]0[A-Za-z0-9]{8}\b/);
    expect(text).not.toMatch(/\b[Bb]0[A-Za-z0-9]{8}\b/);
    expect(text).toContain('"description": "Never buy [PRODUCT_ID] again; see [PATH]"');
    expect(text).toContain('the same WebShop tasks were played again');
    expect(sections(text)[0]!.split('\n').slice(1).join('\n')).toBe(
      renderTraceSection(WEBSHOP_TRACE_STYLE, toEpisodeEvidence(fails[0]!), 1, WEBSHOP_PACKET_LIMITS).split('\n').slice(1).join('\n'),
    );
    expectNoLeaks(text);
  });

  it('keeps within its budgets: at most maxTraces traces, maxTraceChars characters, infrastructure failures left out', () => {
    const fails = failing('webshop');
    const infra = { ...structuredClone(fails[0]!), task: { ...fails[0]!.task, index: INDICES[7]! }, outcome: 'model_error' as const };
    const previous = attempt('webshop', { stillFailing: [...fails.slice(2), infra] });
    const two = renderTraceRevisionContext(STYLES.webshop, previous, { taskIndices: INDICES, sectionLimits: LIMITS.webshop, limits: { maxTraces: 2 } });
    expect(two.traces).toEqual({ shown: 2, candidates: fails.length });
    expect(sections(two.text)).toHaveLength(2);
    expect(tracePart(two.text).endsWith(`...[${fails.length - 2} more patched-run trace(s) not shown]`)).toBe(true);

    const tight = renderTraceRevisionContext(STYLES.webshop, previous, { taskIndices: INDICES, sectionLimits: LIMITS.webshop, limits: { maxTraceChars: 1500, maxPatchChars: 120 } });
    expect(tight.traces.shown).toBe(1);
    const part = tracePart(tight.text);
    expect(part.length).toBeLessThanOrEqual(1500);
    expect(part).toContain(MIDDLE_CUT_MARK);
    expect(part.endsWith(`...[${fails.length - 1} more patched-run trace(s) not shown]`)).toBe(true);
    expect(tight.text.split('### Previous patch JSON\n\n')[1]!.split('\n\n### Traces')[0]!).toHaveLength(120);

    const none = buildTraceRevisionContext(STYLES.webshop, attempt('webshop', { regressions: [], stillFailing: [infra] }), { taskIndices: INDICES, sectionLimits: LIMITS.webshop });
    expect(tracePart(none)).toBe('(none: no scored episode of the patched run failed)');
  });

  it('names tasks by their 1-based position in the sorted batch', () => {
    expect([...batchPositions([30, 10, 20, 10])]).toEqual([
      [10, 1],
      [20, 2],
      [30, 3],
    ]);
  });
});

describe('the revision context in the engineer prompt', () => {
  it.each(['alfworld', 'webshop'] as const)('%s: appended after the packet; system text and static prefix unchanged', (bench) => {
    const input = engineerInput(runs[bench], { bench, taskIndices: INDICES });
    const previous = attempt(bench);
    const first = buildEngineerPrompt(input, { protocol: 'prefill_think_patch' });
    const second = buildEngineerPrompt(input, { protocol: 'prefill_think_patch', previous });
    expect(second.prompt.user).toBe(`${first.prompt.user}\n\n${buildTraceRevisionContext(STYLES[bench], previous, { taskIndices: INDICES, sectionLimits: LIMITS[bench] })}`);
    expect(second.prompt.user.endsWith(`${EVIDENCE_MARKER}\n\n${second.packet.text}\n\n${buildTraceRevisionContext(STYLES[bench], previous, { taskIndices: INDICES, sectionLimits: LIMITS[bench] })}`)).toBe(true);
    expect(second.prompt.system).toBe(first.prompt.system);
    expect(second.prompt.staticPrefixSha256).toBe(first.prompt.staticPrefixSha256);
    expectNoLeaks(second.prompt.user);
  });

  it('leaves the DBBench section as it was: the fields added for the trace benchmarks are ignored there', () => {
    const base: PreviousAttempt = { result: { tasks: 4, baselinePass: 2, patchedPass: 3, delta: 0.25, status: 'scored' }, flips: { correctToWrong: [], wrongToCorrect: [7] }, rawOutput: 'r', patch: { benchmark: 'dbbench' } };
    const extended: PreviousAttempt = { ...base, result: { ...base.result, baselineMean: 0.5, patchedMean: 0.75 }, stillFailing: failing('alfworld') };
    expect(buildRevisionContext(extended)).toBe(buildRevisionContext(base));
  });
});
