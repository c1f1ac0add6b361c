import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

import { resolveDataDir } from '../../config/data-dir.js';
import { playAllGoldPurchases } from './gold-purchase.js';
import {
  assertRerunMatchesBaseline,
  createTaskManifestBuilder,
  identityMetadata,
  validateIdentityMetadata,
} from './identity-manifest.js';
import { hasHumanInstructions, readJsonFile, WEBSHOP_FILES } from './load-catalogue.js';
import { labelHumanQueries, labelSyntheticInstructions, measureRecallAtK } from './search-recall.js';
import { loadWebShopEngine } from './webshop-engine.js';

// Runs on the shipped WebShop files. Expected values come from CPython 3.11 running WebShop's own
// loading, price, goal and manifest code paths (random.seed(233) before start-up) on the same files.
const dataDir = path.join(resolveDataDir(), 'webshop');
const present = existsSync(path.join(dataDir, WEBSHOP_FILES.catalogue));

describe.skipIf(!present)('WebShop on the shipped data', () => {
  const engine = present ? loadWebShopEngine({ dataDir, goals: 'synthetic' }) : undefined!;

  it('loads and cleans all 1,000 products', () => {
    expect(engine.catalogue.products).toHaveLength(1000);
    expect(engine.catalogue.skipped).toEqual([]);
    expect(engine.catalogue.products.slice(0, 12).map((p) => p.priceTag)).toEqual([
      '$877.8', '$100.0', '$557.72', '$34.0', '$11.99', '$19.99 to $27.99', '$8.5', '$12.98', '$9.99', '$319.0', '$18.32', '$15.99',
    ]);
  });

  it('builds the 6,910 synthetic goals in the seed-233 order with Python-equal prices and caps', () => {
    const { goals, prices } = engine.goalSet;
    expect(goals).toHaveLength(6910);
    expect(goals.slice(0, 3).map((g) => [g.asin, g.instructionText, g.priceUpper, g.weight])).toEqual([
      ['B0743JKHBV', 'Find me double sided, machine washable decorative pillows with printing technology with size: 28" x 28", and price lower than 50.00 dollars', 50, 0.05299377134820173],
      ['B09QCP4579', "Find me butt lifting, light weight women's shorts with high waist, tummy control with color: black, and size: 3x-large, and price lower than 30.00 dollars", 30, 0.00992086000463998],
      ['B099WH1RTM', 'Find me ready hang wall art with solid wood for living room with color: turtles and african american couple, and size: 8x10 inch, and price lower than 50.00 dollars', 50, 0.016857078853046593],
    ]);
    expect([prices.get('B08ZRR3DZT'), prices.get('B07MGB73NJ'), prices.get('B09PLBDCBY')]).toEqual([25.44981531157882, 23.2732021098098, 5.090698030913073]);
  });

  it('hashes task manifests and the batch identity exactly as the Python protocol does', () => {
    const build = createTaskManifestBuilder(engine);
    const manifests = [0, 1, 2].map(build);
    expect(manifests[0]).toEqual({
      protocol: 'webshop_task_manifest_v1',
      goal_seed: 233,
      index: 0,
      instruction_sha256: 'f80e3e8cdc338b3ac4ef305e095257749e4822f74e399ca7337a61610ee63cfd',
      goal_sha256: '0705232709633f081dce8c778ffa3a14493bddce854ff10fdd8a2b2917b905dd',
      product_prices_sha256: '71ffc5b337cf715b474df9ab2b70cb1a986945d09d21eb590473ad62a93f54e6',
      sha256: 'fc69116b534d6d8da9d18ebd8922c95c05f7e37e50287cab1b21f81d75f0bf52',
    });
    const metadata = identityMetadata(manifests, { start: 0, end: 3, goalSeed: 233 });
    expect(metadata.ok && metadata.value.webshop_task_manifest_sha256).toBe('138bdb9a81f7fc8eb7d0e2d6a39a929664e9c7996c0e5e3fe197b5611eeaeaee');
    const checked = validateIdentityMetadata(metadata.ok ? { ...metadata.value, start: 0, end: 3 } : {});
    expect(checked.ok).toBe(true);
  });

  it('treats a rerun on differently drawn prices as a different batch (hard error)', () => {
    const baseline = new Map([0, 1, 2].map((i) => [i, createTaskManifestBuilder(engine)(i).sha256]));
    const rerunEngine = loadWebShopEngine({ dataDir, goals: 'synthetic', priceSeed: 7 });
    const rerun = new Map([0, 1, 2].map((i) => [i, createTaskManifestBuilder(rerunEngine)(i).sha256]));
    expect(() => assertRerunMatchesBaseline(baseline, rerun, { requireComplete: true })).toThrow(/identity mismatch.*mismatched=\[0,1,2\]/);
    expect(() => assertRerunMatchesBaseline(baseline, new Map(baseline), { requireComplete: true })).not.toThrow();
  });

  it('plays gold purchases to a reward of 1.0 (first 500 goals; `env check webshop` plays all)', () => {
    const report = playAllGoldPurchases(engine, { indices: Array.from({ length: 500 }, (_, i) => i) });
    expect(report.misses).toEqual([]);
    expect(report.scored).toBe(500);
  });

  it('ranks exactly as Lucene 8 with the same analyzer, BM25 (0.9, 0.4) and id tie-break', () => {
    // Top 10 and float scores printed by Lucene 8.7 (Debian liblucene8-java) over the same documents.
    const lucene: Record<string, [string, number][]> = {
      'i want a solid wood table in dark cognac brown color for my living room': [
        ['B09B77K9YQ', 10.90567], ['B079N3VLRJ', 10.247596], ['B09JC84P1M', 9.514652], ['B084HBQYTD', 9.505299], ['B09B7G7P58', 9.291728],
        ['B09LHM4WQS', 8.136264], ['B09HXDPKJF', 7.9588633], ['B09P39QN2W', 7.6833982], ['B09MCTMRH6', 7.2043414], ['B09DG92LJL', 7.144058],
      ],
      'great river milling flour': [
        ['B00RIK1LI0', 3.5451822], ['B01F3JGOWA', 1.7584362], ['B08MQF4FV1', 1.6549025], ['B09HX5CD2D', 1.6242627], ['B01MG1LTMS', 1.5929816],
        ['B07N7TDKXQ', 1.5929816], ['B004K6B5TK', 1.5494988], ['B07GFS3MNT', 1.5494988], ['B094QGVQLK', 1.5083268], ['B09PZZJ2XG', 1.5083268],
      ],
    };
    for (const [query, expected] of Object.entries(lucene)) {
      const hits = engine.search.rank(query, 10);
      expect(hits.map((h) => h.product.asin)).toEqual(expected.map(([asin]) => asin));
      hits.forEach((h, i) => expect(h.score).toBe(Math.fround(expected[i]![1])));
    }
  });

  it('reports search recall@10 (printed)', () => {
    const human = hasHumanInstructions(dataDir);
    if (human) {
      const humanEngine = loadWebShopEngine({ dataDir, goals: 'human' });
      const map = readJsonFile(path.join(dataDir, WEBSHOP_FILES.goalQueryMap)) as Record<string, string[]>;
      const report = measureRecallAtK(humanEngine.search, labelHumanQueries(humanEngine.catalogue, map), 10);
      console.log(`human-query recall@10: ${report.hits}/${report.total} = ${report.recall.toFixed(3)}`);
    } else {
      console.log('human-query recall@10: n/a (items_human_ins.json is not present, so no goal_query_map instruction can be tied to a product)');
    }
    const proxy = measureRecallAtK(engine.search, labelSyntheticInstructions(engine.catalogue), 10);
    console.log(`synthetic-instruction recall@10 (proxy): ${proxy.hits}/${proxy.total} = ${proxy.recall.toFixed(3)}`);
    expect(proxy.recall).toBeGreaterThan(0.7);
  });
});
