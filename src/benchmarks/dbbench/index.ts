/**
 * DBBench (AgentBench's database benchmark) as one definition: SQL tasks over real tables on embedded
 * SQLite or MariaDB, the function-calling protocol, the original's hook context and effect rules, its
 * failure evidence and prompts, the symbolic engineer's DBBench signatures and the simulated target.
 */
import { z } from 'zod';

import { defineBenchmark } from '../../benchmark/definition.js';
import { dataFileIdentity } from '../../config/data-file.js';
import { ConfigError } from '../../episode/index.js';
import { DBBENCH_SPLITS, loadDbBenchFile } from '../../environments/dbbench/load-tasks.js';
import { dbBenchOverlayOf } from './overlay-of-patch.js';
import { DBBENCH_DEFAULT_MAX_ROUNDS, DBBENCH_PROTOCOL_VERSION } from '../../environments/dbbench/prompts.js';
import { DBBENCH_ENGINEER } from './engineer/dbbench-engineer.js';
import { dbBenchEnvironment } from './environment.js';
import { envCheckDbBench } from './env-check.js';
import { dbbenchPaperSplits } from './paper-splits.js';
import { DBBENCH_PATCH_RULES } from './patch-rules.js';
import { resolveDbBackend } from './resolve-backend.js';
import { DBBENCH_FAULTS, DBBENCH_SIM_PARAMS, DEFAULT_DBBENCH_SIM_SPLITS, parseDbBenchSimQuery } from './simulation/fault-profile.js';
import { createDbBenchSimHandler, toSimHttpReply } from './simulation/wire-handler.js';

export const DBBENCH_GRADINGS = ['fc', 'v0.2'] as const;

const options = z.object({
  backend: z.string().optional(),
  dsn: z.string().optional(),
  grading: z.enum(DBBENCH_GRADINGS).optional(),
  data: z.string().optional(),
  sqliteWorkers: z.number().optional(),
  sqliteInlineMs: z.number().optional(),
});

export const dbbench = defineBenchmark<z.infer<typeof options>>({
  name: 'dbbench',
  title: 'DBBench',
  paperColumns: { success: 'DBBench Succ.' },
  summary: 'SQL question answering and table edits over real tables (AgentBench DBBench)',
  protocols: ['fc'],
  splits: ['dev', 'standard', 'standard.v0.2'],
  defaultSplit: 'dev',
  defaultRounds: { fc: DBBENCH_DEFAULT_MAX_ROUNDS },
  taskFileOption: 'data',
  options: {
    schema: options,
    flags: [
      { key: 'backend', flag: '--backend <name>', description: 'dbbench database: sqlite (default) or mariadb' },
      { key: 'dsn', flag: '--dsn <url>', description: 'dbbench: MariaDB/MySQL server for --backend mariadb, mysql://user:pass@host:port' },
      { key: 'grading', flag: '--grading <rule>', description: 'dbbench query grading: fc (tolerant, default) or v0.2 (exact)' },
      { key: 'sqliteWorkers', flag: '--sqlite-workers <n>', description: 'dbbench sqlite: database processes at most, shared by the episodes past that (default: CPU count, at least 2)', type: 'integer', min: 1 },
      { key: 'sqliteInlineMs', flag: '--sqlite-inline-ms <ms>', description: 'dbbench sqlite: how long a bounded statement may run in the runtime\'s thread before the episode database moves to a database process (default 5; 0: every statement in a process)', type: 'number', min: 0 },
      { key: 'data', flag: '--data <file>', description: 'dbbench: a task file (the shipped .jsonl format) to play instead of a split; webshop: a goals file (items_human_ins.json format)' },
    ],
  },
  async open(request) {
    if (request.protocol !== 'fc') {
      throw new ConfigError({ message: 'dbbench plays the function-calling protocol only; --grading v0.2 grades answers with the v0.2 rule.', field: 'protocol', allowed: ['fc'] });
    }
    const file = request.options.data;
    const dataFile = file === undefined ? {} : { dataFile: dataFileIdentity(file, '--data') };
    const tasks = file === undefined ? undefined : loadDbBenchFile(file);
    if (tasks?.length === 0) throw new ConfigError({ message: `--data ${file}: the file holds no tasks.`, field: 'data' });
    const grading = request.options.grading ?? 'fc';
    const backend = await resolveDbBackend(request.options.backend, request.options.dsn, process.env, request.concurrency, request.options.sqliteWorkers, request.options.sqliteInlineMs);
    const environment = dbBenchEnvironment({
      dataDir: request.dataDir,
      split: request.split,
      backend,
      grading,
      ...(request.maxRounds !== undefined ? { maxRounds: request.maxRounds } : {}),
      ...(request.patch ? { overlay: dbBenchOverlayOf(request.patch) } : {}),
      ...(tasks ? { tasks } : {}),
    });
    return { environment, identity: { protocol: DBBENCH_PROTOCOL_VERSION, backend: backend.name, grading, maxRounds: request.maxRounds ?? null, ...dataFile } };
  },
  patch: DBBENCH_PATCH_RULES,
  engineer: DBBENCH_ENGINEER,
  evaluation: { defaultMetric: 'delta_pass_rate', codeHookOnly: false },
  simulation: {
    params: DBBENCH_SIM_PARAMS,
    faults: DBBENCH_FAULTS,
    paramHelp: { split: `splits whose tasks it knows, comma-separated, the first winning ties (${Object.keys(DBBENCH_SPLITS).join(', ')}; default ${DEFAULT_DBBENCH_SIM_SPLITS.join(',')})` },
    example: 'sim:dbbench?seed=3&faults=none,backticks:0.5&comply=0.9',
    check(params) {
      parseDbBenchSimQuery(params);
    },
    create(params, { dataDir, taskFile }) {
      const handler = createDbBenchSimHandler({ dataDir, ...parseDbBenchSimQuery(params), ...(taskFile !== undefined ? { taskFiles: [taskFile] } : {}) });
      return (request) => toSimHttpReply(handler(request));
    },
  },
  envCheck: {
    summary: 'gold SQL vs stored table hashes',
    flags: [
      { key: 'data', flag: '--data <path>', description: 'dbbench: task file in the shipped format (e.g. ../shared/data/dbbench/dev.jsonl); webshop: the WebShop data folder' },
      { key: 'backend', flag: '--backend <name>', description: 'sqlite (default) or mariadb' },
      { key: 'dsn', flag: '--dsn <url>', description: 'MariaDB/MySQL server for --backend mariadb, mysql://user:pass@host:port' },
    ],
    run(o, { json, out }) {
      if (typeof o.data !== 'string' || o.data === '') throw new ConfigError({ message: 'env check dbbench needs --data FILE.jsonl (a task file in the shipped format).', field: 'data' });
      return envCheckDbBench(
        { data: o.data, ...(typeof o.backend === 'string' ? { backend: o.backend } : {}), ...(typeof o.dsn === 'string' ? { dsn: o.dsn } : {}), ...(json ? { json: true } : {}) },
        out,
      );
    },
  },
  demo: { tasks: '0:60', data: 'the real DBBench dev split (embedded SQLite)' },
  paperSplits: dbbenchPaperSplits,
});

export default dbbench;
