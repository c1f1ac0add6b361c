import { existsSync, readFileSync } from 'node:fs';
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

const say = (content: string): ScriptedTurn => ({ content });
const search = (keywords: string): ScriptedTurn => say(`Thought:\nI think I should search.\n\nAction:\nsearch[${keywords}]`);
const click = (value: string): ScriptedTurn => say(`Action: click[${value}]`);

interface V02Entry {
  user_prompt_1: string;
  agent_reply_1: string;
  one_shot_messages: { role: string; content: string }[];
}

describe.skipIf(!present)('the WebShop v0.2 text loop', () => {
  const engine = present ? loadSharedWebShopEngine(dataDir, 'synthetic') : undefined!;
  const env = present ? webShopEnvironment({ dataDir, goals: 'synthetic', engine, protocol: 'v0.2' }) : undefined!;
  const query = present ? playGoldPurchase(engine, GOAL).query! : '';
  const entry = present ? (JSON.parse(readFileSync(path.join(dataDir, 'agentbench_prompts.json'), 'utf8')) as Record<string, V02Entry>)['webshop_v0.2']! : undefined!;
  const gold = () => [search(query), click(ASIN), click('black'), click('3x-large'), click('buy now')];

  async function play(turns: ScriptedTurn[], hooks: NativeHook[] = [], environment = env) {
    const model = createScriptedModel(turns);
    const provider = hooks.length > 0 ? createNativeHookProvider(hooks) : NO_HOOKS;
    const { record } = await runEpisode({ model, episode: await environment.openEpisode(GOAL), hooks: await provider.openEpisode() });
    return { record, model };
  }

  it('opens with the reference prompt, "Ok.", the one-shot and the first observation; no system message, no tools', async () => {
    const { record, model } = await play(gold());
    expect(record.outcome).toBe('success');
    expect(record.reward).toBe(1);
    expect(record.rounds).toBe(5);
    const first = model.calls[0]!;
    expect(first.tools).toEqual([]);
    expect(first.messages.slice(0, 10)).toEqual([
      { role: 'user', content: entry.user_prompt_1 },
      { role: 'assistant', content: 'Ok.' },
      ...entry.one_shot_messages.map((m) => ({ role: m.role === 'agent' ? 'assistant' : m.role, content: m.content })),
    ]);
    expect(first.messages).toHaveLength(11);
    const instruction = engine.goalSet.goals[GOAL]!.instructionText;
    expect(first.messages[10]).toEqual({
      role: 'user',
      content: `Observation:\nWebShop [SEP] Instruction: [SEP] ${instruction} [SEP] Search\n\nAvailable Actions:\n{'has_search_bar': True, 'clickables': ['search']}`,
    });
    expect(record.preamble).toBe(10);
    expect(record.steps.map((s) => [s.round, s.tool, s.input, s.status])).toEqual([
      [1, 'search', query, 'executed'],
      [2, 'click', ASIN, 'executed'],
      [3, 'click', 'black', 'executed'],
      [4, 'click', '3x-large', 'executed'],
      [5, 'click', 'buy now', 'executed'],
    ]);
    expect(record.detail).toMatchObject({ purchasedAsin: 'B09QCP4579', selectedOptions: { color: 'black', size: '3x-large' } });
  });

  it('renders results and item pages unquoted, with the actions dict as a Python repr', async () => {
    const { model } = await play(gold());
    const results = model.calls[1]!.messages.at(-1)!.content!;
    expect(results).toMatch(/^Observation:\nInstruction: \[SEP\] Find me butt lifting[^\n]*\[SEP\] Back to Search \[SEP\] Page 1 \(Total results: 50\) \[SEP\] Next > \[SEP\] B09QCP4579 \[SEP\] /);
    expect(results).toMatch(/\n\nAvailable Actions:\n\{'has_search_bar': False, 'clickables': \['back to search', 'next >', '[a-z0-9]{10}'(, '[a-z0-9]{10}'){9}\]\}$/);
    expect(results).toContain("'b09qcp4579'");
    const item = model.calls[2]!.messages.at(-1)!.content!;
    expect(item).toMatch(/^Observation:\nInstruction: \[SEP\] .* \[SEP\] Back to Search \[SEP\] < Prev \[SEP\] color \[SEP\] .* \[SEP\] Price: \$[\d.]+ \[SEP\] Rating: N\.A\. \[SEP\] Description \[SEP\] Features \[SEP\] Reviews \[SEP\] Buy Now\n\nAvailable Actions:\n/s);
    expect(item).toMatch(/\{'has_search_bar': False, 'clickables': \['back to search', '< prev', 'description', 'features', 'reviews', 'buy now', .*'black'.*'3x-large'.*\]\}$/);
    expect(item).not.toContain('"');
  });

  it('reads the action the regex reads: newline after "Action:", lower case, text after the bracket', async () => {
    const { record } = await play([
      say(`I will search.\nAction:\n\n  search[${query}] and then look`),
      say(`action: click[${ASIN}]\nThen options.`),
      say('Thought: black first.\nAction: click[black]'),
      say('Action:click[3x-large]]'),
      say('Action: click[Buy Now] now'),
    ]);
    expect(record.steps.map((s) => s.input)).toEqual([query, ASIN, 'black', '3x-large', 'Buy Now']);
    expect(record.outcome).toBe('success');
  });

  it('ends the episode as invalid_action when no action matches (missing bracket, unknown verb, no "Action:")', async () => {
    for (const reply of ['Action: search shorts', 'Action: buy[now]', 'search[shorts]', 'ACTION: search[shorts]', 'Action: search[]']) {
      const { record, model } = await play([say(reply)]);
      expect(record.outcome, reply).toBe('invalid_action');
      expect(record.reward).toBe(0);
      expect(record.rounds).toBe(1);
      expect(model.remaining()).toBe(0);
      expect(record.steps).toEqual([{ round: 1, tool: 'text', input: reply, observation: expect.stringContaining('no action matching'), status: 'invalid' }]);
      expect(record.detail.reason).toMatch(/^no action matching/);
      expect(record.messages.at(-1)).toEqual({ role: 'assistant', content: reply });
    }
  });

  it('keeps the page when the env refuses an action, and stops after 10 rounds with no closing message', async () => {
    const turns = [search(query), ...Array.from({ length: 9 }, () => click('not-a-button'))];
    const { record, model } = await play(turns);
    expect(record.outcome).toBe('round_limit');
    expect(record.rounds).toBe(10);
    expect(record.reward).toBe(0);
    expect(model.calls).toHaveLength(10);
    const pages = model.calls.slice(1).map((c) => c.messages.at(-1)!.content);
    expect(new Set(pages).size).toBe(1);
    expect(pages[0]).toMatch(/Total results: 50/);
    expect(record.messages.at(-1)!.role).toBe('assistant');
    expect(record.messages.filter((m) => m.role === 'user')).toHaveLength(1 + 4 + 10);
  });

  it('honours maxRounds', async () => {
    const small = webShopEnvironment({ dataDir, goals: 'synthetic', engine, protocol: 'v0.2', maxRounds: 2 });
    const { record, model } = await play([search(query), click(ASIN)], [], small);
    expect(record.outcome).toBe('round_limit');
    expect(model.calls).toHaveLength(2);
  });

  it('puts on_init skills as tips and tool hints as an action-hints block in the first user prompt', async () => {
    const { model } = await play(gold(), [{ hook: 'on_init', fn: () => ({ skills: ['Select every option.'], tool_hint: 'Check the budget.' }) }]);
    const prompt = model.calls[0]!.messages[0]!.content!;
    expect(prompt.startsWith(entry.user_prompt_1.trimEnd())).toBe(true);
    expect(prompt.slice(entry.user_prompt_1.trimEnd().length)).toBe(
      '\n\nSome tips that may help for this task:\n- Select every option.\n\nHow to use the actions:\n' +
        'search[keywords]: Search with the product name and its key features from the instruction; leave out prices and filler words.\n' +
        'click[value]: On a product page, click every required option (color, size, style) before clicking buy now; click values must match a clickable exactly.\n\n' +
        'Check the budget.\n',
    );
    expect(model.calls[0]!.tools).toEqual([]);
  });

  it('sends pre-hints as user messages after the observation and gives hooks the FC ctx', async () => {
    const ctxs: Record<string, unknown>[] = [];
    const { record, model } = await play(gold(), [
      { hook: 'make_pre_hint', fn: (ctx) => (ctx.step === 2 ? { message: 'Pick the colour first.' } : null) },
      { hook: 'on_before_action', fn: (ctx) => void ctxs.push(ctx) },
    ]);
    expect(record.outcome).toBe('success');
    expect(model.calls[2]!.messages.slice(-2).map((m) => m.role)).toEqual(['user', 'user']);
    expect(model.calls[2]!.messages.at(-1)).toEqual({ role: 'user', content: 'Pick the colour first.' });
    expect(ctxs.map((c) => (c.action as { tool: string }).tool)).toEqual(['search_action', 'click_action', 'click_action', 'click_action', 'click_action']);
    expect(ctxs[4]).toMatchObject({ action: { value: 'buy now', final_action: 'click[buy now]' }, state: { page_type: 'product_detail' }, step: 4, max_step: 10, remaining_steps: 6 });
    expect(record.hookTrace.filter((t) => t.hook === 'on_before_action').map((t) => t.tool)).toEqual(['search', 'click', 'click', 'click', 'click']);
  });

  it('blocks: a user message, no env step, the round used, the same page next', async () => {
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
    expect(record.rounds).toBe(6);
    expect(record.steps.map((s) => s.status)).toEqual(['executed', 'executed', 'blocked', 'executed', 'executed', 'executed']);
    expect(record.steps[2]).toMatchObject({ tool: 'click', input: 'buy now', observation: 'Select the required color and size first.' });
    const after = model.calls[3]!.messages;
    expect(after.at(-2)).toEqual({ role: 'user', content: 'Select the required color and size first.' });
    expect(after.at(-1)).toEqual(model.calls[2]!.messages.at(-1));
  });

  it('rewrites (wrapping a raw value by the agent verb) and queues a post-step force as click[…]', async () => {
    const finals: unknown[] = [];
    const { record } = await play(
      [search('socks'), click('b000000000'), click('black'), click('3x-large'), click('buy now')],
      [
        { hook: 'on_before_action', fn: (ctx) => ((ctx.action as { tool: string }).tool === 'search_action' ? { kind: 'rewrite_action', action: query } : null) },
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
    expect(finals.slice(0, 2)).toEqual(['search[socks]', `click[${ASIN}]`]); // force values are lower-cased by the normalizer
    expect(record.steps.slice(0, 2).map((s) => s.input)).toEqual(['socks', 'b000000000']);
    const hint = record.messages.findIndex((m) => m.content === 'Open the matching product.');
    expect(record.messages[hint - 1]!.role).toBe('assistant');
    expect(record.messages[hint + 1]!.content).toMatch(/^Observation:\nInstruction: .*Total results/s);
  });
});
