/**
 * `harness-r1 env check ./examples/kv-store/index.ts`: replays every task's reference solution on a fresh
 * store and grades it, so a task file whose solution and expectation disagree is found before a model plays it.
 */
import type { EnvCheck } from 'harness-r1';

import { KvEpisode } from './episode.js';
import { KV_SPLITS, loadKvTasks, splitFile, type KvTask } from './tasks.js';

export interface ReplayResult {
  id: string;
  reproduced: boolean;
}

export async function replaySolution(task: KvTask, index: number): Promise<boolean> {
  const episode = new KvEpisode({ bench: 'kv-store', split: 'check', index }, task, task.solution.length);
  for (const [i, step] of task.solution.entries()) {
    const result = await episode.act({ id: `check_${i}`, tool: step.tool, args: step.args, firstValue: Object.values(step.args)[0] });
    if (result.kind === 'final') return result.correct && i === task.solution.length - 1;
  }
  return false;
}

export const KV_ENV_CHECK: EnvCheck = {
  summary: 'reference solutions replayed against the checker',
  flags: [
    { key: 'data', flag: '--data <file>', description: 'kv-store: a task file to check (default: every shipped split)' },
  ],
  async run(options, { json, out }) {
    const files = typeof options.data === 'string' ? [options.data] : KV_SPLITS.map(splitFile);
    const results: ReplayResult[] = [];
    for (const file of files) {
      for (const [i, task] of loadKvTasks(file).entries()) results.push({ id: task.id, reproduced: await replaySolution(task, i) });
    }
    const ok = results.filter((r) => r.reproduced).length;
    if (json) out.write(`${JSON.stringify({ tasks: results.length, reproduced: ok, failed: results.filter((r) => !r.reproduced).map((r) => r.id) }, null, 2)}\n`);
    else {
      out.write(`kv-store: ${ok} of ${results.length} reference solutions reproduce\n`);
      for (const r of results.filter((x) => !x.reproduced)) out.write(`  not reproduced: ${r.id}\n`);
    }
    return 0;
  },
};
