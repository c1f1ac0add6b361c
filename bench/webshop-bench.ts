/**
 * WebShop engine throughput on the shipped data (synthetic goals):
 * - search latency: BM25 over the 1,000-product index for every distinct query and instruction of
 *   goal_query_map.json, each run once uncached (p50, p99, max);
 * - steps per second: seeded random episodes (search a human query, page, open products, pick
 *   options, open sub-pages, buy) and the gold purchase of every goal.
 *
 *   npx tsx bench/webshop-bench.ts [--data DIR] [--episodes 2000]
 */
import path from 'node:path';

import { resolveDataDir } from '../src/config/data-dir.js';
import { playAllGoldPurchases } from '../src/environments/webshop/gold-purchase.js';
import { readJsonFile, WEBSHOP_FILES } from '../src/environments/webshop/load-catalogue.js';
import { createPythonRandom } from '../src/python/python-random.js';
import { createWebShopSearch } from '../src/environments/webshop/search.js';
import { createWebShopSession } from '../src/environments/webshop/session.js';
import { loadWebShopEngine } from '../src/environments/webshop/webshop-engine.js';

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(name);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1]! : fallback;
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

const dataDir = arg('--data', path.join(resolveDataDir(), 'webshop'));
const episodes = Number(arg('--episodes', '2000'));

let started = performance.now();
const engine = loadWebShopEngine({ dataDir, goals: 'synthetic' });
console.log(`engine load: ${(performance.now() - started).toFixed(0)} ms (${engine.catalogue.products.length} products, ${engine.goalSet.goals.length} goals)`);

const queryMap = readJsonFile(path.join(dataDir, WEBSHOP_FILES.goalQueryMap)) as Record<string, string[]>;
const queries = [...new Set([...Object.keys(queryMap), ...Object.values(queryMap).flat()])];
const search = createWebShopSearch(engine.catalogue.products);
for (const q of queries.slice(0, 200)) search.rank(`${q} warmup`);
const latencies = queries.map((q) => {
  const t = performance.now();
  search.rank(q);
  return performance.now() - t;
});
latencies.sort((a, b) => a - b);
console.log(
  `search latency over ${latencies.length} distinct queries (top 50, uncached): p50 ${percentile(latencies, 50).toFixed(3)} ms, ` +
    `p99 ${percentile(latencies, 99).toFixed(3)} ms, max ${latencies.at(-1)!.toFixed(3)} ms`,
);

const rng = createPythonRandom(1);
const humanQueries = Object.values(queryMap).flat();
const session = createWebShopSession({ engine });
let steps = 0;
started = performance.now();
for (let e = 0; e < episodes; e++) {
  session.reset(rng.randbelow(engine.goalSet.goals.length));
  let result = session.step(`search[${humanQueries[rng.randbelow(humanQueries.length)]!.replace(/[[\]]/g, ' ')}]`);
  steps++;
  for (let s = 0; s < 14 && !result.done; s++) {
    const choices = result.clickables.filter((c) => c !== 'search' && (s >= 6 || c !== 'buy now'));
    if (choices.length === 0) break;
    result = session.step(`click[${choices[rng.randbelow(choices.length)]!}]`);
    steps++;
  }
}
let seconds = (performance.now() - started) / 1000;
console.log(`random episodes: ${episodes} episodes, ${steps} steps in ${seconds.toFixed(2)} s = ${(steps / seconds).toFixed(0)} steps/s`);

started = performance.now();
const gold = playAllGoldPurchases(engine);
seconds = (performance.now() - started) / 1000;
console.log(
  `gold purchases: ${gold.scored}/${gold.total} scored 1.0, ${gold.steps} steps in ${seconds.toFixed(2)} s = ${(gold.steps / seconds).toFixed(0)} steps/s ` +
    '(title searches repeat across goals of one product and hit the per-query memo)',
);
