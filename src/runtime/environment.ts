import type { TaskRef, ToolSpec } from '../episode/index.js';
import type { EpisodeBase, EpisodeSource } from '../environments/environment.js';
import { type Ending, LoopContext, type LoopRequest } from './episode-loop.js';
import type { EpisodeHooks } from '../hooks/hook-provider.js';
import type { ChatModel } from '../models/chat-model.js';

/** A benchmark's agent loop, typed against its own episode (no string keys, no run-time guards). */
export type EpisodeLoop<E extends EpisodeBase> = (loop: LoopContext<E>) => Promise<Ending>;

/** What playing an episode needs from the caller. */
export interface PlayDeps {
  model: ChatModel;
  hooks: EpisodeHooks;
  request?: LoopRequest;
  signal?: AbortSignal;
}

/** One opened episode bound to the loop that plays it. */
export interface PlayableEpisode {
  readonly task: TaskRef;
  readonly info: Record<string, unknown>;
  /** The tools the model is offered (none in a text protocol). */
  readonly tools?: readonly ToolSpec[];
  /** Starts the loop; `context.state` accumulates the conversation while `ending` settles. */
  start(deps: PlayDeps): { context: LoopContext; ending: Promise<Ending> };
  close(): Promise<void>;
}

/** Binds an episode to its loop; the type checker holds the episode to what the loop needs. */
export function bindEpisode<E extends EpisodeBase>(episode: E, play: EpisodeLoop<E>): PlayableEpisode {
  return {
    task: episode.task,
    info: episode.info,
    ...(episode.tools ? { tools: episode.tools } : {}),
    start(deps) {
      const context = new LoopContext<E>(deps.model, episode, deps.hooks, deps.request, deps.signal);
      return { context: context as unknown as LoopContext, ending: play(context) };
    },
    close: () => episode.close(),
  };
}

/** A benchmark's tasks under one configuration: opens playable episodes by task index. */
export interface Environment {
  readonly bench: string;
  readonly split: string;
  readonly size: number;
  openEpisode(index: number): Promise<PlayableEpisode>;
  close(): Promise<void>;
}

/** An engine's episodes played by one loop, as a runtime environment. */
export type { EpisodeBase, EpisodeSource };

export function playWith<E extends EpisodeBase>(source: EpisodeSource<E>, play: EpisodeLoop<E>): Environment {
  return {
    bench: source.bench,
    split: source.split,
    size: source.size,
    openEpisode: async (index) => bindEpisode(await source.openEpisode(index), play),
    close: () => source.close(),
  };
}
