import { describe, expect, it } from 'vitest';

import { resolveDataDir } from '../../../config/data-dir.js';
import { createNativeHookProvider, NO_HOOKS, type NativeHook } from '../../../hooks/native-hooks.js';
import { runEpisode } from '../../../runtime/run-episode.js';
import { alfworldEnvironment } from '../environment.js';
import { createAlfworldSimModel } from './in-process-sim-model.js';
import { createAlfworldSimHandler, type AlfworldSimHandler, type AlfworldSimHandlerOptions } from './wire-handler.js';

// The target remembers each conversation's replay between requests; its answers must be those of a target
// that replays every request from scratch (memory 0), whatever order the requests come in.

const dataDir = resolveDataDir();

/** Every few rounds a hint naming several fixes, so hints act on the replayed state. */
const hintEvery: NativeHook = {
  hook: 'make_pre_hint',
  fn: (_ctx, nb) => {
    nb.n = (typeof nb.n === 'number' ? nb.n : 0) + 1;
    return (nb.n as number) % 4 === 0 ? { message: 'You are repeating the same action and nothing happens. Heat, cool or clean the object, and take the second one too.' } : null;
  },
};

/** Every fifth action from the second on is blocked, with a text that itself mentions AVAILABLE ACTIONS. */
const blockEvery: NativeHook = {
  hook: 'on_before_action',
  fn: (_ctx, nb) => {
    nb.k = (typeof nb.k === 'number' ? nb.k : 0) + 1;
    return (nb.k as number) % 5 === 2 ? { kind: 'block_and_prompt', message: 'That command is not in AVAILABLE ACTIONS right now. Choose a command copied exactly from the list.' } : null;
  },
};

interface Request {
  seed: number;
  body: unknown;
  answer: string;
}

interface Conversation {
  requests: Request[];
}

/** Plays one episode against a target without memory, keeping every request and its answer. */
async function record(
  protocol: 'fc' | 'v0.2',
  wording: '2.1.1' | '2.1.2',
  index: number,
  options: Omit<AlfworldSimHandlerOptions, 'dataDir' | 'seed'> & { seed?: number },
  hooks: readonly NativeHook[],
): Promise<Conversation> {
  const inner = createAlfworldSimHandler({ dataDir, ...options, memory: 0 });
  const requests: Conversation['requests'] = [];
  const handler: AlfworldSimHandler = Object.assign(
    (body: unknown) => {
      const completion = inner(body);
      requests.push({ seed: options.seed ?? 0, body: structuredClone(body), answer: JSON.stringify(completion) });
      return completion;
    },
    { settings: inner.settings, policy: inner.policy },
  );
  const environment = alfworldEnvironment({ dataDir, split: 'dev', wording, ...(protocol === 'v0.2' ? { protocol } : {}) });
  const provider = hooks.length > 0 ? createNativeHookProvider(hooks) : NO_HOOKS;
  await runEpisode({ model: createAlfworldSimModel(handler), episode: await environment.openEpisode(index), hooks: await provider.openEpisode() });
  await environment.close();
  return { requests };
}

describe('the simulated ALFWorld target with memory', () => {
  it('answers every request byte for byte as a target that replays each request in full', async () => {
    // dev #11 runs to the round limit (long histories); #9 and #2 have three candidate games (changes of mind).
    // Two conversations of #11 in FC step the same cached game instances, so each takes them from the other.
    const conversations = [
      await record('fc', '2.1.1', 11, {}, []),
      await record('fc', '2.1.1', 11, {}, [hintEvery, blockEvery]),
      await record('v0.2', '2.1.1', 9, {}, [hintEvery, blockEvery]),
      await record('v0.2', '2.1.1', 11, { seed: 1 }, []),
      await record('fc', '2.1.2', 2, { seed: 3 }, [hintEvery, blockEvery]),
    ];
    expect(conversations.map((c) => c.requests.length).every((n) => n >= 4)).toBe(true);
    expect(conversations[1]!.requests.some((r) => JSON.stringify(r.body).includes('not in AVAILABLE ACTIONS right now'))).toBe(true);

    // Interleaved turn by turn, every third request sent twice, then every request again from the last turn back.
    const schedule: Request[] = [];
    const longest = Math.max(...conversations.map((c) => c.requests.length));
    for (let turn = 0; turn < longest; turn++) {
      for (const c of conversations) {
        const r = c.requests[turn];
        if (r === undefined) continue;
        schedule.push(r);
        if (turn % 3 === 1) schedule.push(r);
      }
    }
    for (let turn = longest - 1; turn >= 0; turn--) for (const c of conversations) if (c.requests[turn]) schedule.push(c.requests[turn]!);

    // The default memory, and a memory of two conversations (so states are dropped and rebuilt on the way).
    for (const memory of [undefined, 2]) {
      const handlers = new Map<number, AlfworldSimHandler>();
      const forSeed = (seed: number): AlfworldSimHandler => {
        let h = handlers.get(seed);
        if (!h) handlers.set(seed, (h = createAlfworldSimHandler({ dataDir, seed, ...(memory === undefined ? {} : { memory }) })));
        return h;
      };
      const wrong = schedule.map((r, i) => ({ i, same: JSON.stringify(forSeed(r.seed)(r.body)) === r.answer })).filter((x) => !x.same).map((x) => x.i);
      expect(wrong, `memory ${memory ?? 'default'}`).toEqual([]);
    }
  }, 120_000);
});
