import { readFileSync } from 'node:fs';
import path from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { BUILTIN_PATCH_RULES } from '../../src/testing/builtin-patch-rules.js';

import { resolveDataDir } from '../../src/config/data-dir.js';
import { normalizeHookResult } from '../../src/hooks/normalize-effect.js';
import { codeHooksOf } from '../../src/patch/patch-parts.js';
import { validatePatch } from '../../src/patch/index.js';
import { sandboxCompiler } from '../../src/app/sandbox-compiler.js';
import { createPythonHookProvider, createSandboxPool } from '../../src/sandbox/index.js';

/**
 * The original demo's recorded WebShop contexts (patches/demo/artifacts/replay_states.json): running the
 * demo patch's on_before_action on each must give the effect the original recorded. The two products are
 * not in the shipped 1,000-product catalogue, so the contexts cannot be rebuilt by our engine here.
 */
const dir = path.join(resolveDataDir(), 'patches', 'demo', 'artifacts');
const states = JSON.parse(readFileSync(path.join(dir, 'replay_states.json'), 'utf8')) as {
  scenarios: { id: string; expect: string; ctx: Record<string, unknown>; product: string }[];
};
const pool = createSandboxPool({ size: 1 });
afterAll(() => pool.close());

describe('the original demo patch on its recorded WebShop contexts', () => {
  it('has the recorded scenarios, none of whose products is in the shipped catalogue', () => {
    expect(states.scenarios.map((s) => s.id)).toEqual(['task-85-missing-flavor', 'task-83-unselected-options', 'task-83-options-selected']);
    const catalogue = readFileSync(path.join(resolveDataDir(), 'webshop', 'items_shuffle_1000.json'), 'utf8');
    for (const s of states.scenarios) expect(catalogue.includes(s.product.slice(0, 30))).toBe(false);
  });

  it.each(states.scenarios.map((s) => [s.id, s]))('%s gives the recorded effect', async (_id, scenario) => {
    const verdict = await validatePatch(JSON.parse(readFileSync(path.join(dir, 'patch.json'), 'utf8')), { benchmarks: BUILTIN_PATCH_RULES, bench: 'webshop', compiler: sandboxCompiler(pool), codeHookOnly: true });
    expect(verdict.kind).toBe('valid');
    if (verdict.kind !== 'valid') return;
    const provider = await createPythonHookProvider(pool, codeHooksOf(verdict.patch), { rules: { numberedInstances: false } });
    const episode = await provider.openEpisode();
    try {
      const [result] = await episode.call('on_before_action', scenario.ctx);
      expect(result && 'raw' in result, JSON.stringify(result)).toBe(true);
      const effect = result && 'raw' in result ? normalizeHookResult('on_before_action', result.raw, scenario.ctx) : undefined;
      expect(effect?.kind ?? 'no intervention').toBe(scenario.expect);
    } finally {
      await episode.close();
    }
  });
});
