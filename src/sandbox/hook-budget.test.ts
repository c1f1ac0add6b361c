import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { HookCallResult } from '../hooks/hook-provider.js';
import { createPythonHookProvider } from './python-hook-provider.js';
import { createSandboxPool, type SandboxPool } from './worker-pool.js';

// A hook that computes for about 200 ms of CPU and then returns on its own (measured on the project's
// machines: 190–220 ms of worker CPU). It runs 400 short C-level sums, so it stays far below the 2000-line
// budget and reaches the interpreter's interrupt checks often. The budget is CPU time (a starved worker gets
// more wall time), so a loaded machine does not change the verdicts below; nothing here asserts a time.
const BURN = [
  'def hook(ctx, nb):',
  '    nb["started"] = True',
  '    total = 0',
  '    for i in range(400):',
  '        total += sum(range(20000))',
  '    return {"message": str(total)}',
  '',
].join('\n');

const FINISHED = { message: String(400 * ((20000 * 19999) / 2)) };

async function callBurn(pool: SandboxPool): Promise<HookCallResult | undefined> {
  const provider = await createPythonHookProvider(pool, [{ hook: 'make_pre_hint', code: BURN }], { rules: { numberedInstances: false } });
  const episode = await provider.openEpisode();
  try {
    return (await episode.call('make_pre_hint', {}))[0];
  } finally {
    await episode.close();
  }
}

describe('the hook CPU budget', () => {
  let defaults: SandboxPool;
  let roomy: SandboxPool;

  beforeAll(async () => {
    defaults = createSandboxPool({ size: 1 });
    roomy = createSandboxPool({ size: 1, hookTimeoutMs: 2000 });
    await Promise.all([defaults.ready(), roomy.ready()]);
  });

  afterAll(async () => {
    await Promise.all([defaults.close(), roomy.close()]);
  });

  it('lets the burning hook finish when its budget is large enough: it is slow, not endless', async () => {
    expect(await callBurn(roomy)).toEqual({ hookIndex: 0, raw: FINISHED });
  });

  it('stops it with a timeout fault under the default 50 ms budget', async () => {
    const result = await callBurn(defaults);
    expect(result).toMatchObject({ hookIndex: 0, fault: { kind: 'timeout', message: expect.stringMatching(/^hook exceeded (its|the 50 ms) wall-clock limit/) } });
  });
});
