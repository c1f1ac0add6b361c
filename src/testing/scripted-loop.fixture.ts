import path from 'node:path';

import { sandboxCompiler } from '../app/sandbox-compiler.js';
import { dbBenchEnvironment } from '../benchmarks/dbbench/environment.js';
import { TEST_REGISTRY } from './sim-baseline.fixture.js';
import { resolveDataDir } from '../config/data-dir.js';
import type { Engineer, EngineerInput, EngineerResult } from '../engineer/engineer.js';
import { loadDbBenchSplit } from '../environments/dbbench/load-tasks.js';
import { createSqliteBackend } from '../environments/dbbench/sqlite-backend.js';
import type { Environment } from '../runtime/environment.js';
import type { ChatRequest } from '../models/chat-model.js';
import { createScriptedModel, type ScriptedFailure, type ScriptedModel, type ScriptedReply } from '../models/scripted-model.js';
import type { SandboxPool } from '../sandbox/index.js';
import type { ImproveContext } from '../evaluation/improve/improve-batch.js';
import type { EpisodeRecord } from '../episode/index.js';
import { NO_HOOKS } from '../hooks/native-hooks.js';
import { runEpisode } from '../runtime/run-episode.js';

// Scripted targets and engineers for the tests of the improvement loop, on real DBBench dev tasks. The
// targets answer from what they are shown, so each test controls exactly what the baseline and the rerun see.

export const dataDir = resolveDataDir();
export const TASKS = loadDbBenchSplit(dataDir, 'dev');
/** Dev tasks 0–3 are query tasks with one gold value each. */
export const BATCH = { tag: 'batch_000', taskIndices: [0, 1, 2, 3] };
export const MARKER = 'QUOTE-EVERY-IDENTIFIER';

/** The DBBench task a request is about, read from its first user message. */
export function taskOf(request: ChatRequest): number {
  const question = String(request.messages.find((m) => m.role === 'user')?.content ?? '');
  const task = TASKS.slice(0, 8).find((t) => question.includes(t.description));
  if (!task) throw new Error('request about no known task');
  return task.index;
}

export const commit = (answers: string[]): ScriptedReply => ({ toolCalls: [{ name: 'commit_final_answer', arguments: { answers } }] });
export const gold = (index: number) => commit(TASKS[index]!.label);
export const wrong = commit(['certainly not this']);
export const infra: ScriptedFailure = { error: { message: 'connection reset by peer' } };

/** A DBBench target that answers each episode in one turn with `policy`. */
export function target(policy: (task: number, request: ChatRequest) => ScriptedReply | ScriptedFailure, label = 'scripted-target'): ScriptedModel {
  return createScriptedModel(Array.from({ length: 64 }, () => (request: ChatRequest) => policy(taskOf(request), request)), { label });
}

/** Whether the system prompt carries the patch's skill. */
export const sawSkill = (request: ChatRequest): boolean => String(request.messages[0]?.content).includes(MARKER);

/** A target that answers right only when the system prompt carries the patch's skill. */
export const followingSkill = () => target((task, request) => (sawSkill(request) ? gold(task) : wrong));

/** An engineer that always proposes the same thing, and remembers what it was shown. */
export function engineer(result: EngineerResult): Engineer & { seen: EngineerInput[] } {
  const seen: EngineerInput[] = [];
  return {
    label: 'fixed-engineer',
    kind: 'llm',
    seen,
    propose: (input) => {
      seen.push(input);
      return Promise.resolve(result);
    },
  };
}

export const hook = (code: string) => ({ benchmark: 'dbbench', actions: [{ type: 'add_code_hook', hook: 'on_init', code }] });
/** A patch whose on_init hook adds the skill the target follows: one applied effect per episode. */
export const SKILL_PATCH = hook(`def hook(ctx, nb):\n    return {"skills": ["${MARKER}"]}\n`);
/** A valid patch whose hook never returns an effect. */
export const SILENT_PATCH = hook('def hook(ctx, nb):\n    return None\n');
export const proposing = (patch: unknown): EngineerResult => ({ status: 'ok', proposal: { kind: 'patch', patch } });

export const dbbench = (): Promise<Environment> => Promise.resolve(dbBenchEnvironment({ dataDir, split: 'dev', backend: createSqliteBackend() }));

/** An improve context over `pool` in a fresh folder under `root`; `over` replaces any field. */
export function contextMaker(root: string, pool: () => SandboxPool) {
  let dirs = 0;
  return (over: Partial<ImproveContext> & Pick<ImproveContext, 'target' | 'engineer'>): ImproveContext => ({
    benchmark: TEST_REGISTRY.get('dbbench'),
    patchRules: TEST_REGISTRY.patchRules(),
    split: 'dev',
    rootDir: path.join(root, `run-${dirs++}`),
    openEnvironment: dbbench,
    compiler: sandboxCompiler(pool()),
    pool: pool(),
    concurrency: 1,
    threshold: 1,
    metric: 'delta_pass_rate',
    maxInfraRetries: 1,
    rerunContext: { target: 'scripted' },
    ...over,
  });
}

/** Baseline episodes played with no harness by `model` (DBBench dev by default), keyed by task index. */
export async function baselineOf(model: ScriptedModel, open: () => Promise<Environment> = dbbench, tasks: readonly number[] = BATCH.taskIndices): Promise<Map<number, EpisodeRecord>> {
  const env = await open();
  try {
    const records = new Map<number, EpisodeRecord>();
    for (const index of tasks) records.set(index, (await runEpisode({ model, episode: await env.openEpisode(index), hooks: await NO_HOOKS.openEpisode() })).record);
    return records;
  } finally {
    await env.close();
  }
}
