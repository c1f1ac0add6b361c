import { ConfigError } from '../episode/index.js';
import type { ChatModel } from '../models/chat-model.js';
import { startFakeOpenAIServer, type FakeOpenAIServer } from '../models/fake-openai-server.js';
import { createOpenAICompatibleModel, type OpenAICompatibleModel } from '../models/openai-compatible-model.js';
import { loadScriptedModelFile } from '../models/scripted-model.js';
import type { BenchmarkRegistry } from '../benchmarks/registry.js';
import { withStrategyReplies } from '../runtime/strategies/sim-strategy-replies.js';
import { checkTargetSpec, simSpecs } from './check-specs.js';

export { simSpecs };
export interface ResolvedTarget {
  model: ChatModel & Partial<Pick<OpenAICompatibleModel, 'endpoint' | 'listModels'>>;
  /** Stops whatever the target started (the simulated target's local server). */
  close(): Promise<void>;
}

/**
 * Turns a target SPEC into a chat model. A simulated target is served over a local OpenAI-compatible
 * HTTP server and reached through the same client as a real server, so the real code path runs.
 */
export async function resolveTarget(spec: string, context: { dataDir?: string; registry: BenchmarkRegistry; bench?: string; taskFile?: string }): Promise<ResolvedTarget> {
  const { parsed, sim } = checkTargetSpec(spec, context);
  switch (parsed.kind) {
    case 'openai': {
      const model = createOpenAICompatibleModel({ baseURL: parsed.baseURL, model: parsed.model, ...parsed.settings });
      return { model, close: async () => {} };
    }
    case 'scripted':
      return { model: loadScriptedModelFile(parsed.path), close: async () => {} };
    case 'sim': {
      if (!context.dataDir) throw new ConfigError({ message: 'The simulated target needs the data directory.', field: 'dataDir' });
      const { latencyMs, simParams } = sim!;
      const server = await startSimulatedServer({ registry: context.registry, bench: parsed.bench, dataDir: context.dataDir, simParams, latencyMs, ...(context.taskFile !== undefined ? { taskFile: context.taskFile } : {}) });
      const query = new URLSearchParams(parsed.params).toString();
      const label = `sim:${parsed.bench}?${query || 'seed=0'} (simulated target)`;
      const base = createOpenAICompatibleModel({ baseURL: server.url, model: `sim-${parsed.bench}`, label, retry: { maxAttempts: 1 } });
      const model: ResolvedTarget['model'] = {
        label,
        simulated: true,
        complete: (request) => base.complete(request),
        warmUp: () => base.warmUp(),
        endpoint: base.endpoint,
        listModels: (signal) => base.listModels(signal),
      };
      return { model, close: () => server.close() };
    }
    case 'symbolic':
      throw new Error('unreachable: checkTargetSpec refuses symbolic targets');
  }
}

/**
 * The local OpenAI-compatible server of a simulated target (model id `sim-<bench>`), answering as the
 * benchmark's simulation with `simParams` after `latencyMs` per reply. `resolveTarget` starts it in this
 * process; the concurrency bench also starts it in a process of its own, as a real model server would be.
 */
export async function startSimulatedServer(options: {
  registry: BenchmarkRegistry; bench: string; dataDir: string; simParams: Record<string, string>; latencyMs: number; taskFile?: string;
}): Promise<FakeOpenAIServer> {
  const { registry, bench, dataDir, latencyMs, taskFile } = options;
  // The baseline strategies' own requests (critique, reflection) are answered in front of the simulation;
  // a Reflection retry is played by the same simulation under a derived seed (an independent second draw).
  const params = new URLSearchParams(options.simParams);
  const retryParams = new URLSearchParams(options.simParams);
  retryParams.set('seed', String(retrySeed(Number(params.get('seed') ?? 0))));
  let retry: ReturnType<typeof simulatedReplier> | undefined;
  const reply = withStrategyReplies(simulatedReplier(registry, bench, dataDir, params, taskFile), (request) =>
    (retry ??= simulatedReplier(registry, bench, dataDir, retryParams, taskFile))(request),
  );
  return startFakeOpenAIServer({
    recordRequests: false,
    models: [`sim-${bench}`],
    handler: (request) => {
      const r = reply(request);
      return { kind: 'raw', status: r.status, body: r.body as Record<string, unknown>, ...(latencyMs > 0 ? { delayMs: latencyMs } : {}) };
    },
  });
}

/** The seed a simulated target plays a Reflection retry with: another draw, fixed by the run's seed. */
function retrySeed(seed: number): number {
  return Number.isFinite(seed) ? (seed * 7919 + 104729) % 2_147_483_647 : 104729;
}

/** The simulated target of a benchmark as a request → HTTP reply function. */
/** `taskFile` is the task file the run plays (`--data`, `--games`), so the target knows its tasks as it knows the shipped ones. */
function simulatedReplier(registry: BenchmarkRegistry, bench: string, dataDir: string, params: URLSearchParams, taskFile: string | undefined): (request: unknown) => { status: number; body: unknown } {
  const simulation = registry.find(bench)?.simulation;
  if (!simulation) throw new ConfigError({ message: `There is no simulated target for '${bench}'.`, field: 'target', allowed: simSpecs(registry) });
  return simulation.create(params, { dataDir, ...(taskFile !== undefined ? { taskFile } : {}) });
}
