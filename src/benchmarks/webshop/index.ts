/**
 * WebShop as one definition: the shop over the shipped catalogue with Lucene-compatible search and the
 * original reward, AgentBench's function-calling and v0.2 text protocols, the original's hook context and
 * effect rules, the trace packet, the task identity manifest, the symbolic engineer's WebShop signatures and
 * the simulated target.
 */
import { z } from 'zod';

import { defineBenchmark } from '../../benchmark/definition.js';
import { dataFileIdentity } from '../../config/data-file.js';
import { ConfigError } from '../../episode/index.js';
import { assertRerunMatchesBaseline } from '../../environments/webshop/identity-manifest.js';
import { loadSharedWebShopEngine } from '../../environments/webshop/webshop-environment.js';
import { WEBSHOP_ENGINEER } from './engineer/webshop-engineer.js';
import { envCheckWebShop } from './env-check.js';
import { webShopEnvironment } from './environment.js';
import { webshopPaperSplits } from './paper-splits.js';
import { WEBSHOP_PATCH_RULES } from './patch-rules.js';
import { createWebShopSimHandler, parseWebShopSimQuery, toWebShopSimHttpReply, WEBSHOP_FAULTS, WEBSHOP_SIM_PARAMS } from './simulation/index.js';
import type { EpisodeRecord } from '../../episode/index.js';

const GOAL_MODES = ['human', 'synthetic'] as const;

const options = z.object({ goals: z.enum(GOAL_MODES).optional(), goalSeed: z.number().optional(), data: z.string().optional() });

/** The task identity a WebShop record carries (protocol.md §6.5). */
function manifestDigest(record: EpisodeRecord): string | undefined {
  const manifest = record.detail.webshopTaskManifest as { sha256?: unknown } | undefined;
  return typeof manifest?.sha256 === 'string' ? manifest.sha256 : undefined;
}

export const webshop = defineBenchmark<z.infer<typeof options>>({
  name: 'webshop',
  title: 'WebShop',
  paperColumns: { success: 'WebShop Succ.', score: 'WebShop Score' },
  summary: 'online shopping in a simulated shop over the real catalogue (WebShop), function calling or the v0.2 text protocol',
  protocols: ['fc', 'v0.2'],
  // WebShop's task set is its goal list (--goals, --goal-seed); the split name is only recorded.
  splits: ['dev'],
  defaultSplit: 'dev',
  defaultRounds: { fc: 20, 'v0.2': 10 },
  taskFileOption: 'data',
  options: {
    schema: options,
    flags: [
      { key: 'goals', flag: '--goals <mode>', description: 'webshop: human (needs items_human_ins.json) or synthetic goals' },
      { key: 'goalSeed', flag: '--goal-seed <n>', description: 'webshop: goal seed (reference 233)', type: 'integer' },
      { key: 'data', flag: '--data <file>', description: 'dbbench: a task file (the shipped .jsonl format) to play instead of a split; webshop: a goals file (items_human_ins.json format)' },
    ],
  },
  async open(request) {
    const protocol = request.protocol === 'v0.2' ? 'v0.2' : 'fc';
    const dataFile = request.options.data === undefined ? {} : { dataFile: dataFileIdentity(request.options.data, '--data') };
    const environment = webShopEnvironment({
      dataDir: request.dataDir,
      protocol,
      ...(request.options.goals !== undefined ? { goals: request.options.goals } : {}),
      ...(request.options.goalSeed !== undefined ? { goalSeed: request.options.goalSeed } : {}),
      ...(request.maxRounds !== undefined ? { maxRounds: request.maxRounds } : {}),
      ...(request.options.data !== undefined ? { humanInstructionsFile: request.options.data } : {}),
    });
    if (environment.size === 0) throw new ConfigError({ message: `webshop ${environment.split}: there are no goals to play (no instruction with attributes for a product of the catalogue).`, field: 'data' });
    return {
      environment,
      identity: { protocol: protocol === 'fc' ? 'webshop-fc-v1' : 'webshop-text-v0.2', goals: environment.split, goalSeed: request.options.goalSeed ?? 233, maxRounds: request.maxRounds ?? null, ...dataFile },
    };
  },
  patch: WEBSHOP_PATCH_RULES,
  engineer: WEBSHOP_ENGINEER,
  evaluation: {
    defaultMetric: 'delta_average_reward',
    codeHookOnly: true,
    checkRerun(baseline, rerun) {
      const identities = (records: readonly EpisodeRecord[]) => new Map(records.flatMap((r) => (manifestDigest(r) ? [[r.task.index, manifestDigest(r)!] as const] : [])));
      const before = identities(baseline);
      if (before.size === 0) return;
      assertRerunMatchesBaseline(before, identities(rerun), { requireComplete: false });
    },
  },
  simulation: {
    params: WEBSHOP_SIM_PARAMS,
    faults: WEBSHOP_FAULTS,
    example: 'sim:webshop?seed=2&faults=none,over_budget:0.4',
    check(params) {
      parseWebShopSimQuery(params);
    },
    create(params, { dataDir, taskFile }) {
      const engine = taskFile !== undefined ? loadSharedWebShopEngine(dataDir, 'human', undefined, taskFile) : loadSharedWebShopEngine(dataDir);
      const handler = createWebShopSimHandler({ dataDir, ...parseWebShopSimQuery(params), engine });
      return (request) => toWebShopSimHttpReply(handler(request));
    },
  },
  envCheck: {
    summary: 'gold purchases',
    flags: [
      { key: 'data', flag: '--data <path>', description: 'dbbench: task file in the shipped format (e.g. ../shared/data/dbbench/dev.jsonl); webshop: the WebShop data folder' },
      { key: 'goals', flag: '--goals <mode>', description: 'webshop: human (needs items_human_ins.json) or synthetic (default: human when present)' },
      { key: 'goalSeed', flag: '--goal-seed <n>', description: 'webshop: goal seed (reference 233)', type: 'integer' },
    ],
    run(o, { dataDir, json, out }) {
      const folder = typeof o.data === 'string' ? o.data : dataDir;
      if (o.goals !== undefined && typeof o.goals !== 'string') throw new ConfigError({ message: 'Unknown --goals.', field: 'goals', allowed: GOAL_MODES });
      return envCheckWebShop(
        {
          ...(folder !== undefined ? { dataDir: folder } : {}),
          ...(typeof o.goals === 'string' ? { goals: o.goals } : {}),
          ...(typeof o.goalSeed === 'number' ? { goalSeed: o.goalSeed } : {}),
          ...(json ? { json: true } : {}),
        },
        out,
      );
    },
  },
  demo: { tasks: '0:50', data: 'the real WebShop catalogue with synthetic goals (seed 233)' },
  paperSplits: webshopPaperSplits,
});

export default webshop;
