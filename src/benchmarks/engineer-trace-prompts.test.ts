import { beforeAll, describe, expect, it } from 'vitest';

import type { EpisodeRecord } from '../episode/index.js';
import { AlfworldEpisodeState, buildAlfworldHookContext } from '../environments/alfworld/alfworld-hook-context.js';
import { buildWebShopHookContext, WebShopEpisodeState } from '../environments/webshop/webshop-hook-context.js';
import {
  buildEngineerPrompt,
  EVIDENCE_MARKER,
  PREFILL_THINK,
  renderEngineerPrompt,
  splitAtEvidenceMarker,
} from '../engineer/engineer-prompt.js';
import { PROMPT_VERSION } from '../engineer/prompt-templates.js';
import { engineerInput, runSimTraceBaseline, engineerBenchmark } from '../testing/sim-baseline.fixture.js';

const PREFILL_SENTENCE = 'Your thinking block has already been opened for you.';
const SECTIONS = [
  '## Patch format',
  '## The hooks',
  '## Code rules',
  '## No leakage',
  '## What a good patch looks like',
  '## The ctx of',
  '## Your reasoning',
  EVIDENCE_MARKER,
];

let webshop: EpisodeRecord[];
let alfworld: EpisodeRecord[];

beforeAll(async () => {
  webshop = await runSimTraceBaseline('webshop', [0, 1, 2, 3, 4, 5]);
  alfworld = await runSimTraceBaseline('alfworld', [0, 1, 2, 3]);
}, 120_000);

function expectInOrder(text: string, parts: readonly string[]): void {
  let at = -1;
  for (const part of parts) {
    const next = text.indexOf(part, at + 1);
    expect(next, part).toBeGreaterThan(at);
    at = next;
  }
}

/** Every key of the top level and of the nested objects of a real hook ctx. */
function ctxNames(ctx: Record<string, unknown>, nested: readonly string[]): string[] {
  const names = Object.keys(ctx);
  for (const key of nested) {
    const value = ctx[key];
    expect(typeof value, key).toBe('object');
    names.push(...Object.keys(value as Record<string, unknown>));
  }
  return names;
}

describe('the WebShop engineer prompt (webshop_life_multihook_v1)', () => {
  it('is system + user with scope, prefill sentence, format, marker and packet in order (prefill)', () => {
    const { prompt, packet } = buildEngineerPrompt(engineerInput(webshop, { bench: 'webshop' }), { protocol: 'prefill_think_patch' });
    expect(prompt).toMatchObject({ version: PROMPT_VERSION, bench: 'webshop', protocol: 'prefill_think_patch', schemaStyle: 'webshop_life_multihook_v1', prefill: PREFILL_THINK });
    expect(prompt.messages.map((m) => m.role)).toEqual(['system', 'user']);
    expect(prompt.system).toContain('WebShop');
    expect(prompt.system).toContain('"actions" list is mandatory');
    expect(prompt.user.startsWith('Scope: you edit only the reusable WebShop harness')).toBe(true);
    expectInOrder(prompt.user, ['Scope:', PREFILL_SENTENCE, '## Patch format (WebShop, code hooks only)', ...SECTIONS.slice(1)]);
    expect(prompt.user).toContain('write exactly one <patch> block that holds one JSON object');
    expect(prompt.user).toContain('a list of 1 to 4 actions');
    expect(splitAtEvidenceMarker(prompt.user)?.rest).toBe(`\n${packet.text}`);
    expect(prompt.user.match(new RegExp(`^${EVIDENCE_MARKER}$`, 'gm'))).toHaveLength(1);
  });

  it('has a full variant: other system text, no prefill sentence, the full output contract, no prefill', () => {
    const full = renderEngineerPrompt({ benchmark: engineerBenchmark('webshop'), protocol: 'full_think_patch', evidence: 'EVIDENCE' });
    const prefill = renderEngineerPrompt({ benchmark: engineerBenchmark('webshop'), protocol: 'prefill_think_patch', evidence: 'EVIDENCE' });
    expect(full.prefill).toBeUndefined();
    expect(full.system).not.toBe(prefill.system);
    expect(full.system).toContain('exactly two blocks, first <think> and then <patch>');
    expect(full.user).not.toContain(PREFILL_SENTENCE);
    expect(full.user).toContain('Output contract: first a <think> block');
    expectInOrder(full.user, ['Scope:', '## Patch format (WebShop', ...SECTIONS.slice(1)]);
    expect(full.user.endsWith(`\n${EVIDENCE_MARKER}\n\nEVIDENCE`)).toBe(true);
    expect(full.staticPrefixSha256).not.toBe(prefill.staticPrefixSha256);
    expect(renderEngineerPrompt({ benchmark: engineerBenchmark('webshop'), protocol: 'full_think_patch', evidence: 'OTHER' }).staticPrefixSha256).toBe(full.staticPrefixSha256);
  });

  it('names every ctx key and predicate of the real WebShop hook context, the stages and the no-leak rules', () => {
    const state = new WebShopEpisodeState('WebShop [SEP] Instruction: [SEP] i need a red shirt, and price lower than 30.00 dollars [SEP] Search', true, ['search']);
    const ctx = buildWebShopHookContext({ hook: 'make_pre_hint', round: 1, remaining: 20 }, state, 20);
    const { user } = renderEngineerPrompt({ benchmark: engineerBenchmark('webshop'), protocol: 'prefill_think_patch', evidence: 'E' });
    const names = ctxNames(ctx, ['action', 'state', 'task', 'webshop', 'predicates']);
    expect(names.length).toBeGreaterThan(35);
    for (const name of names) expect(user, name).toContain(name);
    for (const stage of ['search_query', 'inspect_results', 'inspect_product', 'select_options', 'budget_check', 'buy', 'recover_search_loop']) expect(user).toContain(stage);
    for (const hook of ['on_init', 'on_post_step', 'make_pre_hint', 'on_before_action']) expect(user).toContain(hook);
    expect(user).toContain('Never put product ids, ASINs, exact product titles, task indices');
  });
});

describe('the ALFWorld engineer prompt (alfworld_life_multihook_v1)', () => {
  it('always uses the full wording: same system and user text for both protocols, no prefill sentence', () => {
    const input = engineerInput(alfworld, { bench: 'alfworld' });
    const prefill = buildEngineerPrompt(input, { protocol: 'prefill_think_patch' });
    const full = buildEngineerPrompt(input, { protocol: 'full_think_patch' });
    expect(prefill.prompt.system).toBe(full.prompt.system);
    expect(prefill.prompt.user).toBe(full.prompt.user);
    expect(prefill.prompt.staticPrefixSha256).toBe(full.prompt.staticPrefixSha256);
    expect(prefill.prompt.user).not.toContain(PREFILL_SENTENCE);
    expect(prefill.prompt.user).not.toContain('already been opened');
    expect(prefill.prompt.system).toContain('exactly two blocks, first <think> and then <patch>');
    expect(prefill.prompt.user).toContain('Output contract: first a <think> block');
    // The prefill message still follows the protocol, so its extractor can parse the completion.
    expect(prefill.prompt.prefill).toBe(PREFILL_THINK);
    expect(full.prompt.prefill).toBeUndefined();
    expect(full.prompt).toMatchObject({ bench: 'alfworld', schemaStyle: 'alfworld_life_multihook_v1' });
    expect(full.prompt.user.startsWith('Scope: you edit only the reusable ALFWorld harness')).toBe(true);
    expectInOrder(full.prompt.user, ['Scope:', '## Patch format (ALFWorld, code hooks only)', ...SECTIONS.slice(1)]);
    expect(splitAtEvidenceMarker(full.prompt.user)?.rest).toBe(`\n${full.packet.text}`);
    expect(full.prompt.user).toContain('a list of 2 to 4 actions');
  });

  it('names every ctx key and predicate of the real ALFWorld hook context, the stages and the instance rule', () => {
    const state = new AlfworldEpisodeState('pick_and_place_simple', 'put a mug in coffeemachine.', 'You are in the middle of a room. Looking quickly around you, you see a cabinet 1, and a coffeemachine 1.', ['go to cabinet 1', 'go to coffeemachine 1', 'look']);
    const ctx = buildAlfworldHookContext({ hook: 'make_pre_hint', step: 0, remaining: 50, maxStep: 50, raw: '', finalAction: '' }, state);
    const { user } = renderEngineerPrompt({ benchmark: engineerBenchmark('alfworld'), protocol: 'full_think_patch', evidence: 'E' });
    const names = ctxNames(ctx, ['action', 'state', 'task', 'predicates', 'history', 'world']);
    expect(names.length).toBeGreaterThan(35);
    for (const name of names) expect(user, name).toContain(name);
    for (const family of ['pick_and_place', 'pick_clean_then_place', 'pick_heat_then_place', 'pick_cool_then_place', 'look_at_obj', 'pick_two_obj']) expect(user).toContain(family);
    for (const stage of ['find_target', 'take_target', 'transform', 'go_destination', 'put_target', 'wrong_inventory']) expect(user).toContain(stage);
    expect(user).toContain('Never hard-code numbered objects or receptacles');
    expect(user).toContain('choose exact commands from ctx["admissible"]');
  });
});
