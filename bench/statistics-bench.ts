/**
 * Speed of the paired statistics at the sizes the experiments use: the bootstrap at the held-out split
 * size (1,270 tasks) and the exact McNemar test as b + c grows. Prints milliseconds; nothing is asserted.
 *
 *   npx tsx bench/statistics-bench.ts
 */
import { createMersenneTwister, mcnemarExact, pairedBootstrap, pairedPassesFromCounts } from '../src/statistics/index.js';

function time<T>(run: () => T): { ms: number; value: T } {
  const started = performance.now();
  const value = run();
  return { ms: performance.now() - started, value };
}

const { baseline, patched } = pairedPassesFromCounts({ tasks: 1270, baselinePass: 550, rescued: 174, regressed: 68 });
const base = baseline.map(Number);
const pat = patched.map(Number);
pairedBootstrap(base, pat, { resamples: 200 });
for (const resamples of [1_000, 10_000, 100_000]) {
  const { ms, value } = time(() => pairedBootstrap(base, pat, { resamples }));
  const draws = resamples * 1270;
  console.log(`bootstrap 1,270 tasks × ${resamples.toLocaleString('en-US')} resamples: ${ms.toFixed(0)} ms (${((ms * 1e6) / draws).toFixed(1)} ns/draw), CI [${value.low.toFixed(4)}, ${value.high.toFixed(4)}]`);
}

const rng = createMersenneTwister(1);
const words = time(() => {
  let x = 0;
  for (let i = 0; i < 10_000_000; i++) x ^= rng.nextUint32();
  return x;
});
console.log(`MT19937 raw words: ${((words.ms * 1e6) / 10_000_000).toFixed(1)} ns/word`);

for (const n of [1_000, 10_000, 100_000]) {
  const b = Math.round(n * 0.52);
  const { ms, value } = time(() => mcnemarExact(b, n - b));
  console.log(`McNemar exact b+c = ${n.toLocaleString('en-US')} (b=${b}): ${ms.toFixed(1)} ms, p=${value.p.toExponential(3)}`);
}
