import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

import { resolveDataDir } from '../../config/data-dir.js';
import { parseRequirements } from './requirement-parser.js';
import { createWebShopEnvironment, loadSharedWebShopEngine } from './webshop-environment.js';
import { detectPageType, matchOptionInList, parseAttributeOptions } from './webshop-hook-context.js';

const dataDir = resolveDataDir();
const present = existsSync(path.join(dataDir, 'webshop', 'items_shuffle_1000.json'));

describe('requirement parser', () => {
  it('reads explicit options, the budget and the task type', () => {
    const req = parseRequirements(
      "WebShop [SEP] Instruction: [SEP] Find me butt lifting, light weight women's shorts with high waist, tummy control with color: black, and size: 3x-large, and price lower than 30.00 dollars [SEP] Search",
    );
    expect(req).toMatchObject({ taskType: 'apparel', requiredColor: 'black', requiredSize: '3x-large', priceMax: 30, requiredSpecs: {} });
    expect(req.instruction).toMatch(/^Find me butt lifting.*dollars$/);
  });

  it('falls back to the lexicons and keeps other name: value clauses as specs', () => {
    const req = parseRequirements('i need a dark grey cotton hoodie in x-large with style: zip up, under $40');
    expect(req).toMatchObject({ requiredColor: 'dark grey', requiredSize: 'x-large', requiredMaterial: 'cotton', priceMax: 40, requiredSpecs: { style: 'zip up' } });
    expect(req.colorAlternatives).toContain('dark gray');
    expect(parseRequirements('a lamp').priceMax).toBeNull();
  });

  it('detects pages, option groups and option matches', () => {
    const obs = 'Instruction: [SEP] x [SEP] Back to Search [SEP] < Prev [SEP] color [SEP] black [SEP] gray [SEP] size [SEP] small [SEP] 3x-large [SEP] Some Title [SEP] Price: $13.99 [SEP] Rating: N.A. [SEP] Description [SEP] Features [SEP] Reviews [SEP] Buy Now';
    const clickables = ['back to search', '< prev', 'description', 'features', 'reviews', 'buy now', 'black', 'gray', 'small', '3x-large'];
    expect(detectPageType(obs, false, clickables)).toBe('product_detail');
    expect(detectPageType('... Total results: 50 ...', false, [])).toBe('search_results');
    expect(detectPageType('WebShop [SEP] Search', true, ['search'])).toBe('home');
    expect(parseAttributeOptions(obs, clickables)).toEqual({ color: ['black', 'gray'], size: ['small', '3x-large'] });
    expect(matchOptionInList('3X-Large', ['small', '3x-large'])).toBe('3x-large');
    expect(matchOptionInList('grey', ['black'])).toBeUndefined();
  });
});

describe.skipIf(!present)('WebShop environment', () => {
  const engine = present ? loadSharedWebShopEngine(dataDir, 'synthetic') : undefined!;
  const env = present ? createWebShopEnvironment({ dataDir, goals: 'synthetic', engine }) : undefined!;

  it('opens episodes for the synthetic goals with the FC tools and 20 rounds', async () => {
    expect(env).toMatchObject({ bench: 'webshop', split: 'synthetic', size: 6910 });
    const episode = await env.openEpisode(1);
    expect(episode.maxRounds).toBe(20);
    expect(episode.tools.map((t) => t.name)).toEqual(['search_action', 'click_action']);
    expect(episode.systemPrompt({ skills: [], toolHints: [] })).toMatch(/^\nYou are web shopping\./);
    await expect(env.openEpisode(99999)).rejects.toThrow(/outside/);
  });

  it('builds the §4.2 ctx: keys, on_init gaps, page state, precheck and budget', async () => {
    const episode = await env.openEpisode(1);
    const init = episode.contextFor({ hook: 'on_init', round: 0, remaining: 20 });
    expect(Object.keys(init).sort()).toEqual(['action', 'max_step', 'observation', 'predicates', 'remaining_steps', 'state', 'step', 'task', 'webshop']);
    expect(Object.keys(init.action as object).sort()).toEqual(['final_action', 'tool', 'value', 'value_normalized']);
    expect(Object.keys(init.state as object).sort()).toEqual([
      'back_to_search_count', 'buy_now_available', 'clickables', 'current_price', 'duplicate_search_count', 'has_search_bar', 'page_type', 'price_max',
      'product_stall_turns', 'remaining_steps', 'same_click_count',
    ]);
    expect(Object.keys(init.task as object).sort()).toEqual(['required_color', 'required_material', 'required_size', 'task_type']);
    expect(Object.keys(init.webshop as object).sort()).toEqual(['asins_visited', 'attribute_options', 'current_asin', 'search_queries', 'selected_attributes']);
    expect(Object.keys(init.predicates as object).sort()).toEqual([
      'action_not_admissible', 'buy_now_available', 'duplicate_search_repeated', 'product_page_stalled', 'product_price_over_budget',
      'required_options_unselected', 'same_click_repeated', 'search_loop_detected', 'search_not_available',
    ]);
    expect(init).toMatchObject({ step: 0, max_step: 20, remaining_steps: 20, state: { clickables: [], has_search_bar: false, page_type: 'unknown', price_max: 30 } });

    episode.step('search[lwlw high waist yoga shorts]');
    episode.step('click[b09qcp4579]');
    const call = { id: 'c', tool: 'click_action', args: { value: 'Buy Now' }, firstValue: 'Buy Now' };
    const before = episode.contextFor({ hook: 'on_before_action', round: 3, remaining: 18, call }, { tool: 'click_action', value: 'Buy Now', finalAction: 'click[Buy Now]' });
    expect(before).toMatchObject({
      action: { tool: 'click_action', value: 'Buy Now', value_normalized: 'buy now', final_action: 'click[Buy Now]' },
      state: { page_type: 'product_detail', current_price: 13.99, buy_now_available: true, product_stall_turns: 1 },
      webshop: { current_asin: 'B09QCP4579', asins_visited: ['B09QCP4579'], search_queries: ['lwlw high waist yoga shorts'], selected_attributes: {} },
      predicates: { required_options_unselected: true, product_price_over_budget: false },
      step: 2,
    });
    episode.step('click[black]');
    episode.step('click[3x-large]');
    const after = episode.contextFor({ hook: 'on_before_action', round: 5, remaining: 16, call }, { tool: 'click_action', value: 'buy now', finalAction: 'click[buy now]' });
    expect(after).toMatchObject({ webshop: { selected_attributes: { color: 'black', size: '3x-large' } }, predicates: { required_options_unselected: false, product_page_stalled: true } });
    const post = episode.contextFor({ hook: 'on_post_step', round: 5, remaining: 15, call, observation: '' });
    expect(post.action).toEqual({ tool: '', value: '', value_normalized: '', final_action: null });
    episode.step('click[back to search]');
    episode.step('search[lwlw high waist yoga shorts]');
    const loop = episode.contextFor({ hook: 'make_pre_hint', round: 8, remaining: 13 });
    expect(loop).toMatchObject({ state: { duplicate_search_count: 2, back_to_search_count: 1 }, predicates: { search_loop_detected: true, duplicate_search_repeated: true } });
  });
});

describe.skipIf(!present)('WebShop protocols', () => {
  const engine = present ? loadSharedWebShopEngine(dataDir, 'synthetic') : undefined!;

  it('opens FC episodes with tools and 20 rounds, v0.2 episodes with no tools, the text loop and 10 rounds', async () => {
    const fc = await createWebShopEnvironment({ dataDir, goals: 'synthetic', engine }).openEpisode(0);
    expect(fc.maxRounds).toBe(20);
    expect(fc.tools.map((t) => t.name)).toEqual(['search_action', 'click_action']);
    expect('turnMessage' in fc).toBe(false);
    const text = await createWebShopEnvironment({ dataDir, goals: 'synthetic', engine, protocol: 'v0.2' }).openEpisode(0);
    expect(text.maxRounds).toBe(10);
    expect(text.tools).toEqual([]);
    text.applyToolHint('ignored');
    expect(text.tools).toEqual([]);
    expect(text.openingMessages({ skills: [], toolHints: [] }).map((m) => m.role)).toEqual(['user', 'assistant', ...Array.from({ length: 4 }, () => ['user', 'assistant']).flat()]);
    expect(text.turnMessage()).toMatch(/^Observation:\nWebShop \[SEP\] Instruction: \[SEP\] .+ \[SEP\] Search\n\nAvailable Actions:\n\{'has_search_bar': True, 'clickables': \['search'\]\}$/);
    const results = text.step('search[shorts]');
    expect(results.done).toBe(false);
    expect(text.turnMessage().startsWith(`Observation:\n${results.observation}\n\nAvailable Actions:\n{`)).toBe(true);
    expect(text.turnMessage()).toMatch(/'has_search_bar': False, 'clickables': \['back to search', 'next >', /);
    expect((await createWebShopEnvironment({ dataDir, goals: 'synthetic', engine, protocol: 'v0.2', maxRounds: 4 }).openEpisode(0)).maxRounds).toBe(4);
  });
});
