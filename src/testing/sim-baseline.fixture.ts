/**
 * Test support: a real no-harness baseline on DBBench dev, played by the simulated target over its local
 * OpenAI-compatible server with the SQLite backend, as `src/runtime/run-episode.test.ts` does. A task whose
 * table cannot be created (dev #5) ends as an `env_error` record, as `runBatch` records it.
 */
import { resolveTarget } from '../app/resolve-target.js';
import { resolveDataDir } from '../config/data-dir.js';
import { EPISODE_RECORD_VERSION, type EpisodeRecord } from '../episode/index.js';
import { alfworldEnvironment } from '../benchmarks/alfworld/environment.js';
import { dbBenchEnvironment } from '../benchmarks/dbbench/environment.js';
import { createSqliteBackend } from '../environments/dbbench/sqlite-backend.js';
import { webShopEnvironment } from '../benchmarks/webshop/environment.js';
import { NO_HOOKS } from '../hooks/native-hooks.js';
import { runEpisode } from '../runtime/run-episode.js';
import type { EngineerInput } from '../engineer/engineer.js';
import type { EngineerBenchmark } from '../engineer/engineer.js';
import { BenchmarkRegistry } from '../benchmarks/registry.js';

export async function runSimBaseline(taskIndices: number[], spec = 'sim:dbbench?seed=1'): Promise<EpisodeRecord[]> {
  const dataDir = resolveDataDir();
  const environment = dbBenchEnvironment({ dataDir, split: 'dev', backend: createSqliteBackend() });
  const target = await resolveTarget(spec, { dataDir, registry: TEST_REGISTRY });
  const records: EpisodeRecord[] = [];
  try {
    for (const index of taskIndices) {
      let episode;
      try {
        episode = await environment.openEpisode(index);
      } catch (error) {
        records.push({
          schemaVersion: EPISODE_RECORD_VERSION,
          task: { bench: 'dbbench', split: 'dev', index },
          attempt: 1,
          outcome: 'env_error',
          reward: 0,
          rounds: 0,
          detail: { error: error instanceof Error ? error.message : String(error), stage: 'setup' },
          steps: [],
          hookTrace: [],
          messages: [],
          usage: { promptTokens: 0, completionTokens: 0, modelCalls: 0 },
        });
        continue;
      }
      const { record } = await runEpisode({ model: target.model, episode, hooks: await NO_HOOKS.openEpisode() });
      records.push(record);
    }
  } finally {
    await target.close();
    await environment.close();
  }
  return records;
}

/** The built-in benchmarks, for tests. */
export const TEST_REGISTRY = new BenchmarkRegistry();

/** The engineer view of a built-in benchmark. */
export function engineerBenchmark(name: string): EngineerBenchmark {
  return TEST_REGISTRY.get(name).engineer;
}

/** An engineer input over baseline episodes; `bench` names a built-in benchmark (DBBench by default). */
export function engineerInput(episodes: EpisodeRecord[], overrides: Partial<EngineerInput> & { bench?: string } = {}): EngineerInput {
  const { bench = 'dbbench', ...rest } = overrides;
  return {
    benchmark: engineerBenchmark(bench),
    batchTag: 'batch_000',
    split: 'dev',
    taskIndices: episodes.map((e) => e.task.index),
    episodes,
    passThreshold: 1,
    ...rest,
  };
}

/**
 * A real no-harness baseline on ALFWorld dev or WebShop, played by the simulated target of that benchmark
 * (`sim:<bench>?seed=…`). Every index must open: these environments have no setup failures to record.
 */
export async function runSimTraceBaseline(bench: 'alfworld' | 'webshop', taskIndices: number[], seed = 1): Promise<EpisodeRecord[]> {
  const dataDir = resolveDataDir();
  const environment = bench === 'alfworld' ? alfworldEnvironment({ dataDir, split: 'dev' }) : webShopEnvironment({ dataDir });
  const target = await resolveTarget(`sim:${bench}?seed=${seed}`, { dataDir, registry: TEST_REGISTRY });
  const records: EpisodeRecord[] = [];
  try {
    for (const index of taskIndices) {
      const episode = await environment.openEpisode(index);
      const { record } = await runEpisode({ model: target.model, episode, hooks: await NO_HOOKS.openEpisode() });
      records.push(record);
    }
  } finally {
    await target.close();
    await environment.close();
  }
  return records;
}
