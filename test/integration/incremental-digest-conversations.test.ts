import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { resolveTarget } from '../../src/app/resolve-target.js';
import { resolveDataDir } from '../../src/config/data-dir.js';
import { runBatch } from '../../src/evaluation/run-batch.js';
import { NO_HOOKS } from '../../src/hooks/native-hooks.js';
import type { ChatModel, ChatRequest } from '../../src/models/chat-model.js';
import { incrementalDigest } from '../../src/models/incremental-digest.js';
import { requestDigest } from '../../src/models/recorded-turn.js';
import type { StrategyName } from '../../src/runtime/strategies/index.js';
import { RUN_MANIFEST_VERSION } from '../../src/store/run-manifest.js';
import { RunStore } from '../../src/store/run-store.js';
import { TEST_REGISTRY } from '../../src/testing/sim-baseline.fixture.js';

/**
 * The incremental request digest over real conversations: the requests the agent loop sends to the
 * simulated ALFWorld and WebShop targets (both protocols, and with a strategy whose critique requests
 * interleave with the episode's own), each digested as it was sent. Every digest must be `requestDigest`'s.
 */
const dataDir = resolveDataDir();
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** Runs `tasks` episodes one after the other and returns every request in the order it was sent. */
async function sentRequests(bench: string, protocol: string, tasks: number, strategy?: StrategyName): Promise<ChatRequest[]> {
  const definition = TEST_REGISTRY.get(bench);
  const { environment } = await definition.open({ dataDir, split: definition.defaultSplit, protocol, options: {} });
  const target = await resolveTarget(`sim:${bench}?seed=1`, { dataDir, registry: TEST_REGISTRY });
  const sent: ChatRequest[] = [];
  const capture: ChatModel = {
    label: target.model.label,
    simulated: true,
    complete: (request) => {
      const { signal: _signal, ...copy } = request;
      sent.push(structuredClone(copy));
      return target.model.complete(request);
    },
  };
  const dir = mkdtempSync(path.join(tmpdir(), 'harness-digest-'));
  dirs.push(dir);
  const taskIndices = Array.from({ length: Math.min(tasks, environment.size) }, (_, i) => i);
  const store = RunStore.create(dir, {
    schemaVersion: RUN_MANIFEST_VERSION, runId: 'digest', createdAt: '', bench, split: environment.split, taskIndices,
    target: { spec: `sim:${bench}?seed=1`, label: target.model.label, simulated: true }, patch: null, options: {},
  });
  try {
    await runBatch({ environment, model: capture, hooks: NO_HOOKS, taskIndices, store, concurrency: 1, ...(strategy ? { strategy } : {}) });
  } finally {
    store.close();
    await target.close();
    await environment.close();
  }
  return sent;
}

const cases: [string, string, StrategyName | undefined][] = [
  ['alfworld', 'fc', undefined],
  ['alfworld', 'v0.2', undefined],
  ['webshop', 'fc', undefined],
  ['webshop', 'v0.2', undefined],
  ['webshop', 'fc', 'self_refine'],
];

describe('incrementalDigest over the requests of real episodes', () => {
  it.each(cases)('%s %s (strategy %s): every digest is requestDigest', async (bench, protocol, strategy) => {
    const requests = await sentRequests(bench, protocol, 8, strategy);
    expect(requests.length).toBeGreaterThan(16);
    // One digest for the whole run: episode boundaries and strategy requests change the prefix.
    const digests = incrementalDigest();
    const incremental = requests.map((r) => digests.digest(r));
    expect(incremental).toEqual(requests.map(requestDigest));
    // And it was incremental: far fewer messages serialised than a full digest of every request would
    // (8 episodes of 45 to 65 requests serialise about a sixth of them). A strategy's critique requests
    // interleave with the episode's own, so each switch starts over from the first message.
    const total = requests.reduce((n, r) => n + r.messages.length, 0);
    expect(digests.hashedMessages).toBeLessThan(strategy === undefined ? total / 3 : total);
  }, 120_000);
});
