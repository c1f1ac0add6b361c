/**
 * Writes the inputs of the ALFWorld BLEU golden vectors: real admissible lists (dev games, at the start and
 * part-way through their expert walkthrough, 2.1.1 wording) and agent texts built from them (exact commands,
 * loose phrasings, missing numbers, typos, extra words, short and empty texts). Not needed in CI.
 *
 *   npx tsx bench/alfworld-bleu-golden/make-cases.ts > cases.json
 *   python3 bench/alfworld-bleu-golden/score.py cases.json > test/fixtures/alfworld-bleu/golden.json
 *
 * score.py needs NLTK 3.8 (Debian 12: `apt-get install python3-nltk`, with the system Python 3.11).
 */
import { resolveDataDir } from '../../src/config/data-dir.js';
import { createAlfworldGame } from '../../src/environments/alfworld/alfworld-engine.js';
import { loadAlfworldLogic } from '../../src/environments/alfworld/load-logic.js';
import { loadAlfworldGames, walkthroughFor } from '../../src/environments/alfworld/load-games.js';
import { loadAlfworldSplit } from '../../src/environments/alfworld/splits.js';
import { seededRandom } from '../seeded-random.js';


const rand = seededRandom(20260722);
const pick = <T>(list: readonly T[]): T => list[Math.floor(rand() * list.length)]!;

function variants(command: string, admissible: readonly string[]): string[] {
  const words = command.split(' ');
  const noNumbers = command.replace(/ \d+/g, '');
  const out = [
    command,
    command.toUpperCase(),
    `  ${command}.  `,
    noNumbers,
    command.replace(/^go to /, 'go to the ').replace(/^take (.+) from /, 'take the $1 from the ').replace(/^put (.+) in\/on /, 'put the $1 in the '),
    command.replace(/ in\/on /, ' on '),
    `I will ${command} now`,
    `${command}\nTHOUGHT: then I will look around`,
    words.slice().reverse().join(' '),
    words[0] ?? '',
    words.slice(0, 2).join(' '),
    command.replace(/ \d+$/, ' 99'),
    command.replace(/o/, '0'),
    `action: ${command}`,
  ];
  const other = pick(admissible);
  out.push(`${words.slice(0, 2).join(' ')} ${other.split(' ').slice(-2).join(' ')}`);
  return out;
}

const FIXED = ['', 'x', '1', 'look', 'look around the room', 'inventory please', 'go', 'open', 'help', 'heat it', 'clean the object', 'i am done', 'nothing', 'task complete!'];

const dataDir = resolveDataDir();
const games = loadAlfworldGames(dataDir);
const logic = loadAlfworldLogic(dataDir);
const split = loadAlfworldSplit(dataDir, 'dev', games);
const lists: string[][] = [];
const cases: { list: number; action: string }[] = [];
for (const [i, item] of split.available.entries()) {
  if (i % 3 !== 0) continue;
  const game = createAlfworldGame(item.game, { wording: '2.1.1', logic });
  const walk = walkthroughFor(item.game, '2.1.1');
  const states = [0, Math.floor(walk.length / 2), walk.length - 1];
  for (const at of states) {
    const reset = game.reset();
    let admissible = reset.admissible;
    for (const c of walk.slice(0, at)) admissible = game.step(c).admissible;
    const list = lists.push(admissible) - 1;
    const texts = new Set<string>();
    const next = walk[at];
    if (next) for (const v of variants(next, admissible)) texts.add(v);
    for (let k = 0; k < 3; k++) for (const v of variants(pick(admissible), admissible)) if (rand() < 0.35) texts.add(v);
    for (const t of FIXED) if (rand() < 0.3) texts.add(t);
    for (const action of texts) cases.push({ list, action });
  }
}
process.stdout.write(`${JSON.stringify({ lists, cases })}\n`);
