import type { ChatModel, ChatRequest, ChatResponse } from './chat-model.js';
import { incrementalDigest } from './incremental-digest.js';
import { recordedResponse, responseOf, type RecordedTurn } from './recorded-turn.js';

export type { RecordedTurn };

/** A chat model for one episode that also counts how many of its turns were answered from a recording. */
export interface EpisodeModel extends ChatModel {
  /** Turns answered from the recording without calling the model. */
  readonly replayed: number;
  /** Every turn of the episode so far, replayed or called, in order. */
  readonly turns: readonly RecordedTurn[];
}

/**
 * The model of one episode, recording every turn. With `recording` (the same task's turns from a run of
 * the same target), turn i is answered from the recording as long as the request is exactly the one the
 * recorded turn i answered (same digest of messages, tools and sampling) and every turn before it was
 * too; from the first request that differs on, every turn goes to `inner`. For a target whose answer
 * depends on the request only (a deterministic server, a simulated target) the episode is the same with
 * or without the recording; only the calls are saved.
 */
export function episodeModel(inner: ChatModel, recording?: readonly RecordedTurn[]): EpisodeModel {
  const turns: RecordedTurn[] = [];
  let replayed = 0;
  let diverged = recording === undefined;
  // The requests of an episode are one conversation: the digest is kept running over its messages.
  const digests = incrementalDigest();
  const record = (digest: string, response: ChatResponse): ChatResponse => {
    turns.push({ request: digest, response: structuredClone(recordedResponse(response)) });
    return response;
  };
  return {
    label: inner.label,
    simulated: inner.simulated,
    get replayed() {
      return replayed;
    },
    turns,
    async complete(request: ChatRequest): Promise<ChatResponse> {
      const recorded = diverged ? undefined : recording?.[turns.length];
      if (recorded !== undefined) {
        const digest = digests.digest(request);
        if (recorded.request === digest) {
          replayed++;
          turns.push(recorded);
          return responseOf(recorded.response);
        }
        diverged = true;
        return record(digest, await inner.complete(request));
      }
      diverged = true;
      // Nothing to match: the request goes out first and its digest is taken while the model works (the
      // caller changes the messages only once this returns), off the episode's critical path.
      const call = inner.complete(request);
      call.catch(() => undefined);
      const digest = await new Promise<string>((resolve, reject) => {
        setImmediate(() => {
          try {
            resolve(digests.digest(request));
          } catch (error) {
            reject(error as Error);
          }
        });
      });
      return record(digest, await call);
    },
  };
}
