import pLimit from 'p-limit';

import { EPISODE_RECORD_VERSION, type EpisodeRecord, type EpisodeTurns } from '../episode/index.js';
import type { Environment } from '../runtime/environment.js';
import type { HookProvider } from '../hooks/hook-provider.js';
import type { ChatModel, ChatRequest } from '../models/chat-model.js';
import { episodeModel, type RecordedTurn } from '../models/replaying-model.js';
import { runEpisode } from '../runtime/run-episode.js';
import { reflectAndRetry, strategyModel, type StrategyName } from '../runtime/strategies/index.js';
import type { RunStore } from '../store/run-store.js';

export interface BatchProgress {
  done: number;
  total: number;
  /** Set when an episode just finished (not for tasks skipped because a resumed run already had them). */
  record?: EpisodeRecord;
}

export interface RunBatchOptions {
  environment: Environment;
  model: ChatModel;
  hooks: HookProvider;
  taskIndices: number[];
  store: RunStore;
  concurrency?: number;
  request?: Pick<ChatRequest, 'temperature' | 'maxTokens' | 'toolChoice' | 'parallelToolCalls'>;
  onProgress?: (progress: BatchProgress) => void;
  /** Stops scheduling new episodes; running ones finish and are recorded. */
  signal?: AbortSignal;
  /** Play again the tasks whose recorded episode ended in an infrastructure failure. */
  retryInfra?: boolean;
  /**
   * A baseline target strategy: `react` and `self_refine` change every turn; `reflection` plays a failed
   * task a second time with a reflection in context (stored in the record's `detail.reflection`).
   */
  strategy?: StrategyName;
  /**
   * Exact replay: per task, the model turns of an earlier run of the same target (its baseline). Each
   * episode answers its requests from them as long as they are exactly the recorded requests, and calls
   * the model from the first one that differs on (see `episodeModel`). Only for targets whose answer is a
   * function of the request; the records are then the same as without it.
   */
  replayFrom?: ReadonlyMap<number, readonly RecordedTurn[]>;
}

export interface RunBatchResult {
  records: EpisodeRecord[];
  ran: number;
  skipped: number;
  interrupted: boolean;
}

/**
 * Plays every task of a batch that the store does not already hold, `concurrency` at a time, appending
 * each finished episode to the store at once (as attempt n+1 of its task), then puts the store's file in
 * canonical order. A run killed at any point resumes from its store with nothing lost and nothing played
 * twice; an episode whose record cannot be stored is recorded as its model_error and the batch goes on.
 */
export async function runBatch(options: RunBatchOptions): Promise<RunBatchResult> {
  const { store, taskIndices } = options;
  const pending = taskIndices.filter((i) => !store.isDone(i, options.retryInfra));
  const total = taskIndices.length;
  let done = total - pending.length;
  options.onProgress?.({ done, total });
  const limit = pLimit(Math.max(1, options.concurrency ?? 1));
  let ran = 0;
  // Before the first wave: otherwise its episodes queue behind the first one while the client's code loads.
  if (pending.length > 0) await options.model.warmUp?.().catch(() => false);
  await Promise.all(
    pending.map((index) =>
      limit(async () => {
        if (options.signal?.aborted) return;
        const played = await playOne(options, index, store.nextAttempt(index));
        const stored = store.append(played.record, played.timing, played.turns) ?? played.record;
        ran++;
        done++;
        options.onProgress?.({ done, total, record: stored });
      }),
    ),
  );
  store.finish();
  return { records: store.records(), ran, skipped: total - pending.length, interrupted: options.signal?.aborted ?? false };
}

async function playOne(options: RunBatchOptions, index: number, attempt: number): Promise<{ record: EpisodeRecord; timing: { totalMs: number; modelMs: number[] }; turns?: Omit<EpisodeTurns, 'index' | 'attempt'> }> {
  const { environment } = options;
  const started = performance.now();
  let episode;
  try {
    episode = await environment.openEpisode(index);
  } catch (error) {
    return infraRecord(environment, index, attempt, 'env_error', error, started);
  }
  let hooks;
  try {
    hooks = await options.hooks.openEpisode();
  } catch (error) {
    await episode.close().catch(() => undefined);
    return infraRecord(environment, index, attempt, 'hook_fault', error, started);
  }
  // Replay answers the target's own requests; a strategy's extra calls (critique, refine, reflection) go through it too.
  const recorder = episodeModel(options.model, options.replayFrom?.get(index));
  const model = strategyModel(recorder, options.strategy);
  const request = options.request ? { request: options.request } : {};
  let played = await runEpisode({ model, episode, hooks, attempt, ...request });
  if (options.strategy === 'reflection') {
    played = await reflectAndRetry({
      model,
      first: played,
      ...(episode.tools ? { tools: episode.tools } : {}),
      ...(options.request?.temperature !== undefined ? { temperature: options.request.temperature } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
      playAgain: async (withReflection) => {
        const again = performance.now();
        let second;
        try {
          second = await environment.openEpisode(index);
        } catch (error) {
          return infraRecord(environment, index, attempt, 'env_error', error, again);
        }
        let secondHooks;
        try {
          secondHooks = await options.hooks.openEpisode();
        } catch (error) {
          await second.close().catch(() => undefined);
          return infraRecord(environment, index, attempt, 'hook_fault', error, again);
        }
        return runEpisode({ model: withReflection, episode: second, hooks: secondHooks, attempt, ...request });
      },
    });
  }
  const { record, timing } = played;
  return { record, timing: { totalMs: timing.totalMs, modelMs: timing.modelMs }, turns: { replayed: recorder.replayed, turns: [...recorder.turns] } };
}

function infraRecord(env: Environment, index: number, attempt: number, outcome: 'env_error' | 'hook_fault', error: unknown, started: number) {
  const record: EpisodeRecord = {
    schemaVersion: EPISODE_RECORD_VERSION,
    task: { bench: env.bench, split: env.split, index },
    attempt,
    outcome,
    reward: 0,
    rounds: 0,
    detail: { error: error instanceof Error ? error.message : String(error), stage: 'setup', ...((error as { permanent?: unknown })?.permanent === true ? { permanent: true } : {}) },
    steps: [],
    hookTrace: [],
    messages: [],
    usage: { promptTokens: 0, completionTokens: 0, modelCalls: 0 },
  };
  return { record, timing: { totalMs: performance.now() - started, modelMs: [] } };
}
