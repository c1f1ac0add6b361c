/**
 * Prints the held-out figures computed from the per-seed counts of the original's results.json (read in
 * place): the headline per editor, the full-split range, and each seed's paired statistics.
 *
 *   npx tsx bench/heldout-figures.ts [path/to/results.json]
 */
import path from 'node:path';

import { resolveDataDir } from '../src/config/data-dir.js';
import { formatHeldoutHeadline, fullSplitRange, heldoutCells, poolHeldoutCells, readHeldoutResults, summarizeHeldoutSeeds } from '../src/experiments/heldout/index.js';
import { formatPairedSummary, formatSeedSpread } from '../src/statistics/index.js';

const file = process.argv[2] ?? path.join(resolveDataDir(), 'patches', 'heldout_generalization', 'results.json');
const results = readHeldoutResults(file);
for (const [id, editor] of Object.entries(results.editors)) {
  const pool = poolHeldoutCells(heldoutCells(results, id));
  console.log(formatHeldoutHeadline(editor.display_name, pool));
  console.log(`  pooled Δ passes per seed ${pool.deltaPass.values.join(', ')}: ${formatSeedSpread(pool.deltaPass, { unit: 'score', digits: 2 })}`);
  for (const b of pool.perBench) console.log(`  ${b.bench.padEnd(9)} ${formatSeedSpread(b.deltaRate, { digits: 2 })}, valid ${b.valid}/${pool.seeds.length}`);
  const { low, high } = fullSplitRange(pool, results.evidence_per_benchmark);
  console.log(`  full split (${low.perSeed[0]!.tasks} tasks): between ${formatSeedSpread(low.deltaRate, { digits: 2 })} and ${formatSeedSpread(high.deltaRate, { digits: 2 })} (evidence outcomes not recorded)`);
  const started = performance.now();
  for (const s of summarizeHeldoutSeeds(pool)) {
    console.log(`  seed ${s.seed} pooled: ${formatPairedSummary(s.pooled)}`);
    for (const b of s.perBench) console.log(`    ${b.bench.padEnd(9)} ${formatPairedSummary(b.summary)}`);
  }
  console.log(`  (paired statistics: 10,000 resamples per line, ${((performance.now() - started) / 1000).toFixed(2)} s for the editor)`);
}
