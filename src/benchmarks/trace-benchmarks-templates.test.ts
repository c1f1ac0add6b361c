import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { BUILTIN_PATCH_RULES } from '../testing/builtin-patch-rules.js';

import { sandboxCompiler } from '../app/sandbox-compiler.js';
import { findForbiddenPattern, validatePatch, type HookCompiler } from '../patch/index.js';
import { createPythonHookProvider, createSandboxPool, type SandboxPool } from '../sandbox/index.js';
import { ALFWORLD_SIGNATURE_IDS } from './alfworld/symbolic/alfworld-signatures.js';
import { composeAlfworldPatch } from './alfworld/symbolic/alfworld-templates.js';
import { WEBSHOP_SIGNATURE_IDS } from './webshop/symbolic/webshop-signatures.js';
import { composeWebShopPatch } from './webshop/symbolic/webshop-templates.js';

let pool: SandboxPool;
let compiler: HookCompiler;

beforeAll(async () => {
  pool = createSandboxPool({ size: 1, hookTimeoutMs: 1000 });
  await pool.ready();
  compiler = sandboxCompiler(pool);
});

afterAll(async () => {
  await pool.close();
});

const HOOK_ORDER = ['on_init', 'on_post_step', 'make_pre_hint', 'on_before_action'];

interface Producible {
  bench: 'webshop' | 'alfworld';
  patch: { description: string; actions: { type: 'add_code_hook'; hook: string; code: string }[] };
}

const PRODUCIBLE: [string, Producible][] = [
  ...WEBSHOP_SIGNATURE_IDS.map((id): [string, Producible] => [`webshop ${id}`, { bench: 'webshop', patch: composeWebShopPatch([id]).patch }]),
  ['webshop all', { bench: 'webshop', patch: composeWebShopPatch([...WEBSHOP_SIGNATURE_IDS]).patch }],
  ['webshop all, reversed', { bench: 'webshop', patch: composeWebShopPatch([...WEBSHOP_SIGNATURE_IDS].reverse()).patch }],
  ['webshop soft', { bench: 'webshop', patch: composeWebShopPatch([]).patch }],
  ...ALFWORLD_SIGNATURE_IDS.map((id): [string, Producible] => [`alfworld ${id}`, { bench: 'alfworld', patch: composeAlfworldPatch([id]).patch }]),
  ['alfworld all', { bench: 'alfworld', patch: composeAlfworldPatch([...ALFWORLD_SIGNATURE_IDS]).patch }],
  ['alfworld all, reversed', { bench: 'alfworld', patch: composeAlfworldPatch([...ALFWORLD_SIGNATURE_IDS].reverse()).patch }],
  ['alfworld soft', { bench: 'alfworld', patch: composeAlfworldPatch([]).patch }],
];

describe('every WebShop and ALFWorld patch passes the real validator and sandbox compiler', () => {
  it.each(PRODUCIBLE)('%s', async (_name, { bench, patch }) => {
    const verdict = await validatePatch(patch, { bench, benchmarks: BUILTIN_PATCH_RULES, compiler, codeHookOnly: true, rejectRuntimeNoop: true });
    if (verdict.kind === 'invalid') throw new Error(`invalid: ${JSON.stringify(verdict.rejection)}`);
    expect(verdict.kind).toBe('valid');
    const hooks = patch.actions.map((a) => a.hook);
    expect(hooks.length).toBeGreaterThanOrEqual(1);
    expect(hooks.length).toBeLessThanOrEqual(4);
    expect(new Set(hooks).size).toBe(hooks.length);
    expect([...hooks].sort((a, b) => HOOK_ORDER.indexOf(a) - HOOK_ORDER.indexOf(b))).toEqual(hooks);
    expect(findForbiddenPattern(patch.description)).toBeUndefined();
    expect(patch.description).not.toMatch(/\d/);
    const installed = await createPythonHookProvider(pool, patch.actions as never, { rules: { numberedInstances: bench === 'alfworld' } });
    expect(installed.dropped).toEqual([]);
    for (const h of installed.installed) expect(h.nodeCount).toBeLessThanOrEqual(1200);
  });

  it('a WebShop batch with only guarded signatures gets a single on_before_action', () => {
    expect(composeWebShopPatch(['premature_buy', 'over_budget_buy']).patch.actions.map((a) => a.hook)).toEqual(['on_before_action']);
  });

  it('the ALFWorld compiler rejects a numbered-instance literal, so the templates carry none', async () => {
    const bad = { ...composeAlfworldPatch(['invalid_action']).patch };
    bad.actions = [{ type: 'add_code_hook', hook: 'on_init', code: "def hook(ctx, nb):\n    return {'skills': ['go to desk 1 first']}\n" }];
    const verdict = await validatePatch(bad, { benchmarks: BUILTIN_PATCH_RULES, bench: 'alfworld', compiler, codeHookOnly: true, rejectRuntimeNoop: true });
    expect(verdict.kind).toBe('invalid');
  });
});
