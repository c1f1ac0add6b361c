/**
 * How many episodes a flaky link to the model server costs: DBBench dev with the simulated target behind a
 * real local HTTP server that spoils a share of its answers, as a faulty proxy does — half of the spoiled
 * answers are cut short inside their JSON (a complete HTTP response with a truncated body), half lose the
 * connection in the middle of the body. The client runs with its default five attempts (short waits, so
 * the bench is quick). Prints the outcomes, the model_error count and how many answers were spoiled.
 *
 *   npx tsx bench/model-fault-bench.ts [--tasks 0:60] [--rate 0.2] [--seed 1]
 */
import pLimit from 'p-limit';

import { parseTaskRange } from '../src/cli/parse-task-range.js';
import { resolveDataDir } from '../src/config/data-dir.js';
import { dbBenchEnvironment } from '../src/benchmarks/dbbench/environment.js';
import { createSqliteBackend } from '../src/environments/dbbench/sqlite-backend.js';
import { NO_HOOKS } from '../src/hooks/native-hooks.js';
import { startFakeOpenAIServer, type FakeResponse } from '../src/models/fake-openai-server.js';
import { createOpenAICompatibleModel } from '../src/models/openai-compatible-model.js';
import { runEpisode } from '../src/runtime/run-episode.js';
import { createDbBenchSimHandler, toSimHttpReply } from '../src/benchmarks/dbbench/simulation/wire-handler.js';
import { seededRandom } from './seeded-random.js';

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(name);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1]! : fallback;
}

const dataDir = resolveDataDir();
const tasks = parseTaskRange(arg('--tasks', '0:60'), 60);
const rate = Number(arg('--rate', '0.2'));
const random = seededRandom(Number(arg('--seed', '1')));
const sim = createDbBenchSimHandler({ dataDir, seed: 1 });
const spoiled = { truncated: 0, dropped: 0, answers: 0 };

const server = await startFakeOpenAIServer({
  recordRequests: false,
  handler: (request): FakeResponse => {
    const reply = toSimHttpReply(sim(request));
    const text = JSON.stringify(reply.body);
    spoiled.answers++;
    const roll = random();
    if (reply.status !== 200 || roll >= rate) return { kind: 'raw', status: reply.status, body: reply.body as Record<string, unknown> };
    const cut = 1 + Math.floor(random() * (text.length - 2));
    if (roll < rate / 2) {
      spoiled.truncated++;
      return { kind: 'raw', body: text.slice(0, cut), headers: { 'content-type': 'application/json' } };
    }
    spoiled.dropped++;
    return { kind: 'stream', head: text, declareLength: true, dropAfterBytes: cut };
  },
});

const model = createOpenAICompatibleModel({ baseURL: server.url, model: 'sim-dbbench', env: {}, retry: { baseDelayMs: 20, maxDelayMs: 200 } });
const environment = dbBenchEnvironment({ dataDir, split: 'dev', backend: createSqliteBackend() });
const outcomes: Record<string, number> = {};
const errors: string[] = [];
// One episode at a time, so the seeded faults land on the same answers in every run.
const limit = pLimit(1);
await Promise.all(
  tasks.map((index) =>
    limit(async () => {
      const episode = await environment.openEpisode(index).catch(() => undefined);
      if (episode === undefined) {
        // A task whose table cannot be built (dev #5) is an env_error before any model call.
        outcomes.env_error = (outcomes.env_error ?? 0) + 1;
        return;
      }
      const { record } = await runEpisode({ model, episode, hooks: await NO_HOOKS.openEpisode() });
      outcomes[record.outcome] = (outcomes[record.outcome] ?? 0) + 1;
      if (record.outcome === 'model_error') errors.push(`task ${index}: ${String(record.detail.error).slice(0, 160)}`);
    }),
  ),
);
await environment.close();
await server.close();

console.log(`model fault bench: DBBench dev, ${tasks.length} tasks, simulated target, ${(rate * 100).toFixed(0)} % of answers spoiled, 5 attempts per call`);
console.log(`answers served ${spoiled.answers}: truncated JSON ${spoiled.truncated}, connection lost mid-body ${spoiled.dropped}`);
console.log(`outcomes: ${Object.entries(outcomes).sort().map(([o, n]) => `${o} ${n}`).join(', ')}`);
console.log(`model_error episodes: ${outcomes.model_error ?? 0} of ${tasks.length}`);
for (const line of errors.slice(0, 5)) console.log(`  ${line}`);
