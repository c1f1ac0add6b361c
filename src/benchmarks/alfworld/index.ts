/**
 * ALFWorld (AgentBench's household text world) as one definition: the TypeScript text world over the
 * shipped games, AgentBench's function-calling and v0.2 text protocols, the original's hook context and
 * effect rules, the masked trace packet, the symbolic engineer's ALFWorld signatures and the simulated
 * target.
 */
import { z } from 'zod';

import { defineBenchmark } from '../../benchmark/definition.js';
import { ConfigError } from '../../episode/index.js';
import { ALFWORLD_DEFAULT_MAX_STEPS, ALFWORLD_TEXT_DEFAULT_MAX_STEPS } from '../../environments/alfworld/alfworld-prompts.js';
import { ALFWORLD_WORDINGS, parseAlfworldWording } from '../../environments/alfworld/load-logic.js';
import { ALFWORLD_SPLITS } from '../../environments/alfworld/splits.js';
import { ALFWORLD_ENGINEER } from './engineer/alfworld-engineer.js';
import { envCheckAlfworld } from './env-check.js';
import { alfworldEnvironment } from './environment.js';
import { ALFWORLD_PATCH_RULES } from './patch-rules.js';
import { createAlfworldSimHandler, toAlfworldSimHttpReply } from './simulation/index.js';

const options = z.object({ wording: z.string().optional() });

const SIM_PARAMS = ['seed', 'faults', 'comply'] as const;

export const alfworld = defineBenchmark<z.infer<typeof options>>({
  name: 'alfworld',
  title: 'ALFWorld',
  summary: 'household tasks in a text world (AgentBench ALFWorld), function calling or the v0.2 text protocol',
  protocols: ['fc', 'v0.2'],
  splits: Object.keys(ALFWORLD_SPLITS),
  defaultSplit: 'dev',
  defaultRounds: { fc: ALFWORLD_DEFAULT_MAX_STEPS, 'v0.2': ALFWORLD_TEXT_DEFAULT_MAX_STEPS },
  options: {
    schema: options,
    flags: [{ key: 'wording', flag: '--wording <w>', description: `alfworld: ${ALFWORLD_WORDINGS.join(' or ')} ('put X in/on Y' is 2.1.1, the default; 'move X to Y' is 2.1.2)` }],
  },
  async open(request) {
    const protocol = request.protocol === 'v0.2' ? 'v0.2' : 'fc';
    const wording = request.options.wording === undefined ? '2.1.1' : parseAlfworldWording(request.options.wording, 'wording');
    const environment = alfworldEnvironment({
      dataDir: request.dataDir,
      split: request.split,
      wording,
      protocol,
      ...(request.maxRounds !== undefined ? { maxSteps: request.maxRounds } : {}),
    });
    return { environment, identity: { protocol: protocol === 'fc' ? 'alfworld-fc-v1' : 'alfworld-text-v0.2', wording, maxSteps: request.maxRounds ?? null } };
  },
  patch: ALFWORLD_PATCH_RULES,
  engineer: ALFWORLD_ENGINEER,
  evaluation: { defaultMetric: 'delta_pass_rate', codeHookOnly: true },
  simulation: {
    params: SIM_PARAMS,
    create(params, { dataDir }) {
      for (const key of params.keys()) {
        if (!(SIM_PARAMS as readonly string[]).includes(key)) {
          throw new ConfigError({ message: `Unknown sim:alfworld parameter '${key}'.`, field: 'target', allowed: [...SIM_PARAMS, 'latency_ms'] });
        }
      }
      const seed = params.get('seed');
      const comply = params.get('comply');
      const faults = params.get('faults');
      const handler = createAlfworldSimHandler({
        dataDir,
        ...(seed !== null ? { seed: Number(seed) } : {}),
        ...(comply !== null ? { comply: Number(comply) } : {}),
        ...(faults !== null ? { faults } : {}),
      });
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
});

export default alfworld;
