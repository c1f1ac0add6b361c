import { describe, expect, it } from 'vitest';

import type { ChatRequest } from './chat-model.js';
import { episodeModel } from './replaying-model.js';
import { requestDigest } from './recorded-turn.js';
import { createScriptedModel } from './scripted-model.js';

// A four-turn conversation: request i carries i earlier assistant turns.
function requests(changeAt?: number): ChatRequest[] {
  const out: ChatRequest[] = [];
  const messages: ChatRequest['messages'] = [{ role: 'system', content: 'sys' }, { role: 'user', content: 'task' }];
  for (let i = 0; i < 4; i++) {
    if (i > 0) messages.push({ role: 'assistant', content: `answer ${i - 1}` }, { role: 'user', content: i === changeAt ? `observation ${i} (a hook's hint)` : `observation ${i}` });
    out.push({ messages: structuredClone(messages), tools: [{ name: 'act', description: 'act', parameters: {} }], temperature: 0 });
  }
  return out;
}

const answers = (tag: string) => createScriptedModel([0, 1, 2, 3].map((i) => ({ content: `${tag} ${i}`, usage: { promptTokens: 10 + i, completionTokens: i } })));

async function play(model: ReturnType<typeof episodeModel>, list: ChatRequest[]): Promise<string[]> {
  const out: string[] = [];
  for (const r of list) out.push(String((await model.complete(r)).message.content));
  return out;
}

describe('episodeModel (exact replay)', () => {
  it('records every turn with the digest of its request and the answer as given', async () => {
    const model = episodeModel(answers('baseline'));
    await play(model, requests());
    expect(model.replayed).toBe(0);
    expect(model.turns.map((t) => t.request)).toEqual(requests().map(requestDigest));
    expect(model.turns[2]!.response).toEqual({ message: { content: 'baseline 2', toolCalls: [] }, finishReason: 'stop', usage: { promptTokens: 12, completionTokens: 2 } });
  });

  it.each([1, 2, 3])('replays the turns before the first different request (turn %i) and calls the model from there on', async (k) => {
    const baseline = episodeModel(answers('baseline'));
    await play(baseline, requests());
    const inner = answers('called');
    const rerun = episodeModel(inner, baseline.turns);
    const got = await play(rerun, requests(k));
    expect(rerun.replayed).toBe(k);
    expect(got.slice(0, k)).toEqual(Array.from({ length: k }, (_, i) => `baseline ${i}`));
    // The model saw only the turns from k on, in order, starting at its own first turn.
    expect(inner.calls).toHaveLength(4 - k);
    expect(inner.calls.map(requestDigest)).toEqual(requests(k).slice(k).map(requestDigest));
    expect(got.slice(k)).toEqual(Array.from({ length: 4 - k }, (_, i) => `called ${i}`));
    // A replayed turn is recorded as the baseline's turn, usage included.
    expect(rerun.turns.slice(0, k)).toEqual(baseline.turns.slice(0, k));
  });

  it('compares tools and sampling too, not only the messages', async () => {
    const baseline = episodeModel(answers('baseline'));
    await play(baseline, requests());
    const inner = answers('called');
    const warmer = episodeModel(inner, baseline.turns);
    await play(warmer, requests().map((r) => ({ ...r, temperature: 0.7 })));
    expect(warmer.replayed).toBe(0);
    const fewerTools = episodeModel(answers('called'), baseline.turns);
    await play(fewerTools, requests().map((r) => ({ ...r, tools: [] })));
    expect(fewerTools.replayed).toBe(0);
  });

  it('never replays again after a divergence, even when a later request matches the recording', async () => {
    const baseline = episodeModel(answers('baseline'));
    await play(baseline, requests());
    const list = requests();
    list[1] = { ...list[1]!, temperature: 1 };
    const rerun = episodeModel(answers('called'), baseline.turns);
    await play(rerun, list);
    expect(rerun.replayed).toBe(1);
  });

  it('replays every turn of an identical episode and no more than the recording holds', async () => {
    const baseline = episodeModel(answers('baseline'));
    await play(baseline, requests().slice(0, 2));
    const inner = answers('called');
    const rerun = episodeModel(inner, baseline.turns);
    await play(rerun, requests());
    expect(rerun.replayed).toBe(2);
    expect(inner.calls).toHaveLength(2);
  });
});

describe('episodeModel: when the digest is taken', () => {
  /** A request whose first message logs every read of its content, i.e. the digest walking it. */
  function watched(log: string[]): ChatRequest {
    const first = { role: 'system' as const, get content() {
      log.push('digest');
      return 'sys';
    } };
    return { messages: [first, { role: 'user', content: 'task' }], temperature: 0 };
  }
  function logging(log: string[], fail = false) {
    const inner = answers('called');
    return { ...inner, complete: (request: ChatRequest) => (log.push('call'), fail ? Promise.reject(new Error('model down')) : inner.complete(request)) };
  }

  it('with nothing to replay, the request goes out before its digest is taken, and the digest is the same', async () => {
    const log: string[] = [];
    const model = episodeModel(logging(log));
    const request = watched(log);
    await model.complete(request);
    expect(log[0]).toBe('call');
    expect(log.slice(1).every((entry) => entry === 'digest')).toBe(true);
    expect(model.turns.map((t) => t.request)).toEqual([requestDigest({ messages: [{ role: 'system', content: 'sys' }, { role: 'user', content: 'task' }], temperature: 0 })]);
  });

  it('with a recording, the digest comes first: it decides whether the model is called at all', async () => {
    const baseline = episodeModel(answers('baseline'));
    await play(baseline, requests());
    const log: string[] = [];
    const model = episodeModel(logging(log), baseline.turns);
    await model.complete(watched(log));
    expect(log[0]).toBe('digest');
    expect(log).toContain('call');
    expect(model.replayed).toBe(0);
  });

  it('a failed call fails the turn and records nothing, even while its digest is pending', async () => {
    const log: string[] = [];
    const model = episodeModel(logging(log, true));
    await expect(model.complete(watched(log))).rejects.toThrow('model down');
    expect(model.turns).toEqual([]);
  });
});
