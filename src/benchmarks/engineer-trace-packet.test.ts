import { beforeAll, describe, expect, it } from 'vitest';

import { resolveDataDir } from '../config/data-dir.js';
import type { ChatMessage, EpisodeRecord } from '../episode/index.js';
import { loadSharedWebShopEngine } from '../environments/webshop/webshop-environment.js';
import { byRewardThenIndex, selectBatch, toEpisodeEvidence } from '../engineer/episode-evidence.js';
import { buildFailurePacket } from '../engineer/failure-packet.js';
import { ALFWORLD_PACKET_LIMITS, ALFWORLD_TRACE_STYLE } from './alfworld/engineer/alfworld-engineer.js';
import { alfworldSignalLines } from './alfworld/engineer/alfworld-signals.js';
import { WEBSHOP_PACKET_LIMITS, WEBSHOP_TRACE_STYLE } from './webshop/engineer/webshop-engineer.js';
import { webShopSignalLines } from './webshop/engineer/webshop-signals.js';
import { MIDDLE_CUT_MARK } from '../engineer/packet-text.js';
import { engineerInput, runSimTraceBaseline } from '../testing/sim-baseline.fixture.js';
import { approxTokens, renderTracePacket, renderTraceSection, TRACE_PACKET_TITLE, type TracePacketLimits, type TraceStyle } from '../engineer/trace-packet.js';
import { repeatedValues } from '../engineer/trace-signals.js';

type TraceBench = 'webshop' | 'alfworld';
const STYLES: Record<TraceBench, TraceStyle> = { webshop: WEBSHOP_TRACE_STYLE, alfworld: ALFWORLD_TRACE_STYLE };

const TASKS: Record<TraceBench, number[]> = {
  webshop: Array.from({ length: 16 }, (_, i) => i),
  alfworld: Array.from({ length: 10 }, (_, i) => i),
};
const LIMITS: Record<TraceBench, TracePacketLimits> = { webshop: WEBSHOP_PACKET_LIMITS, alfworld: ALFWORLD_PACKET_LIMITS };
const runs = {} as Record<TraceBench, EpisodeRecord[]>;

beforeAll(async () => {
  runs.webshop = await runSimTraceBaseline('webshop', TASKS.webshop);
  runs.alfworld = await runSimTraceBaseline('alfworld', TASKS.alfworld);
}, 120_000);

function input(bench: TraceBench, episodes: EpisodeRecord[] = runs[bench]) {
  return engineerInput(episodes, { bench, taskIndices: TASKS[bench] });
}

/** The text of every block that starts with `label` (up to the next block label). */
function blocks(text: string, label: string): string[] {
  const out: string[] = [];
  const re = new RegExp(`^${label}\\n([\\s\\S]*?)(?=\\n(?:USER:|OBSERVATION:|ASSISTANT_TEXT:|ASSISTANT_TOOL:|## |---)|(?![\\s\\S]))`, 'gm');
  for (const m of text.matchAll(re)) out.push((m[1] ?? '').replace(/\n+$/, ''));
  return out;
}

/** A copy of a record with its messages replaced. */
function withMessages(record: EpisodeRecord, messages: ChatMessage[], overrides: Partial<EpisodeRecord> = {}): EpisodeRecord {
  return { ...record, messages, ...overrides };
}

describe.each(['webshop', 'alfworld'] as const)('the %s failure packet from simulated no-harness episodes', (bench) => {
  it('has failures to show and renders the header, one section per failure and the footer', () => {
    const packet = buildFailurePacket(input(bench));
    const failures = runs[bench].filter((r) => r.reward < 1);
    expect(failures.length).toBeGreaterThan(0);
    expect(packet.format).toBe(`${bench}-trace-packet-v1`);
    expect(packet.text.startsWith(`${TRACE_PACKET_TITLE}\n\n`)).toBe(true);
    expect(packet.text).toContain(`- benchmark: ${bench}\n`);
    expect(packet.text).toContain(`- failures below reward 1.0000: ${failures.length}\n- traces included: ${failures.length}\n`);
    expect(packet.text.match(/^## Failure trace \d+$/gm)).toHaveLength(failures.length);
    expect(packet.stats).toMatchObject({ tasks: TASKS[bench].length, failures: failures.length, included: failures.length, truncated: false, chars: packet.text.length });
    const [body, footer] = packet.text.split('\n\n---\n');
    expect(footer).toBe(`Traces included: ${failures.length} of ${failures.length}. Approximate size: ${approxTokens(body ?? '')} tokens (characters / 4).`);
    expect(approxTokens(body ?? '')).toBeLessThanOrEqual(LIMITS[bench].maxApproxTokens);
  });

  it('is byte-identical for the same episodes, in any order, and for a second identical run', async () => {
    const a = buildFailurePacket(input(bench)).text;
    expect(buildFailurePacket(input(bench, [...runs[bench]].reverse())).text).toBe(a);
    const again = await runSimTraceBaseline(bench, TASKS[bench]);
    expect(buildFailurePacket(input(bench, again)).text).toBe(a);
  });

  it('orders traces by lowest reward first, then task order, and never prints a task index', () => {
    const packet = buildFailurePacket(input(bench));
    const rewards = [...packet.text.matchAll(/^- final_reward: (\d\.\d{4})$/gm)].map((m) => Number(m[1]));
    expect(rewards).toEqual([...rewards].sort((x, y) => x - y));
    const selection = selectBatch(input(bench));
    const expected = [...selection.failures].sort(byRewardThenIndex).map((e, i) => renderTraceSection(STYLES[bench], e, i + 1, LIMITS[bench]));
    for (const section of expected) expect(packet.text).toContain(section);
    let at = -1;
    for (const section of expected) {
      const next = packet.text.indexOf(section);
      expect(next).toBeGreaterThan(at);
      at = next;
    }
    expect(packet.text).not.toMatch(/\bindex\b/i);
  });

  it('keeps every observation and assistant text within its budget and drops system and later user messages', () => {
    const limits = LIMITS[bench];
    const packet = buildFailurePacket(input(bench));
    const observations = blocks(packet.text, 'OBSERVATION:');
    expect(observations.length).toBeGreaterThan(0);
    for (const o of observations) expect(o.length).toBeLessThanOrEqual(limits.maxObservationChars);
    expect(observations.some((o) => o.includes(MIDDLE_CUT_MARK))).toBe(true);
    for (const t of blocks(packet.text, 'ASSISTANT_TEXT:')) expect(t.length).toBeLessThanOrEqual(limits.maxAssistantChars);
    expect(packet.text).not.toMatch(/\n{3,}/);
    const systemText = runs[bench][0]?.messages[0];
    expect(systemText?.role).toBe('system');
    expect(packet.text).not.toContain((systemText?.content ?? '').trim().slice(0, 60));

    const failing = runs[bench].find((r) => r.reward < 1) as EpisodeRecord;
    const messages: ChatMessage[] = [
      ...failing.messages,
      { role: 'user', content: 'LATER HARNESS NUDGE: try again' },
      { role: 'user', content: 'Evaluation metadata: kept by the rule' },
      { role: 'assistant', content: 'x'.repeat(5000) },
    ];
    const text = buildFailurePacket(input(bench, [withMessages(failing, messages)])).text;
    expect(text).not.toContain('LATER HARNESS NUDGE');
    expect(text).toContain('USER:\nEvaluation metadata: kept by the rule');
    expect(text).toContain(`ASSISTANT_TEXT:\n${'x'.repeat(limits.maxAssistantChars - 14)}...[truncated]`);
  });

  it('applies maxTraces and the approximate-token budget, always keeping the first trace', () => {
    const failures = runs[bench].filter((r) => r.reward < 1).length;
    const capped = buildFailurePacket(input(bench), { limits: { maxTraces: 1 } });
    expect(capped.stats).toMatchObject({ included: 1, truncated: failures > 1 });
    expect(capped.text).toContain(`Traces included: 1 of ${failures}.`);
    const tiny = buildFailurePacket(input(bench), { limits: { maxApproxTokens: 10 } });
    expect(tiny.stats.included).toBe(1);
    expect(tiny.text.match(/^## Failure trace \d+$/gm)).toEqual(['## Failure trace 1']);
    const selection = selectBatch(input(bench));
    for (const budget of [600, 1500, 4000]) {
      const rendered = renderTracePacket(STYLES[bench], selection, { ...LIMITS[bench], maxApproxTokens: budget });
      const body = rendered.text.split('\n\n---\n')[0] ?? '';
      if (rendered.included > 1) expect(approxTokens(body)).toBeLessThanOrEqual(budget);
      const more = renderTracePacket(STYLES[bench], selection, { ...LIMITS[bench], maxApproxTokens: budget * 4 });
      expect(more.included).toBeGreaterThanOrEqual(rendered.included);
    }
  });

  it('excludes infrastructure failures, counting them in the header', () => {
    const failing = runs[bench].find((r) => r.reward < 1) as EpisodeRecord;
    const broken = withMessages(failing, [...failing.messages, { role: 'user', content: 'CANARY-INFRA-MESSAGE' }], {
      task: { ...failing.task, index: 99 },
      outcome: 'model_error',
    });
    const packet = buildFailurePacket(engineerInput([...runs[bench], broken], { bench, taskIndices: [...TASKS[bench], 99, 100] }));
    expect(packet.text).not.toContain('CANARY-INFRA-MESSAGE');
    expect(packet.text).toContain('- infrastructure failures left out: 1 (model_error 1); they say nothing about the agent\n- tasks without an episode: 1\n');
    expect(packet.stats.excluded).toEqual({ total: 1, byOutcome: { model_error: 1 } });
    expect(packet.stats.included).toBe(buildFailurePacket(input(bench)).stats.included);
  });

  it('never reads detail and masks product ids and local paths', () => {
    const canary = runs[bench].map((r) => ({ ...r, detail: { purchasedAsin: 'B0CANARY00', goal: 'CANARY-GOAL', gameId: 'CANARY-GAME' } }));
    const text = buildFailurePacket(input(bench)).text;
    expect(buildFailurePacket(input(bench, canary)).text).toBe(text);
    for (const record of runs[bench]) {
      for (const value of Object.values(record.detail ?? {})) {
        if (typeof value === 'string' && value.length >= 6) expect(text).not.toContain(value);
      }
    }
    expect(text).not.toMatch(/\b[Bb]0[A-Za-z0-9]{8}\b/);
    const failing = runs[bench].find((r) => r.reward < 1) as EpisodeRecord;
    const leaked: ChatMessage[] = [
      ...failing.messages,
      { role: 'tool', toolCallId: 'x', content: 'saved to /home/alice/run/out.json and /mnt/data/x, product B07XJ8C8F5, clicked b07xj8c8f5' },
    ];
    const masked = buildFailurePacket(input(bench, [withMessages(failing, leaked)])).text;
    expect(masked).toContain('saved to [PATH] and [PATH], product [PRODUCT_ID], clicked [PRODUCT_ID]');
  });
});

describe('WebShop specifics', () => {
  it('shows no goal ASIN and masks every product id of the result pages and clicks', () => {
    const engine = loadSharedWebShopEngine(resolveDataDir());
    const text = buildFailurePacket(input('webshop')).text;
    for (const index of TASKS.webshop) {
      const goal = engine.goalSet.goals[index];
      expect(goal).toBeDefined();
      expect(text.toLowerCase()).not.toContain(goal?.asin.toLowerCase());
    }
    expect(text).toContain('[PRODUCT_ID]');
    expect(text).toContain('Keep the patch free of anything specific to these tasks: no product ids, ASINs, exact product titles');
  });

  it('counts searches, clicks, buy now, text-only turns and repeated searches', () => {
    const base = runs.webshop[0] as EpisodeRecord;
    const call = (name: string, value: string, id: string): ChatMessage => ({
      role: 'assistant',
      content: null,
      toolCalls: [{ id, name, arguments: JSON.stringify(name === 'search_action' ? { keywords: value } : { value }) }],
    });
    const messages: ChatMessage[] = [
      { role: 'system', content: 's' },
      { role: 'user', content: 'task' },
      call('search_action', 'red shoes', 'a'),
      call('search_action', 'Red  Shoes', 'b'),
      call('click_action', 'buy now', 'c'),
      { role: 'assistant', content: 'thinking aloud' },
    ];
    const lines = webShopSignalLines(toEpisodeEvidence(withMessages(base, messages, { outcome: 'round_limit', reward: 0 })));
    expect(lines).toEqual([
      '- actions: 3 (search 2, click 1, buy now 1)',
      '- text-only assistant turns: 1',
      '- repeated search terms: "red shoes" x2',
      '- task_limit_reached: true',
    ]);
    expect(repeatedValues(['a', 'b', 'b', 'a', 'c', 'b'])).toEqual([
      { value: 'b', count: 3 },
      { value: 'a', count: 2 },
    ]);
  });
});

describe('ALFWorld specifics', () => {
  it('forbids numbered instances in its no-leak line and counts failed and repeated actions', () => {
    const text = buildFailurePacket(input('alfworld')).text;
    expect(text).toContain('no numbered object or receptacle instances such as "sinkbasin 1"');
    const failing = runs.alfworld.find((r) => r.reward < 1) as EpisodeRecord;
    const lines = alfworldSignalLines(toEpisodeEvidence(failing));
    expect(lines[0]).toMatch(/^- actions: \d+ \(take_action \d+\)$/);
    expect(lines).toContainEqual(expect.stringMatching(/^- observations with "nothing happens": \d+$/));
    expect(lines).toContainEqual(expect.stringMatching(/^- observations total\/distinct: \d+\/\d+$/));
    const masked = lines.map((line) => line.replace(/\b([a-z]+) \d{1,3}\b/g, (whole, name: string) => (name === 'loc' ? whole : `${name} [`)));
    for (const line of masked) expect(text).toContain(line.split(' [')[0]);
  });

  it('masks instance numbers everywhere: per trace, each distinct instance gets its own letter', () => {
    const text = buildFailurePacket(input('alfworld')).text;
    const sections = text.split(/^## Failure trace \d+$/m).slice(1);
    expect(sections.length).toBeGreaterThan(0);
    for (const section of sections) {
      expect(section.match(/\b(?!loc |of )[a-z]+ \d{1,3}\b(?!\.\d)/g)).toBeNull();
      expect(section).toMatch(/\b[a-z]+ \[a\]/);
    }
    // The agent's own command and the observation that lists the same receptacle use the same label.
    const first = sections[0] ?? '';
    const goTo = /ASSISTANT_TOOL: take_action \{"action":"go to ([a-z]+ \[[a-z]+\])"\}/.exec(first);
    if (goTo) expect(first).toContain(`a ${goTo[1]}`);
  });

  it('renders a v0.2 text-protocol episode: the preamble is left out, later user turns are observations, actions come from ACTION lines', () => {
    const base = runs.alfworld.find((r) => r.reward < 1) as EpisodeRecord;
    const messages: ChatMessage[] = [
      { role: 'user', content: 'Interact with a household to solve a task. (instructions)' },
      { role: 'assistant', content: 'OK.' },
      { role: 'user', content: 'Here is one example.\nYou are in the middle of a room. ONE-SHOT' },
      { role: 'assistant', content: 'THOUGHT: example.\nACTION: go to shelf 1' },
      { role: 'user', content: 'Here is your task. You are in the middle of a room. Looking quickly around you, you see a cabinet 2, a cabinet 1.\nYour task is to: put a mug in cabinet. AVAILABLE ACTIONS: go to cabinet 1\ngo to cabinet 2\n' },
      { role: 'assistant', content: 'THOUGHT: look in a cabinet.\nACTION: go to cabinet 2' },
      { role: 'user', content: 'The cabinet 2 is closed. AVAILABLE ACTIONS: open cabinet 2\n' },
      { role: 'assistant', content: 'ACTION: go to cabinet 2' },
      { role: 'user', content: 'Nothing happens. AVAILABLE ACTIONS: open cabinet 2\n' },
      { role: 'assistant', content: 'I am not sure what to do.' },
    ];
    const record = withMessages(base, messages, { preamble: 4, outcome: 'invalid_action', reward: 0 });
    const section = renderTraceSection(ALFWORLD_TRACE_STYLE, toEpisodeEvidence(record), 1, ALFWORLD_PACKET_LIMITS);
    expect(section).not.toContain('ONE-SHOT');
    expect(section).not.toContain('(instructions)');
    expect(blocks(section, 'USER:')).toEqual(['Here is your task. You are in the middle of a room. Looking quickly around you, you see a cabinet [a], a cabinet [b].\nYour task is to: put a mug in cabinet. AVAILABLE ACTIONS: go to cabinet [b]\ngo to cabinet [a]']);
    expect(blocks(section, 'OBSERVATION:')).toEqual(['The cabinet [a] is closed. AVAILABLE ACTIONS: open cabinet [a]', 'Nothing happens. AVAILABLE ACTIONS: open cabinet [a]']);
    expect(blocks(section, 'ASSISTANT_TEXT:')).toHaveLength(3);
    expect(section).toContain('- actions: 2 (take_action 2)\n- observations with "nothing happens": 1\n- text-only assistant turns: 1\n- repeated actions: "go to cabinet [a]" x2\n- observations total/distinct: 2/2');
  });
});

describe('WebShop v0.2 text protocol', () => {
  it('counts searches and clicks from Action lines as the protocol parses them, and masks no instance numbers', () => {
    const base = runs.webshop.find((r) => r.reward < 1) as EpisodeRecord;
    const messages: ChatMessage[] = [
      { role: 'user', content: 'You are web shopping. (rules)' },
      { role: 'assistant', content: 'Ok.' },
      { role: 'user', content: 'Observation:\n"WebShop [SEP] Instruction: [SEP] size 8 sandals [SEP] Search"\n\nAvailable Actions:\n{"has_search_bar": true, "clickables": ["..."]}' },
      { role: 'assistant', content: 'Thought: example\nAction: search[example]' },
      { role: 'user', content: "Observation:\nWebShop [SEP] Instruction: [SEP] i need flat sandals size 8 [SEP] Search\n\nAvailable Actions:\n{'has_search_bar': True, 'clickables': ['search']}" },
      { role: 'assistant', content: 'Thought: search.\nAction:\n search[flat sandals size 8]' },
      { role: 'user', content: 'Observation:\nresults page 1' },
      { role: 'assistant', content: 'action: search[flat sandals size 8]' },
      { role: 'user', content: 'Observation:\nresults page 1' },
      { role: 'assistant', content: 'Action: click[B012345678]' },
    ];
    const record = withMessages(base, messages, { preamble: 4, outcome: 'round_limit', reward: 0 });
    const section = renderTraceSection(WEBSHOP_TRACE_STYLE, toEpisodeEvidence(record), 1, WEBSHOP_PACKET_LIMITS);
    expect(section).toContain('- actions: 3 (search 2, click 1, buy now 0)\n- text-only assistant turns: 0\n- repeated search terms: "flat sandals size 8" x2\n- task_limit_reached: true');
    expect(section).toContain('size 8');
    expect(section).toContain('click[[PRODUCT_ID]]');
    expect(section).not.toContain('(rules)');
  });
});
