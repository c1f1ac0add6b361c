import type { Command } from 'commander';

import { ConfigError } from '../../episode/index.js';
import { replayGoldSolutions } from '../../environments/dbbench/gold-replay.js';
import { loadDbBenchFile } from '../../environments/dbbench/load-tasks.js';
import { EXIT_OK } from '../exit-codes.js';
import { envCheckAlfworld } from '../../benchmarks/alfworld/env-check.js';
import { envCheckWebShop } from '../../benchmarks/webshop/env-check.js';
import { resolveDbBackend } from '../resolve-backend.js';

export interface EnvCheckOptions {
  data: string;
  backend?: string;
  dsn?: string;
  json?: boolean;
}

/**
 * Replays the gold solutions of a DBBench task file on a backend and reports how many reproduce the
 * stored answer hash. Exit 0 whenever the check ran, whatever the count.
 */
export async function envCheckDbBench(o: EnvCheckOptions, out: NodeJS.WriteStream = process.stdout): Promise<number> {
  const tasks = loadDbBenchFile(o.data);
  const backend = await resolveDbBackend(o.backend, o.dsn);
  try {
    const result = await replayGoldSolutions({
      tasks,
      backend,
      onProgress: ({ done, total }) => {
        if (!o.json && process.stderr.isTTY) process.stderr.write(`\rreplaying ${done}/${total}`);
      },
    });
    if (!o.json && process.stderr.isTTY) process.stderr.write('\n');
    if (o.json) {
      out.write(`${JSON.stringify({ file: o.data, backend: backend.name, ...result }, null, 2)}\n`);
    } else {
      out.write(`${result.reproduced}/${result.total} reproduced (${backend.name}, ${o.data}; mutation tasks, gold SQL vs stored answer hash)\n`);
      for (const m of result.misses) {
        out.write(`  miss #${m.index}: expected ${m.expected}, got ${m.actual ?? 'no table'}${m.error ? ` (error: ${m.error})` : ''}\n`);
      }
    }
    return EXIT_OK;
  } finally {
    await backend.close();
  }
}

export function registerEnvCheckCommand(program: Command): void {
  const env = program.command('env').description('Check benchmark environments against their reference data.');
  env
    .command('check')
    .description('Replay the gold solutions of a task file and report how many reproduce the reference.')
    .argument('<bench>', 'benchmark: dbbench (gold SQL vs stored table hashes), alfworld (expert walkthroughs) or webshop (gold purchases)')
    .option('--data <path>', 'dbbench: task file in the shipped format (e.g. ../shared/data/dbbench/dev.jsonl); webshop: the WebShop data folder')
    .option('--goals <mode>', 'webshop: human (needs items_human_ins.json) or synthetic (default: human when present)')
    .option('--goal-seed <n>', 'webshop: goal seed (reference 233)', (v) => Number(v))
    .option('--games <file>', 'alfworld: games file (.jsonl or .jsonl.gz), e.g. ../shared/data/alfworld/games/valid_unseen.jsonl')
    .option('--wording <w>', "alfworld: 2.1.1 ('put X in/on Y'), 2.1.2 ('move X to Y') or both", 'both')
    .option('--data-dir <dir>', 'benchmark data folder (default ../shared/data or HARNESS_DATA_DIR)')
    .option('--backend <name>', 'sqlite (default) or mariadb')
    .option('--dsn <url>', 'MariaDB/MySQL server for --backend mariadb, mysql://user:pass@host:port')
    .option('--json', 'machine-readable output')
    .action(async (bench: string, opts: { data?: string; games?: string; wording?: string; goals?: string; goalSeed?: number; dataDir?: string; backend?: string; dsn?: string; json?: boolean }) => {
      if (bench === 'alfworld') {
        process.exitCode = await envCheckAlfworld({
          games: opts.games ?? '',
          ...(opts.wording !== undefined ? { wording: opts.wording } : {}),
          ...(opts.dataDir !== undefined ? { dataDir: opts.dataDir } : {}),
          ...(opts.json ? { json: true } : {}),
        });
        return;
      }
      if (bench === 'webshop') {
        process.exitCode = await envCheckWebShop({
          ...(opts.data !== undefined ? { dataDir: opts.data } : opts.dataDir !== undefined ? { dataDir: opts.dataDir } : {}),
          ...(opts.goals !== undefined ? { goals: opts.goals } : {}),
          ...(opts.goalSeed !== undefined ? { goalSeed: opts.goalSeed } : {}),
          ...(opts.json ? { json: true } : {}),
        });
        return;
      }
      if (bench !== 'dbbench') throw new ConfigError({ message: `env check does not know '${bench}'.`, field: 'bench', allowed: ['dbbench', 'alfworld', 'webshop'] });
      if (!opts.data) throw new ConfigError({ message: 'env check dbbench needs --data FILE.jsonl (a task file in the shipped format).', field: 'data' });
      process.exitCode = await envCheckDbBench({ ...opts, data: opts.data });
    });
}
