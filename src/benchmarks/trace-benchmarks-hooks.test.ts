import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { HookName } from '../episode/index.js';
import { AlfworldEpisodeState, buildAlfworldHookContext, type AlfworldHookPoint } from '../environments/alfworld/alfworld-hook-context.js';
import { WebShopEpisodeState, buildWebShopHookContext } from '../environments/webshop/webshop-hook-context.js';
import type { EpisodeHooks, HookCallResult } from '../hooks/hook-provider.js';
import { normalizeHookResult } from '../hooks/normalize-effect.js';
import { createPythonHookProvider, createSandboxPool, type SandboxPool } from '../sandbox/index.js';
import { ALFWORLD_SIGNATURE_IDS } from './alfworld/symbolic/alfworld-signatures.js';
import { composeAlfworldPatch } from './alfworld/symbolic/alfworld-templates.js';
import { WEBSHOP_SIGNATURE_IDS } from './webshop/symbolic/webshop-signatures.js';
import { composeWebShopPatch } from './webshop/symbolic/webshop-templates.js';

/** The Python hooks driven with the real WebShop and ALFWorld ctx builders. */
let pool: SandboxPool;

beforeAll(async () => {
  pool = createSandboxPool({ size: 1, hookTimeoutMs: 1000 });
  await pool.ready();
});

afterAll(async () => {
  await pool.close();
});

async function call(hooks: EpisodeHooks, hook: HookName, ctx: Record<string, unknown>): Promise<Record<string, unknown> | undefined> {
  const results: HookCallResult[] = await hooks.call(hook, ctx);
  for (const r of results) if ('fault' in r) throw new Error(`${hook} fault ${r.fault.kind}: ${r.fault.message}`);
  const raw = results.map((r) => ('raw' in r ? r.raw : undefined)).find((r) => r !== undefined && r !== null);
  return normalizeHookResult(hook, raw, ctx) as Record<string, unknown> | undefined;
}

describe('ALFWorld hooks on the real ctx', () => {
  const ADMISSIBLE = ['go to cabinet 1', 'go to cabinet 2', 'go to microwave 1', 'go to sinkbasin 1', 'inventory', 'look'];

  async function open() {
    const provider = await createPythonHookProvider(pool, composeAlfworldPatch([...ALFWORLD_SIGNATURE_IDS]).patch.actions, { rules: { numberedInstances: true } });
    expect(provider.dropped).toEqual([]);
    const hooks = await provider.openEpisode();
    const st = new AlfworldEpisodeState('pick_heat_then_place_in_recep', 'put a hot cup in cabinet.', 'You are in the middle of a room. Looking quickly around you, you see a cabinet 1, a cabinet 2, a microwave 1, and a sinkbasin 1.', ADMISSIBLE);
    let step = 0;
    const point = (hook: AlfworldHookPoint['hook'], raw = '', finalAction = ''): AlfworldHookPoint => ({ hook, step, remaining: 50 - step, maxStep: 50, raw, finalAction });
    /** One step: pre-hint, guard, then (unless blocked or rewritten) the env result and post-step. */
    const act = async (action: string, observation: string, listed = true, raw = action) => {
      st.admissible = listed ? [...ADMISSIBLE, action] : [...ADMISSIBLE];
      const hint = await call(hooks, 'make_pre_hint', buildAlfworldHookContext(point('make_pre_hint'), st));
      const guard = await call(hooks, 'on_before_action', buildAlfworldHookContext(point('on_before_action', raw, action), st));
      if (!guard) {
        st.update(action, observation, ADMISSIBLE);
        await call(hooks, 'on_post_step', buildAlfworldHookContext(point('on_post_step', raw, action), st));
      }
      step++;
      return { hint: hint?.message as string | undefined, guard };
    };
    return { hooks, st, act, init: () => call(hooks, 'on_init', buildAlfworldHookContext(point('on_init'), st)) };
  }

  it('tracks the heat step, blocks an early put, a put back and a second heat, and names the step in a hint', async () => {
    const d = await open();
    expect(((await d.init()) as { skills: unknown[] }).skills.length).toBeGreaterThan(0);
    await d.act('go to sinkbasin 1', 'On the sinkbasin 1, you see a cup 4.');
    await d.act('take cup 4 from sinkbasin 1', 'You pick up the cup 4 from the sinkbasin 1.');
    const early = await d.act('put cup 4 in/on cabinet 1', '');
    expect(early.hint).toMatch(/heat it with a microwave/);
    expect(early.guard).toMatchObject({ kind: 'block_and_prompt' });
    expect(String(early.guard?.message)).toMatch(/heated before/);
    await d.act('go to microwave 1', 'The microwave 1 is closed.');
    await d.act('heat cup 4 with microwave 1', 'You heat the cup 4 using the microwave 1.');
    const back = await d.act('put cup 4 in/on microwave 1', '');
    expect(back.guard).toMatchObject({ kind: 'block_and_prompt' });
    expect(String(back.guard?.message)).toMatch(/already heated/);
    const again = await d.act('heat cup 4 with microwave 1', '');
    expect(again.guard).toMatchObject({ kind: 'block_and_prompt' });
    const ok = await d.act('put cup 4 in/on cabinet 1', 'You put the cup 4 in/on the cabinet 1.');
    expect(ok.guard).toBeUndefined();
  });

  it('rewrites a command missing its instance number to the listed one, and blocks repeating an action that changed nothing', async () => {
    const d = await open();
    await d.init();
    const bare = await d.act('go to cabinet', '', false);
    expect(bare.guard).toEqual({ kind: 'rewrite_action', action: 'go to cabinet 1', message: expect.any(String) });
    expect(ADMISSIBLE).toContain(bare.guard?.action);
    await d.act('look', 'Nothing happens.');
    const repeat = await d.act('look', '');
    expect(repeat.hint).toMatch(/Nothing happens/);
    expect(repeat.guard).toMatchObject({ kind: 'block_and_prompt' });
    const unlisted = await d.act('take pencil from desk', '', false);
    expect(unlisted.guard).toMatchObject({ kind: 'block_and_prompt' });
  });

  it('blocks a command the environment would map to another verb, and a third identical output', async () => {
    const d = await open();
    await d.init();
    // The agent wrote a put that is not available; the mapping picked an admissible go to.
    const mapped = await d.act('go to cabinet 1', '', true, 'put cup 4 in/on cabinet 1');
    expect(mapped.guard).toMatchObject({ kind: 'block_and_prompt' });
    expect(String(mapped.guard?.message)).toMatch(/not in AVAILABLE ACTIONS/);
    // A loose wording of the same verb that maps onto its command passes.
    expect((await d.act('go to cabinet 2', 'The cabinet 2 is closed.', true, 'go to the cabinet 2')).guard).toBeUndefined();
    expect((await d.act('go to cabinet 2', 'The cabinet 2 is closed.', true, 'go to the cabinet 2')).guard).toBeUndefined();
    const third = await d.act('go to cabinet 2', '', true, 'go to the cabinet 2');
    expect(third.guard).toMatchObject({ kind: 'block_and_prompt' });
    expect(String(third.guard?.message)).toMatch(/exact output twice/);
    expect((await d.act('go to microwave 1', 'The microwave 1 is closed.')).guard).toBeUndefined();
  });
});

describe('WebShop hooks on the real ctx', () => {
  const INSTRUCTION = "Find me men's shorts with color: black, and size: large, and price lower than 30.00 dollars";
  const HOME = `WebShop [SEP] Instruction: [SEP] ${INSTRUCTION} [SEP] Search`;
  const RESULTS = `Instruction: [SEP] ${INSTRUCTION} [SEP] Back to Search [SEP] Page 1 (Total results: 50) [SEP] Next > [SEP] B000000001 [SEP] Shorts [SEP] $19.99`;
  const product = (price: string) =>
    `Instruction: [SEP] ${INSTRUCTION} [SEP] Back to Search [SEP] < Prev [SEP] color [SEP] black [SEP] blue [SEP] size [SEP] medium [SEP] large [SEP] Men's Shorts [SEP] Price: $${price} [SEP] Rating: N.A. [SEP] Description [SEP] Features [SEP] Reviews [SEP] Buy Now`;
  const PRODUCT_CLICKABLES = ['back to search', '< prev', 'black', 'blue', 'medium', 'large', 'description', 'features', 'reviews', 'buy now'];

  async function open() {
    const provider = await createPythonHookProvider(pool, composeWebShopPatch([...WEBSHOP_SIGNATURE_IDS]).patch.actions, { rules: { numberedInstances: false } });
    expect(provider.dropped).toEqual([]);
    const hooks = await provider.openEpisode();
    const st = new WebShopEpisodeState(HOME, true, ['search']);
    let round = 0;
    const guard = (tool: string, value: string) =>
      call(hooks, 'on_before_action', buildWebShopHookContext({ hook: 'on_before_action', round, remaining: 20 - round, call: { id: `c${round}`, tool, args: { v: value }, firstValue: value } }, st, 20));
    const hint = () => call(hooks, 'make_pre_hint', buildWebShopHookContext({ hook: 'make_pre_hint', round, remaining: 20 - round }, st, 20));
    const step = (action: string, observation: string, hasSearchBar: boolean, clickables: string[]) => {
      round++;
      st.updateAfterStep(action, { observation, hasSearchBar, clickables });
    };
    await call(hooks, 'on_init', buildWebShopHookContext({ hook: 'on_init', round: 0, remaining: 20 }, st, 20));
    return { guard, hint, step };
  }

  it('blocks buy now before the option groups are chosen and over the price limit, and a repeated search', async () => {
    const d = await open();
    d.step('search[shorts]', RESULTS, false, ['back to search', 'next >', 'b000000001']);
    expect(await d.guard('search_action', 'shorts')).toMatchObject({ kind: 'block_and_prompt' });
    d.step('click[b000000001]', product('19.99'), false, PRODUCT_CLICKABLES);
    expect(String((await d.hint())?.message)).toMatch(/color, size/);
    expect(await d.guard('click_action', 'buy now')).toMatchObject({ kind: 'block_and_prompt' });
    expect(await d.guard('click_action', 'not a value')).toMatchObject({ kind: 'block_and_prompt' });
    d.step('click[black]', product('19.99'), false, PRODUCT_CLICKABLES);
    d.step('click[large]', product('19.99'), false, PRODUCT_CLICKABLES);
    expect(await d.guard('click_action', 'buy now')).toBeUndefined();
  });

  it('blocks an over-budget buy once', async () => {
    const d = await open();
    d.step('search[shorts]', RESULTS, false, ['back to search', 'next >', 'b000000001']);
    d.step('click[b000000001]', product('45.00'), false, PRODUCT_CLICKABLES);
    d.step('click[black]', product('45.00'), false, PRODUCT_CLICKABLES);
    d.step('click[large]', product('45.00'), false, PRODUCT_CLICKABLES);
    expect(String((await d.hint())?.message)).toMatch(/price limit/);
    expect(String((await d.guard('click_action', 'buy now'))?.message)).toMatch(/over the limit/);
    expect(await d.guard('click_action', 'buy now')).toBeUndefined();
  });
});
