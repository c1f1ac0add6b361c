import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { resolveDataDir } from '../../../config/data-dir.js';
import type { EpisodeRecord } from '../../../episode/index.js';
import { loadSharedWebShopEngine } from '../../../environments/webshop/webshop-environment.js';
import { loadWebShopTextProtocol, parseWebShopTextAction } from '../../../environments/webshop/webshop-text-prompts.js';
import { createNativeHookProvider, type NativeHook } from '../../../hooks/native-hooks.js';
import type { HookProvider } from '../../../hooks/hook-provider.js';
import { createWebShopSimTestbed } from '../../../testing/webshop-sim-testbed.fixture.js';
import { createWebShopSimHandler, toWebShopSimHttpReply } from './wire-handler.js';

const dataDir = resolveDataDir();
const present = existsSync(path.join(dataDir, 'webshop', 'items_shuffle_1000.json'));

describe.skipIf(!present)('simulated WebShop target in the v0.2 text protocol', () => {
  const engine = present ? loadSharedWebShopEngine(dataDir, 'synthetic') : undefined!;
  const bed = present ? createWebShopSimTestbed({ dataDir, engine, protocol: 'v0.2' }) : undefined!;
  afterAll(() => bed.close());
  const target = (options: Parameters<typeof bed.target>[0]) => bed.target(options);
  const playAll = (model: Awaited<ReturnType<typeof target>>, indices: number[], hooks?: HookProvider) => bed.playAll(model, indices, hooks);

  const first = (n: number) => Array.from({ length: n }, (_, i) => i);
  const successRate = (records: EpisodeRecord[]) => records.filter((r) => r.outcome === 'success').length / records.length;
  const replies = (r: EpisodeRecord) => r.messages.slice(r.preamble ?? 0).filter((m) => m.role === 'assistant').map((m) => m.content ?? '');

  let baseline: EpisodeRecord[] = [];
  beforeAll(async () => {
    baseline = await playAll(await target({}), first(100));
  }, 120_000);

  it('finishes within 10 rounds with no fault drawn, writing v0.2 replies with and without a Thought', async () => {
    const records = await playAll(await target({ faults: 'none' }), first(30));
    expect(successRate(records)).toBeGreaterThanOrEqual(0.9);
    const all = records.flatMap(replies);
    expect(all.every((text) => parseWebShopTextAction(text) !== undefined)).toBe(true);
    expect(all.some((text) => /^Thought:\n.+\n\nAction:\n(search|click)\[[^\]]+\]$/.test(text))).toBe(true);
    expect(all.some((text) => /^Action: (search|click)\[[^\]]+\]$/.test(text))).toBe(true);
    expect(records.every((r) => r.rounds <= 10)).toBe(true);
  });

  it('measures the default baseline on the first 100 goals (about 30 %)', () => {
    const rate = successRate(baseline);
    const outcomes: Record<string, number> = {};
    for (const r of baseline) outcomes[r.outcome] = (outcomes[r.outcome] ?? 0) + 1;
    console.log(`sim:webshop v0.2 defaults (seed 0), first 100 synthetic goals: ${(rate * 100).toFixed(1)} % success; outcomes ${JSON.stringify(outcomes)}`);
    expect(rate).toBeGreaterThanOrEqual(0.2);
    expect(rate).toBeLessThanOrEqual(0.4);
    expect(outcomes.invalid_action ?? 0).toBeGreaterThan(0);
  });

  it('is deterministic: the same seed gives identical records', async () => {
    const again = await playAll(await target({}), first(12));
    expect(again.map((r) => JSON.stringify(r))).toEqual(baseline.slice(0, 12).map((r) => JSON.stringify(r)));
  });

  it('shows its fault modes in text form (give-up ends the episode with a reply naming no action)', async () => {
    const early = await playAll(await target({ faults: 'none,early_buy:1' }), [1]);
    expect(early[0]).toMatchObject({ outcome: 'wrong_answer', detail: { selectedOptions: {} } });
    const loop = await playAll(await target({ faults: 'none,search_loop:1' }), [1]);
    expect(loop[0]!.outcome).toBe('round_limit');
    expect(loop[0]!.steps.filter((s) => s.tool === 'search').length).toBe(5);
    const stall = await playAll(await target({ faults: 'none,give_up:1' }), [1]);
    expect(stall[0]!.outcome).toBe('invalid_action');
  });

  it('is fixed by blocks and by hints that name the fix, as in FC mode', async () => {
    const blockEarly: NativeHook = {
      hook: 'on_before_action',
      fn: (ctx) => ((ctx.predicates as Record<string, boolean>).required_options_unselected ? { kind: 'block_and_prompt', message: 'Harness: not yet.' } : null),
    };
    const fixed = await playAll(await target({ faults: 'none,early_buy:1' }), [1], createNativeHookProvider([blockEarly]));
    expect(fixed[0]!.outcome).toBe('success');
    expect(fixed[0]!.steps.some((s) => s.status === 'blocked')).toBe(true);

    const loopHint: NativeHook = {
      hook: 'on_post_step',
      fn: (ctx) => ((ctx.predicates as Record<string, boolean>).search_loop_detected ? { kind: 'inject_hint', message: 'You keep repeating the same search; open a product from the results.' } : null),
    };
    const hinted = await playAll(await target({ faults: 'none,search_loop:1', comply: 1 }), [1], createNativeHookProvider([loopHint]));
    expect(hinted[0]!.outcome).toBe('success');
    const ignored = await playAll(await target({ faults: 'none,search_loop:1', comply: 0 }), [1], createNativeHookProvider([loopHint]));
    expect(ignored[0]!.outcome).toBe('round_limit');

    const tips: NativeHook = { hook: 'on_init', fn: () => ({ skills: ['Never repeat the same search; open a product from the results.'] }) };
    const tipped = await playAll(await target({ faults: 'none,search_loop:1', comply: 1 }), [1], createNativeHookProvider([tips]));
    expect(tipped[0]!.outcome).toBe('success');
    const hintedTool: NativeHook = { hook: 'on_init', fn: () => ({ tool_hint: 'Never repeat the same search; open a product from the results.' }) };
    const notRead = await playAll(await target({ faults: 'none,search_loop:1', comply: 1 }), [1], createNativeHookProvider([hintedTool]));
    expect(notRead[0]!.outcome).toBe('round_limit');
  });

  it('ignores the one-shot example: a request holding only the preamble names no known goal', () => {
    const text = loadWebShopTextProtocol(dataDir);
    const handler = createWebShopSimHandler({ dataDir, engine });
    const preamble = [{ role: 'user', content: text.userPrompt }, { role: 'assistant', content: text.agentReply }, ...text.oneShot];
    expect(toWebShopSimHttpReply(handler({ messages: preamble })).status).toBe(400);
    const live = `Observation:\nWebShop [SEP] Instruction: [SEP] ${engine.goalSet.goals[1]!.instructionText} [SEP] Search\n\nAvailable Actions:\n{'has_search_bar': True, 'clickables': ['search']}`;
    const reply = toWebShopSimHttpReply(handler({ messages: [...preamble, { role: 'user', content: live }] }));
    expect(reply.status).toBe(200);
    const message = (reply.body as { choices: { message: { content: string; tool_calls?: unknown } }[] }).choices[0]!.message;
    expect(message.tool_calls).toBeUndefined();
    expect(parseWebShopTextAction(message.content)).toMatchObject({ verb: 'search', value: "butt lifting light weight women's shorts with high waist tummy control" });
  });
});
