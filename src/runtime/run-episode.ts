import type { EpisodeRecord } from '../episode/index.js';
import { EPISODE_RECORD_VERSION } from '../episode/index.js';
import type { EpisodeHooks } from '../hooks/hook-provider.js';
import type { ChatModel } from '../models/chat-model.js';
import type { PlayableEpisode } from './environment.js';
import { InfraError, errorText, outcomeOfInfraError, type Ending, type LoopRequest } from './episode-loop.js';

export interface RunEpisodeOptions {
  model: ChatModel;
  episode: PlayableEpisode;
  hooks: EpisodeHooks;
  /** Sampling options sent with every model call (temperature 0 by default, as the reference). */
  request?: LoopRequest;
  signal?: AbortSignal;
  /** Which play of the task this is in its run (1 by default); stored in the record. */
  attempt?: number;
}

export interface RunEpisodeResult {
  record: EpisodeRecord;
  /** Wall-clock data kept out of the deterministic record. */
  timing: { modelMs: number[]; totalMs: number };
}

/**
 * Plays one task with its benchmark's loop and returns the record. Expected failures end as an Outcome;
 * the only errors caught here are infrastructure failures (model, environment, hook machinery), which
 * become model_error, env_error or hook_fault. Anything else is a bug and is thrown.
 */
export async function runEpisode(options: RunEpisodeOptions): Promise<RunEpisodeResult> {
  const started = performance.now();
  const { episode, hooks } = options;
  const { context, ending: playing } = episode.start({
    model: options.model,
    hooks,
    ...(options.request ? { request: options.request } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
  });
  let ending: Ending;
  try {
    ending = await playing;
  } catch (error) {
    if (!(error instanceof InfraError)) throw error;
    ending = { outcome: outcomeOfInfraError(error), reward: 0, detail: { error: errorText(error) } };
  } finally {
    await Promise.allSettled([hooks.close(), episode.close()]);
  }
  const s = context.state;
  const record: EpisodeRecord = {
    schemaVersion: EPISODE_RECORD_VERSION,
    task: episode.task,
    attempt: options.attempt ?? 1,
    outcome: ending.outcome,
    reward: ending.reward,
    rounds: s.rounds,
    detail: { ...episode.info, ...ending.detail, ...(s.limitHits.length > 0 ? { modelLimits: s.limitHits } : {}), ...(s.strategyTurns.length > 0 ? { strategyTurns: s.strategyTurns } : {}) },
    steps: s.steps,
    hookTrace: s.hookTrace,
    messages: s.messages,
    ...(s.preamble > 0 ? { preamble: s.preamble } : {}),
    usage: s.usage,
  };
  return { record, timing: { modelMs: s.modelMs, totalMs: performance.now() - started } };
}
