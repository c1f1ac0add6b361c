import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

import { resolveDataDir } from '../../config/data-dir.js';
import { playGoldPurchase } from '../../environments/webshop/gold-purchase.js';
import { loadSharedWebShopEngine } from '../../environments/webshop/webshop-environment.js';
import { webShopEnvironment } from './environment.js';
import { createNativeHookProvider, NO_HOOKS, type NativeHook } from '../../hooks/native-hooks.js';
import { createScriptedModel, type ScriptedTurn } from '../../models/scripted-model.js';
import { runEpisode } from '../../runtime/run-episode.js';

const dataDir = resolveDataDir();
const present = existsSync(path.join(dataDir, 'webshop', 'items_shuffle_1000.json'));

// Synthetic goal 1: LWLW high-waist shorts B09QCP4579, options color black and size 3x-large, budget $30.
const GOAL = 1;
const ASIN = 'b09qcp4579';

const search = (keywords: string): ScriptedTurn => ({ toolCalls: [{ name: 'search_action', arguments: { keywords } }] });
const click = (value: string): ScriptedTurn => ({ toolCalls: [{ name: 'click_action', arguments: { value } }] });

describe.skipIf(!present)('runEpisode on WebShop', () => {
  const engine = present ? loadSharedWebShopEngine(dataDir, 'synthetic') : undefined!;
  const env = present ? webShopEnvironment({ dataDir, goals: 'synthetic', engine }) : undefined!;
  const query = present ? playGoldPurchase(engine, GOAL).query! : '';

  async function play(turns: ScriptedTurn[], hooks: NativeHook[] = []) {
    const model = createScriptedModel(turns);
    const provider = hooks.length > 0 ? createNativeHookProvider(hooks) : NO_HOOKS;
    const { record } = await runEpisode({ model, episode: await env.openEpisode(GOAL), hooks: await provider.openEpisode() });
    return { record, model };
  }

  it('scores the gold purchase through search_action / click_action as 1.0', async () => {
    const { record, model } = await play([search(query), click(ASIN), click('black'), click('3x-large'), click('buy now')]);
    expect(record.outcome).toBe('success');
    expect(record.reward).toBe(1);
    expect(record.rounds).toBe(5);
    expect(record.detail).toMatchObject({ purchasedAsin: 'B09QCP4579', selectedOptions: { color: 'black', size: '3x-large' }, webshopTaskManifest: { index: GOAL, goal_seed: 233 } });
    const first = model.calls[0]!;
    expect(first.tools?.map((t) => t.name)).toEqual(['search_action', 'click_action']);
    expect(first.messages[1]).toEqual({
      role: 'user',
      content: expect.stringMatching(/^The initial observation:\nWebShop \[SEP\] Instruction: \[SEP\] Find me butt lifting.*\[SEP\] Search\n\nAvailable Actions:\n\{'has_search_bar': True, 'clickables': \['search'\]\}$/s),
    });
    const second = model.calls[1]!.messages.at(-1)!;
    expect(second).toMatchObject({ role: 'tool', toolCallId: 'call_0_0', content: expect.stringMatching(/^Action: search\[.*\]\n\nObservation:\nInstruction: \[SEP\].*Total results: 50.*\n\nAvailable Actions:\n\{'has_search_bar': False, 'clickables': \['back to search', 'next >', /s) });
  });

  it('nudges a text-only turn and shows the nudge as the next observation', async () => {
    const seen: string[] = [];
    const { record, model } = await play(
      [{ content: 'Let me think.' }, search(query), click(ASIN), click('black'), click('3x-large'), click('buy now')],
      [{ hook: 'make_pre_hint', fn: (ctx) => void seen.push(String(ctx.observation)) }],
    );
    expect(record.outcome).toBe('success');
    expect(model.calls[1]!.messages.at(-1)).toEqual({
      role: 'user',
      content: "Observation:\nYou must call a tool! NEVER respond with only text.\n\nAvailable Actions:\n{'has_search_bar': True, 'clickables': ['search']}",
    });
    expect(seen[1]).toBe('You must call a tool! NEVER respond with only text.');
  });

  it('blocks a premature buy now from a native hook (§4.5): user message, no env step, then a tool message naming the blocked action', async () => {
    const { record, model } = await play(
      [search(query), click(ASIN), click('buy now'), click('black'), click('3x-large'), click('buy now')],
      [
        {
          hook: 'on_before_action',
          fn: (ctx) => ((ctx.predicates as Record<string, boolean>).required_options_unselected ? { kind: 'block_and_prompt', message: 'Select the required color and size first.' } : null),
        },
      ],
    );
    expect(record.outcome).toBe('success');
    expect(record.steps.map((s) => s.status)).toEqual(['executed', 'executed', 'blocked', 'executed', 'executed', 'executed']);
    const afterBlock = model.calls[3]!.messages;
    const productPage = model.calls[2]!.messages.at(-1)!;
    expect(afterBlock.at(-3)).toMatchObject({ role: 'assistant' });
    expect(afterBlock.at(-2)).toEqual({ role: 'user', content: 'Select the required color and size first.' });
    const blockedTurn = afterBlock.at(-1)!;
    expect(blockedTurn).toMatchObject({ role: 'tool', toolCallId: 'call_2_0' });
    expect(blockedTurn.content).toBe((productPage.content ?? '').replace(/^Action: click\[b09qcp4579\]/, 'Action: click[buy now]'));
    expect(record.hookTrace.filter((t) => t.effect === 'block_and_prompt')).toHaveLength(1);
  });

  it('uses a post-step force on the next tool-calling turn, before on_before_action sees the action', async () => {
    const finals: unknown[] = [];
    const { record, model } = await play(
      [search(query), { content: 'thinking' }, click('b000000000'), click('black'), click('3x-large'), click('buy now')],
      [
        {
          hook: 'on_post_step',
          fn: (ctx, nb) => {
            if (nb.done || (ctx.state as { page_type: string }).page_type !== 'search_results') return null;
            nb.done = true;
            return { kind: 'force_action', action: ASIN.toUpperCase(), message: 'Open the matching product.' };
          },
        },
        { hook: 'on_before_action', fn: (ctx) => void finals.push((ctx.action as { final_action: unknown }).final_action) },
      ],
    );
    expect(record.outcome).toBe('success');
    expect(finals[0]).toBe(`search[${query}]`);
    expect(finals[1]).toBe(`click[${ASIN}]`);
    // The hint lands before the tool message of its call; the text-only turn does not consume the force.
    expect(model.calls[1]!.messages.slice(-2).map((m) => m.role)).toEqual(['user', 'tool']);
    expect(model.calls[1]!.messages.at(-2)).toEqual({ role: 'user', content: 'Open the matching product.' });
    expect(model.calls[3]!.messages.at(-1)!.content).toMatch(/^Action: click\[b09qcp4579\]\n\nObservation:\n.*Buy Now/s);
  });

  it('uses only the first tool call; an unknown tool runs nothing and the next observation is a user message', async () => {
    const { record, model } = await play([
      { toolCalls: [{ name: 'lookup', arguments: { q: 'x' } }] },
      { toolCalls: [{ name: 'search_action', arguments: { keywords: query } }, { name: 'click_action', arguments: { value: 'buy now' } }] },
      click(ASIN),
      click('black'),
      click('3x-large'),
      click('buy now'),
    ]);
    expect(record.outcome).toBe('success');
    expect(record.steps.map((s) => s.status)).toEqual(['invalid', 'executed', 'executed', 'executed', 'executed', 'executed']);
    expect(model.calls[1]!.messages.at(-1)).toMatchObject({ role: 'user', content: expect.stringMatching(/^Observation:\nWebShop \[SEP\] Instruction:/) });
    expect(model.calls[2]!.messages.at(-1)).toMatchObject({ role: 'tool', toolCallId: 'call_1_0', content: expect.stringMatching(/^Action: search\[/) });
  });

  it('wraps raw rewrite values by the current tool and ends at the round limit', async () => {
    const small = webShopEnvironment({ dataDir, goals: 'synthetic', engine, maxRounds: 2 });
    const model = createScriptedModel([search('socks'), search('socks')]);
    const hooks = createNativeHookProvider([{ hook: 'on_before_action', fn: () => ({ kind: 'rewrite_action', action: 'Yoga Shorts' }) }]);
    const { record } = await runEpisode({ model, episode: await small.openEpisode(GOAL), hooks: await hooks.openEpisode() });
    expect(record.outcome).toBe('round_limit');
    expect(record.messages.at(-1)).toEqual({ role: 'tool', toolCallId: 'call_1_0', content: 'Task limit reached.' });
    expect(record.messages.filter((m) => m.role === 'tool')[0]!.content).toMatch(/^Action: search\[yoga shorts\]/);
  });

  it('appends the tool hint (with the built-in strategy text) to both tool descriptions and skills as tips', async () => {
    const { model } = await play([search(query), click(ASIN), click('black'), click('3x-large'), click('buy now')], [
      { hook: 'on_init', fn: () => ({ skills: ['Select every option.'], tool_hint: 'Check the budget.' }) },
    ]);
    const first = model.calls[0]!;
    expect(first.messages[0]!.content).toMatch(/\n\nSome tips that may help for this task:\n- Select every option\.$/);
    for (const tool of first.tools ?? []) expect(tool.description).toMatch(/\n\nCheck the budget\.$/);
  });
});
