/**
 * ALFWorld engine speed: loading, game creation (parsing the PDDL problem), reset time, and environment
 * steps per second, for both wordings over the 334 shipped games. Prints numbers only.
 *
 *   npx tsx bench/alfworld-bench.ts [--repeat 3] [--random-steps 50] [--seed 1]
 *
 * Steps are measured two ways: replaying the expert walkthroughs (every step valid, most of them moves),
 * and a seeded random policy over the admissible commands for --random-steps steps per game (an agent's
 * mix of moves, takes, opens and looks, plus one invalid command in ten).
 */
import { resolveDataDir } from '../src/config/data-dir.js';
import { createAlfworldGame, type AlfworldGame } from '../src/environments/alfworld/alfworld-engine.js';
import { processAlfworldAction } from '../src/environments/alfworld/alfworld-environment.js';
import { loadAlfworldGames, walkthroughFor } from '../src/environments/alfworld/load-games.js';
import { ALFWORLD_WORDINGS, loadAlfworldLogic } from '../src/environments/alfworld/load-logic.js';
import { seededRandom } from './seeded-random.js';

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(name);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1]! : fallback;
}

function summary(values: number[]): string {
  const s = [...values].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.floor(q * s.length))]!;
  const mean = s.reduce((a, b) => a + b, 0) / Math.max(1, s.length);
  return `p50 ${at(0.5).toFixed(3)} ms  p99 ${at(0.99).toFixed(3)} ms  mean ${mean.toFixed(3)} ms  (n=${s.length})`;
}


const repeat = Number(arg('--repeat', '3'));
const randomSteps = Number(arg('--random-steps', '50'));
const seed = Number(arg('--seed', '1'));
const dataDir = resolveDataDir();

let t = performance.now();
const games = loadAlfworldGames(dataDir);
const loadGamesMs = performance.now() - t;
t = performance.now();
const logic = loadAlfworldLogic(dataDir);
const loadLogicMs = performance.now() - t;
console.log(`ALFWorld engine bench: ${games.length} games, best of ${repeat}; load games ${loadGamesMs.toFixed(0)} ms, load+parse logic ${loadLogicMs.toFixed(1)} ms`);

for (const wording of ALFWORLD_WORDINGS) {
  let best: { create: number[]; reset: number[]; walkSteps: number; walkMs: number; randSteps: number; randMs: number } | undefined;
  for (let r = 0; r < repeat; r++) {
    const create: number[] = [];
    const reset: number[] = [];
    const instances: AlfworldGame[] = [];
    for (const g of games) {
      const c0 = performance.now();
      const game = createAlfworldGame(g, { wording, logic });
      const c1 = performance.now();
      game.reset();
      reset.push(performance.now() - c1);
      create.push(c1 - c0);
      instances.push(game);
    }
    let walkSteps = 0;
    let walkMs = 0;
    instances.forEach((game, i) => {
      const plan = walkthroughFor(games[i]!, wording);
      game.reset();
      const s0 = performance.now();
      for (const c of plan) game.step(c);
      walkMs += performance.now() - s0;
      walkSteps += plan.length;
    });
    const next = seededRandom(seed);
    let randSteps = 0;
    let randMs = 0;
    for (const game of instances) {
      let admissible = game.reset().admissible;
      const s0 = performance.now();
      for (let k = 0; k < randomSteps; k++) {
        const command = next() < 0.1 ? 'jump over the moon' : admissible[Math.floor(next() * admissible.length)]!;
        admissible = game.step(command).admissible;
      }
      randMs += performance.now() - s0;
      randSteps += randomSteps;
    }
    const run = { create, reset, walkSteps, walkMs, randSteps, randMs };
    if (!best || walkMs + randMs < best.walkMs + best.randMs) best = run;
  }
  const b = best!;
  console.log(`-- wording ${wording}`);
  console.log(`  create (parse problem, build world): ${summary(b.create)}`);
  console.log(`  reset (fresh state, intro, admissible): ${summary(b.reset)}`);
  console.log(`  walkthrough steps: ${(b.walkSteps / (b.walkMs / 1000)).toFixed(0)} steps/s (${b.walkSteps} steps, ${(b.walkMs / b.walkSteps).toFixed(3)} ms/step)`);
  console.log(`  random-policy steps: ${(b.randSteps / (b.randMs / 1000)).toFixed(0)} steps/s (${b.randSteps} steps, ${(b.randMs / b.randSteps).toFixed(3)} ms/step)`);
}

// The free-text mapping (process_action): how long it takes to map a text that is not admissible onto the
// nearest admissible command with sentence BLEU, over the admissible lists along each walkthrough.
{
  const texts: { text: string; command: string; admissible: string[] }[] = [];
  for (const g of games) {
    const game = createAlfworldGame(g, { wording: '2.1.1', logic });
    let admissible = game.reset().admissible;
    for (const command of walkthroughFor(g, '2.1.1')) {
      // A loose wording of the expert's command: articles added, instance numbers dropped.
      texts.push({ text: command.replace(/ \d+/g, '').replace(/^(\w+) /, '$1 the '), command, admissible });
      admissible = game.step(command).admissible;
    }
  }
  const times: number[] = [];
  let expert = 0;
  for (const { text, command, admissible } of texts) {
    const m0 = performance.now();
    const action = processAlfworldAction(text, admissible);
    times.push(performance.now() - m0);
    if (action === command) expert++;
  }
  const meanList = texts.reduce((n, x) => n + x.admissible.length, 0) / texts.length;
  console.log(`-- free-text mapping (BLEU against ${meanList.toFixed(0)} admissible commands on average)`);
  console.log(`  map one loose text: ${summary(times)}; ${expert}/${texts.length} mapped onto the expert's own command`);
}
