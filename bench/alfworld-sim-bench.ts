/**
 * The simulated ALFWorld target's cost per turn, in process (no HTTP): every dev game played to its end in
 * both protocols and both wordings, with the default faults at a few seeds. Prints the time spent inside the
 * handler per turn (p50, p99, mean, and the mean over turns past the 20th, where a full replay costs most),
 * the rest of the episode's time per step (runtime and environment), and a SHA-256 over every completion
 * the handler returned, so two builds can be checked to answer byte for byte the same.
 *
 *   npx tsx bench/alfworld-sim-bench.ts [--seeds 0,1,2] [--repeat 1]
 */
import { createHash } from 'node:crypto';

import { alfworldEnvironment } from '../src/benchmarks/alfworld/environment.js';
import { createAlfworldSimModel } from '../src/benchmarks/alfworld/simulation/in-process-sim-model.js';
import { createAlfworldSimHandler } from '../src/benchmarks/alfworld/simulation/wire-handler.js';
import { resolveDataDir } from '../src/config/data-dir.js';
import { NO_HOOKS } from '../src/hooks/native-hooks.js';
import { runEpisode } from '../src/runtime/run-episode.js';

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(name);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1]! : fallback;
}

function summary(values: readonly number[]): string {
  const s = [...values].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? 0;
  const mean = s.reduce((a, b) => a + b, 0) / Math.max(1, s.length);
  return `p50 ${at(0.5).toFixed(3)} ms  p99 ${at(0.99).toFixed(3)} ms  mean ${mean.toFixed(3)} ms  (n=${s.length})`;
}

const seeds = arg('--seeds', '0,1,2').split(',').map(Number);
const repeat = Number(arg('--repeat', '1'));
const dataDir = resolveDataDir();
const digest = createHash('sha256');
const handlerMs: number[] = [];
const lateHandlerMs: number[] = [];
const restPerStep: number[] = [];
let episodes = 0;

for (let r = 0; r < repeat; r++) {
  for (const protocol of ['fc', 'v0.2'] as const) {
    for (const wording of ['2.1.1', '2.1.2'] as const) {
      const environment = alfworldEnvironment({ dataDir, split: 'dev', wording, ...(protocol === 'v0.2' ? { protocol } : {}) });
      for (const seed of seeds) {
        const inner = createAlfworldSimHandler({ dataDir, seed });
        let turn = 0;
        let inHandler = 0;
        const handler = Object.assign(
          (body: unknown) => {
            const t0 = performance.now();
            const completion = inner(body);
            const ms = performance.now() - t0;
            inHandler += ms;
            handlerMs.push(ms);
            if (++turn > 20) lateHandlerMs.push(ms);
            if (r === 0) digest.update(JSON.stringify(completion)).update('\n');
            return completion;
          },
          { settings: inner.settings, policy: inner.policy },
        );
        const model = createAlfworldSimModel(handler);
        for (let index = 0; index < environment.size; index++) {
          turn = 0;
          inHandler = 0;
          const t0 = performance.now();
          const { record } = await runEpisode({ model, episode: await environment.openEpisode(index), hooks: await NO_HOOKS.openEpisode() });
          const total = performance.now() - t0;
          restPerStep.push((total - inHandler) / Math.max(1, record.steps.length));
          episodes++;
        }
      }
      await environment.close();
    }
  }
}

console.log(`ALFWorld simulated target: ${episodes} episodes (dev, fc and v0.2, wordings 2.1.1 and 2.1.2, seeds ${seeds.join(',')}), repeat ${repeat}`);
console.log(`  handler per turn: ${summary(handlerMs)}`);
console.log(`  handler per turn past the 20th: ${summary(lateHandlerMs)}`);
console.log(`  rest of the episode per step (runtime + environment): ${summary(restPerStep)}`);
console.log(`  completions sha256: ${digest.digest('hex')}`);
