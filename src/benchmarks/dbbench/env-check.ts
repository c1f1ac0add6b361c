import { replayGoldSolutions } from '../../environments/dbbench/gold-replay.js';
import { loadDbBenchFile } from '../../environments/dbbench/load-tasks.js';
import { resolveDbBackend } from './resolve-backend.js';

export interface EnvCheckDbBenchOptions {
  data: string;
  backend?: string;
  dsn?: string;
  json?: boolean;
}

/**
 * Replays the gold solutions of a DBBench task file on a backend and reports how many reproduce the
 * stored answer hash. Exit 0 whenever the check ran, whatever the count.
 */
export async function envCheckDbBench(o: EnvCheckDbBenchOptions, out: NodeJS.WritableStream = process.stdout): Promise<number> {
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
    return 0;
  } finally {
    await backend.close();
  }
}
