import { existsSync } from 'node:fs';
import path from 'node:path';

import { resolveDataDir } from '../../config/data-dir.js';
import { ConfigError } from '../../episode/index.js';
import { playAllGoldPurchases } from '../../environments/webshop/gold-purchase.js';
import type { GoldPurchaseResult } from '../../environments/webshop/gold-purchase.js';
import { hasHumanInstructions, readJsonFile, requireWebShopFile, WEBSHOP_FILES } from '../../environments/webshop/load-catalogue.js';
import type { GoalMode } from '../../environments/webshop/load-catalogue.js';
import { labelHumanQueries, labelSyntheticInstructions, measureRecallAtK } from '../../environments/webshop/search-recall.js';
import type { RecallReport } from '../../environments/webshop/search-recall.js';
import { loadWebShopEngine } from '../../environments/webshop/webshop-engine.js';
/** env check exits 0 whenever the check ran, whatever the count. */
const EXIT_OK = 0;

export interface EnvCheckWebShopOptions {
  /** The WebShop data folder (or a data root holding `webshop/`); the project's data directory by default. */
  dataDir?: string;
  json?: boolean;
  /** `human` or `synthetic`; human when `items_human_ins.json` is present, else synthetic. */
  goals?: string;
  /** Goal shuffle seed (233 unless set). */
  goalSeed?: number;
}

/**
 * `harness-r1 env check webshop [--data DIR]`: plays every goal's gold purchase through the
 * environment and reports `n/m scored 1.0` with the misses, then the search recall@10 of the human
 * queries in goal_query_map.json whose product is known (needs the human instructions), with the
 * synthetic-instruction recall as a proxy. Exit 0 whenever the check ran, whatever the count.
 */
export async function envCheckWebShop(o: EnvCheckWebShopOptions, out: NodeJS.WritableStream = process.stdout): Promise<number> {
  const dataDir = webShopDataDir(o.dataDir);
  const goals = goalMode(o.goals, dataDir);
  const engine = loadWebShopEngine({ dataDir, goals, ...(o.goalSeed === undefined ? {} : { goalSeed: o.goalSeed }) });
  const progress = !o.json && process.stderr.isTTY;
  const gold = playAllGoldPurchases(engine, {
    onProgress: (done, total) => {
      if (progress && (done % 100 === 0 || done === total)) process.stderr.write(`\rplaying ${done}/${total}`);
    },
  });
  if (progress) process.stderr.write('\n');

  let human: RecallReport | undefined;
  const mapFile = path.join(dataDir, WEBSHOP_FILES.goalQueryMap);
  if (goals === 'human' && existsSync(mapFile)) {
    human = measureRecallAtK(engine.search, labelHumanQueries(engine.catalogue, readJsonFile(mapFile) as Record<string, string[]>), 10);
  }
  const proxy = measureRecallAtK(engine.search, labelSyntheticInstructions(engine.catalogue), 10);

  if (o.json) {
    const summary = {
      dataDir,
      goals,
      goalSeed: engine.goalSet.goalSeed,
      skippedProducts: engine.catalogue.skipped,
      gold: { scored: gold.scored, total: gold.total, misses: gold.misses.map(describeMissJson) },
      recallAt10: {
        humanQueries: human ? { hits: human.hits, total: human.total, recall: human.recall } : null,
        syntheticInstructions: { hits: proxy.hits, total: proxy.total, recall: proxy.recall },
      },
    };
    out.write(`${JSON.stringify(summary, null, 2)}\n`);
    return EXIT_OK;
  }
  out.write(`${gold.scored}/${gold.total} scored 1.0 (WebShop gold purchases, ${goals} goals, goal seed ${engine.goalSet.goalSeed}, ${dataDir})\n`);
  for (const miss of gold.misses) out.write(`  miss #${miss.index} ${miss.asin}: ${describeMiss(miss)}\n`);
  for (const skip of engine.catalogue.skipped) out.write(`  catalogue record skipped: ${skip.asin} (${skip.reason})\n`);
  if (human) out.write(`search recall@10, human queries: ${human.hits}/${human.total} = ${human.recall.toFixed(3)}\n`);
  else out.write(`search recall@10, human queries: n/a (needs ${WEBSHOP_FILES.humanInstructions} to tie ${WEBSHOP_FILES.goalQueryMap} instructions to products)\n`);
  out.write(`search recall@10, synthetic instructions as queries (proxy): ${proxy.hits}/${proxy.total} = ${proxy.recall.toFixed(3)}\n`);
  return EXIT_OK;
}

function webShopDataDir(explicit: string | undefined): string {
  if (explicit === undefined) return path.join(resolveDataDir(), 'webshop');
  const dir = path.resolve(explicit);
  if (!existsSync(dir)) throw new ConfigError({ message: `WebShop data directory not found: ${dir}.`, field: 'data' });
  const nested = path.join(dir, 'webshop');
  if (!existsSync(path.join(dir, WEBSHOP_FILES.catalogue)) && existsSync(path.join(nested, WEBSHOP_FILES.catalogue))) return nested;
  requireWebShopFile(dir, WEBSHOP_FILES.catalogue, 'env check webshop');
  return dir;
}

function goalMode(requested: string | undefined, dataDir: string): GoalMode {
  if (requested === undefined) return hasHumanInstructions(dataDir) ? 'human' : 'synthetic';
  if (requested === 'human' || requested === 'synthetic') return requested;
  throw new ConfigError({ message: `Unknown WebShop goal mode '${requested}'.`, field: 'goals', allowed: ['human', 'synthetic'] });
}

function describeMiss(miss: GoldPurchaseResult): string {
  if (miss.problem) return miss.problem;
  const info = miss.rewardInfo;
  if (!info) return `reward ${miss.reward}`;
  const option = info.rOption === undefined ? '' : `, options ${info.optionMatches} (r_option ${info.rOption.toFixed(3)})`;
  return `reward ${miss.reward.toFixed(3)}: r_type ${info.rType} (title score ${info.titleScore.toFixed(3)}), attributes ${info.attributeMatches} (r_att ${info.rAtt.toFixed(3)})${option}, price ${info.rPrice ? 'ok' : 'over cap'}`;
}

function describeMissJson(miss: GoldPurchaseResult): Record<string, unknown> {
  return { index: miss.index, asin: miss.asin, reward: miss.reward, problem: miss.problem ?? null, query: miss.query ?? null, rewardInfo: miss.rewardInfo ?? null };
}
