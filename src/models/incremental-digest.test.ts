import { describe, expect, it } from 'vitest';

import type { ChatRequest } from './chat-model.js';
import { incrementalDigest } from './incremental-digest.js';
import { requestDigest } from './recorded-turn.js';

const tools: ChatRequest['tools'] = [
  { name: 'act', description: 'do one thing', parameters: { type: 'object', properties: { action: { type: 'string' } }, required: ['action'] } },
];

/** A conversation as an agent builds it: one messages array, appended to after every turn. */
function conversation(turns: number): ChatRequest[] {
  const messages: ChatRequest['messages'] = [{ role: 'system', content: 'You are in a room.' }, { role: 'user', content: 'Find the key.' }];
  const out: ChatRequest[] = [];
  for (let i = 0; i < turns; i++) {
    out.push({ messages: [...messages], tools, temperature: 0, maxTokens: 256 });
    messages.push(
      { role: 'assistant', content: null, toolCalls: [{ id: `call_${i}`, name: 'act', arguments: `{"action":"look ${i}"}` }] },
      { role: 'tool', toolCallId: `call_${i}`, content: `You see thing ${i}.` },
    );
  }
  return out;
}

/** A message as a plain record, for edits its type does not allow. */
const loose = (request: ChatRequest, i: number) => request.messages[i] as unknown as Record<string, unknown> & { toolCalls?: { arguments: string }[] };

/** Digests every request with one incremental digest and with `requestDigest`; both lists. */
function both(requests: ChatRequest[]): { incremental: string[]; full: string[] } {
  const digests = incrementalDigest();
  return { incremental: requests.map((r) => digests.digest(r)), full: requests.map(requestDigest) };
}

describe('incrementalDigest', () => {
  it('gives requestDigest for every turn of a growing conversation', () => {
    const { incremental, full } = both(conversation(12));
    expect(incremental).toEqual(full);
    expect(new Set(full).size).toBe(12);
  });

  it('hashes each message of an append-only conversation once', () => {
    const digests = incrementalDigest();
    for (const request of conversation(12)) digests.digest(request);
    // 2 first messages + 2 per later turn; a full digest each turn would have hashed 2 + 4 + ... + 24.
    expect(digests.hashedMessages).toBe(2 + 2 * 11);
  });

  it('follows interleaved conversations side by side, each message hashed once', () => {
    const main = conversation(6);
    const critique = conversation(6).map((r) => ({ ...r, messages: [{ role: 'system' as const, content: 'Critique the plan.' }, ...r.messages.slice(1)] }));
    const digests = incrementalDigest();
    const sent = main.flatMap((r, i) => [r, critique[i]!]);
    expect(sent.map((r) => digests.digest(r))).toEqual(sent.map(requestDigest));
    expect(digests.hashedMessages).toBe(2 * (2 + 2 * 5));
  });

  it('gives requestDigest when more conversations interleave than it follows', () => {
    const variants = Array.from({ length: 6 }, (_, v) => conversation(4).map((r) => ({ ...r, messages: [{ role: 'system' as const, content: `variant ${v}` }, ...r.messages.slice(1)] })));
    const sent = [0, 1, 2, 3].flatMap((turn) => variants.map((v) => v[turn]!));
    const digests = incrementalDigest();
    expect(sent.map((r) => digests.digest(r))).toEqual(sent.map(requestDigest));
  });

  it('follows a messages array that the caller keeps appending to in place', () => {
    const digests = incrementalDigest();
    const request: ChatRequest = { messages: [{ role: 'user', content: 'start' }], tools };
    for (let i = 0; i < 5; i++) {
      expect(digests.digest(request)).toBe(requestDigest(request));
      request.messages.push({ role: 'assistant', content: `step ${i}` }, { role: 'user', content: `seen ${i}` });
    }
  });

  const edits: [string, (requests: ChatRequest[]) => void][] = [
    ['an earlier message edited in place', (r) => (r[5]!.messages[3]!.content = 'You see something else.')],
    ['an earlier message replaced', (r) => (r[5]!.messages[1] = { role: 'user', content: 'Find the door.' })],
    ['a message removed', (r) => r[5]!.messages.splice(2, 2)],
    ['the last messages dropped', (r) => (r[5]!.messages.length = 3)],
    ['a nested tool-call field changed', (r) => (loose(r[5]!, 2).toolCalls![0]!.arguments = '{"action":"jump"}')],
    ['a field added to an earlier message', (r) => (loose(r[5]!, 0).name = 'narrator')],
    ['a field of an earlier message set to undefined', (r) => (loose(r[5]!, 3).toolCallId = undefined)],
    ['the tools changed', (r) => (r[5]!.tools = [{ name: 'act', description: 'do two things', parameters: {} }])],
    ['a tool parameter changed in place', (r) => ((r[5]!.tools![0]!.parameters as { required: string[] }).required.push('why'))],
    ['the tools dropped', (r) => delete r[5]!.tools],
    ['the temperature changed', (r) => (r[5]!.temperature = 0.7)],
    ['a sampling field added', (r) => (r[5]!.toolChoice = 'required')],
    ['a sampling field set to undefined', (r) => (r[5]!.maxTokens = undefined)],
    ['the conversation restarted', (r) => (r[5]!.messages = r[1]!.messages.slice())],
  ];

  it.each(edits)('falls back when the prefix changes: %s', (_name, edit) => {
    const requests = conversation(9).map((r) => structuredClone(r));
    const digests = incrementalDigest();
    const before = requests.slice(0, 5).map((r) => digests.digest(r));
    edit(requests);
    const after = requests.slice(5).map((r) => digests.digest(r));
    expect([...before, ...after]).toEqual(requests.map(requestDigest));
    // The edit made turn 5 another request than the unedited one.
    expect(after[0]).not.toBe(requestDigest(conversation(9)[5]!));
  });

  it('keeps the digest of a request sent again after an edit was undone', () => {
    const requests = conversation(4);
    const digests = incrementalDigest();
    const first = digests.digest(requests[3]!);
    const edited = structuredClone(requests[3]!);
    edited.messages[2]!.content = 'edited';
    expect(digests.digest(edited)).toBe(requestDigest(edited));
    expect(digests.digest(requests[3]!)).toBe(first);
  });

  it('leaves the signal out and treats values canonical text makes equal alike', () => {
    const digests = incrementalDigest();
    const plain: ChatRequest = { messages: [{ role: 'user', content: 'hi' }], temperature: 0 };
    const signalled: ChatRequest = { ...plain, signal: new AbortController().signal };
    const negativeZero: ChatRequest = { messages: [{ role: 'user', content: 'hi' }], temperature: -0 };
    expect([plain, signalled, negativeZero].map((r) => digests.digest(r))).toEqual([plain, signalled, negativeZero].map(requestDigest));
    expect(digests.digest(negativeZero)).toBe(digests.digest(plain));
  });

  it('gives requestDigest for an empty conversation and for holes in the messages', () => {
    const digests = incrementalDigest();
    const empty: ChatRequest = { messages: [] };
    const holed = { messages: [{ role: 'user', content: 'a' }, undefined, { role: 'user', content: 'b' }] } as unknown as ChatRequest;
    expect(digests.digest(empty)).toBe(requestDigest(empty));
    expect(digests.digest(holed)).toBe(requestDigest(holed));
    expect(digests.digest(empty)).toBe(requestDigest(empty));
  });
});
