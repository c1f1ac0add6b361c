/**
 * Per-turn cost of the exact-replay request digest: `requestDigest` of every request of a conversation
 * against the incremental digest an episode keeps, over the same requests. The conversation is shaped like
 * an ALFWorld/WebShop episode: a long system prompt, tools, and per turn an assistant tool call and an
 * observation, sent as one messages array appended to in place.
 *
 *   npx tsx bench/request-digest-bench.ts [--turns 40] [--episodes 200]
 */
import { loadavg } from 'node:os';

import type { ChatRequest } from '../src/models/chat-model.js';
import { incrementalDigest } from '../src/models/incremental-digest.js';
import { requestDigest } from '../src/models/recorded-turn.js';

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(name);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1]! : fallback;
}

const turns = Number(arg('--turns', '40'));
const episodes = Number(arg('--episodes', '200'));
const tools: ChatRequest['tools'] = [
  { name: 'take_action', description: 'Take one action in the environment.', parameters: { type: 'object', properties: { action: { type: 'string', description: 'The action.' } }, required: ['action'] } },
];
const system = 'You are an agent in a household. '.repeat(60);
const observation = (i: number) => `You arrive at countertop ${i}. On the countertop ${i}, you see a apple 1, a bread 2, a butterknife 3, a cup 1, a egg 2, a fork 1, a knife 2, a lettuce 1.`;

/** Plays one episode with `digest` taking the request before each turn; the total time in ms. */
function play(digest: (request: ChatRequest) => string): number {
  const request: ChatRequest = { messages: [{ role: 'system', content: system }, { role: 'user', content: 'Your task is to: put a clean apple in fridge.' }], tools, temperature: 0 };
  let spent = 0;
  for (let i = 0; i < turns; i++) {
    const started = performance.now();
    digest(request);
    spent += performance.now() - started;
    request.messages.push(
      { role: 'assistant', content: null, toolCalls: [{ id: `call_${i}`, name: 'take_action', arguments: JSON.stringify({ action: `go to countertop ${i}` }) }] },
      { role: 'tool', toolCallId: `call_${i}`, content: observation(i) },
    );
  }
  return spent;
}

function measure(label: string, make: () => (request: ChatRequest) => string): void {
  for (let i = 0; i < 20; i++) play(make());
  let total = 0;
  for (let e = 0; e < episodes; e++) total += play(make());
  console.log(`${label}: ${((total / (episodes * turns)) * 1000).toFixed(1)} us per turn (${turns} turns, ${episodes} episodes); load ${loadavg()[0]!.toFixed(2)}`);
}

measure('requestDigest (full)', () => requestDigest);
measure('incrementalDigest', () => {
  const digests = incrementalDigest();
  return (request) => digests.digest(request);
});
