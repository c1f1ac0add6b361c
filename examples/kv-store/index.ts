/**
 * kv-store: a small benchmark of tool-using tasks on a key-value store, written as a user would write one in
 * their own folder. It imports harness-r1 only through its package entry and default-exports one
 * definition; `docs/adding-a-benchmark.md` walks through it field by field.
 *
 *   harness-r1 run --bench ./examples/kv-store/index.ts --target sim:kv-store
 *   harness-r1 improve --bench ./examples/kv-store/index.ts --target sim:kv-store --engineer symbolic
 */
import { z } from 'zod';
import { ConfigError, dataFileIdentity, defineBenchmark, NO_LEGACY_DSL, playToolCalling, playWith } from 'harness-r1';

import { KV_ENGINEER } from './engineer.js';
import { KV_ENV_CHECK } from './env-check.js';
import { KV_BENCH, KV_DEFAULT_MAX_ROUNDS, kvEpisodes } from './episode.js';
import { KV_SIMULATION } from './simulation.js';
import { KV_SPLITS, loadKvTasks, splitFile } from './tasks.js';

/** Recorded with every run, so a change of the rules is never compared with results under the old ones. */
export const KV_PROTOCOL_VERSION = 'kv-store-fc-v1';

const options = z
  .object({
    data: z.string().optional(),
    /** Keep only the tasks of one family (e.g. `move_prefix`). */
    family: z.string().optional(),
  })
  .strict();

export default defineBenchmark<z.infer<typeof options>>({
  name: KV_BENCH,
  title: 'kv-store',
  summary: 'tool-using tasks on a small key-value store (example benchmark, examples/kv-store)',
  protocols: ['fc'],
  splits: KV_SPLITS,
  defaultSplit: 'dev',
  defaultRounds: { fc: KV_DEFAULT_MAX_ROUNDS },
  taskFileOption: 'data',
  // The tasks ship in this folder: the shared data directory is not read.
  needsDataDir: false,
  options: {
    schema: options,
    flags: [
      { key: 'data', flag: '--data <file>', description: 'kv-store: a task file (the JSONL format of examples/kv-store/tasks/) to play instead of a split' },
      { key: 'family', flag: '--family <name>', description: 'kv-store: play only the tasks of this family' },
    ],
  },
  open(request) {
    if (request.protocol !== 'fc') {
      throw new ConfigError({ message: 'kv-store plays the function-calling protocol only.', field: 'protocol', allowed: ['fc'] });
    }
    const file = request.options.data ?? splitFile(request.split);
    let tasks = loadKvTasks(file);
    const family = request.options.family;
    if (family !== undefined) {
      const families = [...new Set(tasks.map((t) => t.family))];
      tasks = tasks.filter((t) => t.family === family);
      if (tasks.length === 0) throw new ConfigError({ message: `No kv-store task of family '${family}'.`, field: 'family', allowed: families });
    }
    const maxRounds = request.maxRounds ?? KV_DEFAULT_MAX_ROUNDS;
    const environment = playWith(kvEpisodes(tasks, request.split, maxRounds), playToolCalling);
    const identity = {
      protocol: KV_PROTOCOL_VERSION,
      maxRounds: request.maxRounds ?? null,
      ...(family !== undefined ? { family } : {}),
      ...(request.options.data !== undefined ? { dataFile: dataFileIdentity(request.options.data, '--data') } : {}),
    };
    return Promise.resolve({ environment, identity });
  },
  patch: { name: KV_BENCH, title: 'kv-store', legacy: NO_LEGACY_DSL, legacyRuntime: 'install_only', numberedInstances: false },
  engineer: KV_ENGINEER,
  evaluation: { defaultMetric: 'delta_pass_rate', codeHookOnly: true },
  simulation: KV_SIMULATION,
  envCheck: KV_ENV_CHECK,
});
