import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { resolveDataDir } from '../../../config/data-dir.js';
import type { EpisodeRecord } from '../../../episode/index.js';
import { loadSharedWebShopEngine } from '../../../environments/webshop/webshop-environment.js';
import { createNativeHookProvider, type NativeHook } from '../../../hooks/native-hooks.js';
import type { HookProvider } from '../../../hooks/hook-provider.js';
import { DEFAULT_WEBSHOP_FAULT_RATES, faultsNamedByHint, parseWebShopFaultSpec, parseWebShopSimQuery } from './fault-profile.js';
import { goalWords } from './webshop-sim-policy.js';
import { createWebShopSimTestbed } from '../../../testing/webshop-sim-testbed.fixture.js';
import { createWebShopSimHandler, toWebShopSimHttpReply } from './wire-handler.js';

const dataDir = resolveDataDir();
const present = existsSync(path.join(dataDir, 'webshop', 'items_shuffle_1000.json'));

describe('WebShop sim settings', () => {
  it('parses fault specs and names fixes in hints', () => {
    expect(parseWebShopFaultSpec('none,early-buy:0.5')).toEqual({ early_buy: 0.5, over_budget: 0, search_loop: 0, give_up: 0 });
    expect(parseWebShopFaultSpec('all:1')).toEqual({ early_buy: 1, over_budget: 1, search_loop: 1, give_up: 1 });
    expect(parseWebShopFaultSpec('')).toEqual(DEFAULT_WEBSHOP_FAULT_RATES);
    expect(() => parseWebShopFaultSpec('nope:1')).toThrow(/Unknown WebShop fault/);
    expect(() => parseWebShopFaultSpec('give_up:2')).toThrow(/between 0 and 1/);
    expect(parseWebShopSimQuery('?seed=3&faults=none,give-up:0.5&comply=0.25')).toEqual({ seed: 3, faults: { early_buy: 0, over_budget: 0, search_loop: 0, give_up: 0.5 }, comply: 0.25 });
    expect(() => parseWebShopSimQuery('split=dev')).toThrow(/Unknown parameter/);
    expect(faultsNamedByHint('Select the required size before you click Buy Now.')).toEqual(['early_buy', 'give_up']);
    expect(faultsNamedByHint('That product is over budget.')).toEqual(['over_budget']);
    expect(faultsNamedByHint('You are repeating the same search.')).toEqual(['search_loop']);
    expect(goalWords("Find me butt lifting, light weight women's shorts with high waist, tummy control with color: black, and size: 3x-large, and price lower than 30.00 dollars")).toBe(
      "butt lifting light weight women's shorts with high waist tummy control",
    );
  });
});

describe.skipIf(!present)('simulated WebShop target, end to end', () => {
  const engine = present ? loadSharedWebShopEngine(dataDir, 'synthetic') : undefined!;
  const bed = present ? createWebShopSimTestbed({ dataDir, engine, protocol: 'fc' }) : undefined!;
  afterAll(() => bed.close());
  const target = (options: Parameters<typeof bed.target>[0]) => bed.target(options);
  const playAll = (model: Awaited<ReturnType<typeof target>>, indices: number[], hooks?: HookProvider) => bed.playAll(model, indices, hooks);

  const first = (n: number) => Array.from({ length: n }, (_, i) => i);
  const successRate = (records: EpisodeRecord[]) => records.filter((r) => r.outcome === 'success').length / records.length;

  let baseline: EpisodeRecord[] = [];
  beforeAll(async () => {
    baseline = await playAll(await target({}), first(100));
  }, 120_000);

  it('buys the goal product with every option when no fault is drawn', async () => {
    const records = await playAll(await target({ faults: 'none' }), first(30));
    const rate = successRate(records);
    console.log(`sim:webshop faults=none, first 30 synthetic goals: ${(rate * 100).toFixed(1)} % success`);
    expect(rate).toBeGreaterThanOrEqual(0.9);
    expect(records.every((r) => r.outcome !== 'model_error' && r.outcome !== 'env_error')).toBe(true);
  });

  it('measures the default baseline on the first 100 goals (about 30 %)', () => {
    const rate = successRate(baseline);
    const outcomes: Record<string, number> = {};
    for (const r of baseline) outcomes[r.outcome] = (outcomes[r.outcome] ?? 0) + 1;
    console.log(`sim:webshop defaults (seed 0), first 100 synthetic goals: ${(rate * 100).toFixed(1)} % success; outcomes ${JSON.stringify(outcomes)}`);
    expect(rate).toBeGreaterThanOrEqual(0.2);
    expect(rate).toBeLessThanOrEqual(0.4);
  });

  it('is deterministic: the same seed gives identical records', async () => {
    const again = await playAll(await target({}), first(12));
    expect(again.map((r) => JSON.stringify(r))).toEqual(baseline.slice(0, 12).map((r) => JSON.stringify(r)));
  });

  it('shows each fault mode', async () => {
    const early = await playAll(await target({ faults: 'none,early_buy:1' }), [1]);
    expect(early[0]).toMatchObject({ outcome: 'wrong_answer', detail: { selectedOptions: {} } });
    const loop = await playAll(await target({ faults: 'none,search_loop:1' }), [1]);
    expect(loop[0]!.outcome).toBe('round_limit');
    expect(loop[0]!.steps.filter((s) => s.tool === 'search_action').length).toBeGreaterThanOrEqual(5);
    const stall = await playAll(await target({ faults: 'none,give_up:1' }), [1]);
    expect(stall[0]!.outcome).toBe('round_limit');
    const budget = await playAll(await target({ faults: 'none,over_budget:1' }), first(10));
    expect(budget.some((r) => r.outcome === 'wrong_answer' && (r.detail.rewardInfo as { rPrice: boolean }).rPrice === false)).toBe(true);
  });

  it('is fixed by blocks and by hints that name the fix', async () => {
    const blockEarly: NativeHook = {
      hook: 'on_before_action',
      fn: (ctx) => ((ctx.predicates as Record<string, boolean>).required_options_unselected ? { kind: 'block_and_prompt', message: 'Harness: not yet.' } : null),
    };
    const fixed = await playAll(await target({ faults: 'none,early_buy:1' }), [1], createNativeHookProvider([blockEarly]));
    expect(fixed[0]!.outcome).toBe('success');
    expect(fixed[0]!.steps.some((s) => s.status === 'blocked')).toBe(true);

    const blockBudget: NativeHook = {
      hook: 'on_before_action',
      fn: (ctx) => {
        const p = ctx.predicates as Record<string, boolean>;
        return (ctx.action as { value_normalized: string }).value_normalized === 'buy now' && p.product_price_over_budget ? { kind: 'block_and_prompt', message: 'Harness: no.' } : null;
      },
    };
    const budgetModel = await target({ faults: 'none,over_budget:1' });
    const unguarded = await playAll(budgetModel, first(10));
    const guarded = await playAll(budgetModel, first(10), createNativeHookProvider([blockBudget]));
    const wrongPrice = (rs: EpisodeRecord[]) => rs.filter((r) => (r.detail.rewardInfo as { rPrice?: boolean } | undefined)?.rPrice === false).length;
    expect(wrongPrice(unguarded)).toBeGreaterThan(0);
    expect(wrongPrice(guarded)).toBe(0);
    expect(successRate(guarded)).toBeGreaterThan(successRate(unguarded));

    const loopHint: NativeHook = {
      hook: 'on_post_step',
      fn: (ctx) => ((ctx.predicates as Record<string, boolean>).search_loop_detected ? { kind: 'inject_hint', message: 'You keep repeating the same search; open a product from the results.' } : null),
    };
    const hinted = await playAll(await target({ faults: 'none,search_loop:1', comply: 1 }), [1], createNativeHookProvider([loopHint]));
    expect(hinted[0]!.outcome).toBe('success');
    const ignored = await playAll(await target({ faults: 'none,search_loop:1', comply: 0 }), [1], createNativeHookProvider([loopHint]));
    expect(ignored[0]!.outcome).toBe('round_limit');

    const stallHint: NativeHook = {
      hook: 'on_post_step',
      fn: (ctx) => ((ctx.predicates as Record<string, boolean>).product_page_stalled ? { kind: 'inject_hint', message: 'Stop reading; select the options and click buy now.' } : null),
    };
    const unstalled = await playAll(await target({ faults: 'none,give_up:1', comply: 1 }), [1], createNativeHookProvider([stallHint]));
    expect(unstalled[0]!.outcome).toBe('success');
  });

  it('answers an unknown instruction with HTTP 400', () => {
    const handler = createWebShopSimHandler({ dataDir, engine });
    const reply = toWebShopSimHttpReply(handler({ messages: [{ role: 'user', content: 'The initial observation:\nWebShop [SEP] Instruction: [SEP] nothing real [SEP] Search' }] }));
    expect(reply.status).toBe(400);
    expect(toWebShopSimHttpReply(handler({ nope: 1 })).status).toBe(400);
  });
});
