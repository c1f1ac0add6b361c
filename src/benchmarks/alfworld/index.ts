/**
 * ALFWorld (AgentBench's household text world) as one definition: the TypeScript text world over the
 * shipped games, AgentBench's function-calling and v0.2 text protocols, the original's hook context and
 * effect rules, the masked trace packet, the symbolic engineer's ALFWorld signatures and the simulated
 * target.
 */
import { z } from 'zod';

import { defineBenchmark } from '../../benchmark/definition.js';
import { dataFileIdentity } from '../../config/data-file.js';
import { ConfigError } from '../../episode/index.js';
import { ALFWORLD_DEFAULT_MAX_STEPS, ALFWORLD_TEXT_DEFAULT_MAX_STEPS } from '../../environments/alfworld/alfworld-prompts.js';
import { ALFWORLD_WORDINGS, parseAlfworldWording } from '../../environments/alfworld/load-logic.js';
import { ALFWORLD_SPLITS } from '../../environments/alfworld/splits.js';
import { ALFWORLD_ENGINEER } from './engineer/alfworld-engineer.js';
import { envCheckAlfworld } from './env-check.js';
import { alfworldEnvironmentWithGames } from './environment.js';
import { alfworldPaperSplits } from './paper-splits.js';
import { ALFWORLD_PATCH_RULES } from './patch-rules.js';
import { createAlfworldSimHandler, resolveAlfworldSimSettings, toAlfworldSimHttpReply } from './simulation/index.js';
import { ALFWORLD_FAULTS, ALFWORLD_SIM_PARAMS, alfworldSimOptionsOf } from './simulation/alfworld-sim-settings.js';

const options = z.object({ wording: z.string().optional(), games: z.string().optional() });

/** How many listed ids a notice names before it says "…". */
const NOTICE_IDS = 20;


export const alfworld = defineBenchmark<z.infer<typeof options>>({
  name: 'alfworld',
  title: 'ALFWorld',
  paperColumns: { success: 'ALFWorld All' },
  summary: 'household tasks in a text world (AgentBench ALFWorld), function calling or the v0.2 text protocol',
  protocols: ['fc', 'v0.2'],
  splits: Object.keys(ALFWORLD_SPLITS),
  defaultSplit: 'dev',
  defaultRounds: { fc: ALFWORLD_DEFAULT_MAX_STEPS, 'v0.2': ALFWORLD_TEXT_DEFAULT_MAX_STEPS },
  taskFileOption: 'games',
  options: {
    schema: options,
    flags: [
      { key: 'wording', flag: '--wording <w>', description: `alfworld: ${ALFWORLD_WORDINGS.join(' or ')} ('put X in/on Y' is 2.1.1, the default; 'move X to Y' is 2.1.2)` },
      { key: 'games', flag: '--games <file>', description: 'alfworld: a games file (the shipped .jsonl or .jsonl.gz format) to play instead of a split, in file order' },
    ],
  },
  async open(request) {
    const protocol = request.protocol === 'v0.2' ? 'v0.2' : 'fc';
    const wording = request.options.wording === undefined ? '2.1.1' : parseAlfworldWording(request.options.wording, 'wording');
    const file = request.options.games;
    const dataFile = file === undefined ? {} : { dataFile: dataFileIdentity(file, '--games') };
    const { environment, games } = alfworldEnvironmentWithGames({
      dataDir: request.dataDir,
      split: request.split,
      wording,
      protocol,
      ...(request.maxRounds !== undefined ? { maxSteps: request.maxRounds } : {}),
      ...(file !== undefined ? { gamesFile: file } : {}),
    });
    const { entries, available, missing } = games;
    if (available.length === 0) {
      throw new ConfigError({ message: `alfworld ${request.split}: none of its ${entries.length} games is shipped with the data (${request.dataDir}), so there is nothing to play.`, field: 'split' });
    }
    const identity = { protocol: protocol === 'fc' ? 'alfworld-fc-v1' : 'alfworld-text-v0.2', wording, maxSteps: request.maxRounds ?? null, ...dataFile };
    if (missing.length === 0) return { environment, identity };
    const ids = missing.map((m) => m.id);
    const named = ids.slice(0, NOTICE_IDS).join(', ') + (ids.length > NOTICE_IDS ? `, … (${ids.length - NOTICE_IDS} more; all in run.json)` : '');
    return {
      environment,
      identity,
      data: { unshipped: { count: missing.length, listed: entries.length, ids } },
      notices: [`notice: alfworld ${request.split} lists ${entries.length} games; ${missing.length} are not shipped with the data and are not played (task indices count the ${available.length} shipped games): ${named}`],
    };
  },
  patch: ALFWORLD_PATCH_RULES,
  engineer: ALFWORLD_ENGINEER,
  evaluation: { defaultMetric: 'delta_pass_rate', codeHookOnly: true },
  simulation: {
    params: ALFWORLD_SIM_PARAMS,
    faults: ALFWORLD_FAULTS,
    example: 'sim:alfworld?seed=4&faults=none,forget_second:1&comply=1',
    check(params) {
      resolveAlfworldSimSettings(alfworldSimOptionsOf(params));
    },
    create(params, { dataDir, taskFile }) {
      const handler = createAlfworldSimHandler({ dataDir, ...alfworldSimOptionsOf(params), ...(taskFile !== undefined ? { gamesFiles: [taskFile] } : {}) });
      return (request) => toAlfworldSimHttpReply(handler(request));
    },
  },
  envCheck: {
    summary: 'expert walkthroughs',
    flags: [
      { key: 'games', flag: '--games <file>', description: 'alfworld: games file (.jsonl or .jsonl.gz), e.g. ../shared/data/alfworld/games/valid_unseen.jsonl' },
      { key: 'wording', flag: '--wording <w>', description: "alfworld: 2.1.1 ('put X in/on Y'), 2.1.2 ('move X to Y') or both (env check default)" },
    ],
    run(o, { dataDir, json, out }) {
      return envCheckAlfworld(
        {
          games: typeof o.games === 'string' ? o.games : '',
          wording: typeof o.wording === 'string' ? o.wording : 'both',
          ...(dataDir !== undefined ? { dataDir } : {}),
          ...(json ? { json: true } : {}),
        },
        out,
      );
    },
  },
  demo: { tasks: '0:20', data: 'the real ALFWorld dev games (TypeScript text world)' },
  paperSplits: alfworldPaperSplits,
});

export default alfworld;
