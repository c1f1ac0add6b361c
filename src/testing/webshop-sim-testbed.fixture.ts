/**
 * Test support: the simulated WebShop target served over a real local HTTP server and played through
 * `runEpisode`, in either protocol. Shared by the FC and v0.2 tests of this folder.
 */
import type { EpisodeRecord } from '../episode/index.js';
import type { TargetProtocol } from '../environments/environment.js';
import { type loadSharedWebShopEngine } from '../environments/webshop/webshop-environment.js';
import { webShopEnvironment } from '../benchmarks/webshop/environment.js';
import type { HookProvider } from '../hooks/hook-provider.js';
import { NO_HOOKS } from '../hooks/native-hooks.js';
import type { ChatModel } from '../models/chat-model.js';
import { startFakeOpenAIServer, type FakeOpenAIServer } from '../models/fake-openai-server.js';
import { createOpenAICompatibleModel } from '../models/openai-compatible-model.js';
import { runEpisode } from '../runtime/run-episode.js';
import { createWebShopSimHandler, toWebShopSimHttpReply, type WebShopSimHandlerOptions } from '../benchmarks/webshop/simulation/wire-handler.js';

export interface WebShopSimTestbed {
  /** A simulated target with these settings, reached over HTTP like a real model. */
  target(options: Omit<WebShopSimHandlerOptions, 'dataDir' | 'engine'>): Promise<ChatModel>;
  /** Plays the goals in order, one episode each, with fresh hooks per episode. */
  playAll(model: ChatModel, indices: readonly number[], hooks?: HookProvider): Promise<EpisodeRecord[]>;
  close(): Promise<void>;
}

export function createWebShopSimTestbed(options: { dataDir: string; engine: ReturnType<typeof loadSharedWebShopEngine>; protocol: TargetProtocol }): WebShopSimTestbed {
  const { dataDir, engine } = options;
  const env = webShopEnvironment({ dataDir, goals: 'synthetic', engine, protocol: options.protocol });
  const servers: FakeOpenAIServer[] = [];
  return {
    async target(settings) {
      const handler = createWebShopSimHandler({ dataDir, engine, ...settings });
      const server = await startFakeOpenAIServer({
        recordRequests: false,
        models: ['sim-webshop'],
        handler: (request) => {
          const reply = toWebShopSimHttpReply(handler(request));
          return { kind: 'raw', status: reply.status, body: reply.body };
        },
      });
      servers.push(server);
      return createOpenAICompatibleModel({ baseURL: server.url, model: 'sim-webshop', label: 'sim:webshop (simulated target)', retry: { maxAttempts: 1 } });
    },
    async playAll(model, indices, hooks = NO_HOOKS) {
      const records: EpisodeRecord[] = [];
      for (const index of indices) {
        const { record } = await runEpisode({ model, episode: await env.openEpisode(index), hooks: await hooks.openEpisode() });
        records.push(record);
      }
      return records;
    },
    async close() {
      await Promise.all(servers.map((s) => s.close()));
    },
  };
}
