/**
 * What one model call costs this process: the OpenAI-compatible adapter (`createOpenAICompatibleModel`,
 * over `node:http` since it left the `openai` client), against the `openai` client's
 * `chat.completions.create` over Node's `fetch` (the adapter's transport until then, the anchor) and a bare
 * `node:http` POST with `JSON.parse` (the floor). A server in a child process answers every call with the
 * same small completion at once, so the figures are the client's: this thread's CPU per call (user +
 * system of the whole process, so garbage-collector threads count) and the call's latency p50, back to
 * back and after a 200 ms idle gap (what a call pays after a model turn). The request is a 3.5 KB
 * conversation (a system prompt and a user turn).
 *
 *   npx tsx bench/model-client-bench.ts [--calls 400] [--gap-calls 40] [--rounds 3] [--json]
 *
 * Each round runs the three clients in turn; the figures are the median over rounds.
 */
import { spawn } from 'node:child_process';
import http from 'node:http';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';

import OpenAI from 'openai';

import type { ChatMessage } from '../src/episode/index.js';
import { createOpenAICompatibleModel } from '../src/models/openai-compatible-model.js';
import { fromWireToolCalls, toWireMessage } from '../src/models/wire-format.js';

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(name);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1]! : fallback;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[sorted.length >> 1] ?? 0;
}

const calls = Number(arg('--calls', '400'));
const gapCalls = Number(arg('--gap-calls', '40'));
const rounds = Number(arg('--rounds', '3'));
if (![calls, gapCalls, rounds].every((v) => Number.isInteger(v) && v >= 1)) {
  console.error('usage: --calls, --gap-calls and --rounds take whole numbers >= 1.');
  process.exit(2);
}

const SERVER = `
const http = require('node:http');
const reply = JSON.stringify({ id: 'c', object: 'chat.completion', created: 0, model: 'm',
  choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: 'Action: Operation\\n\`\`\`sql\\nSELECT * FROM t LIMIT 5;\\n\`\`\`' } }],
  usage: { prompt_tokens: 900, completion_tokens: 20 } });
const server = http.createServer((request, response) => { request.resume(); request.on('end', () => {
  response.writeHead(200, { 'content-type': 'application/json' }); response.end(reply); }); });
server.keepAliveTimeout = 60000;
server.listen(0, '127.0.0.1', () => console.log(server.address().port));
process.stdin.on('end', () => process.exit(0)); process.stdin.resume();`;

const child = spawn(process.execPath, ['-e', SERVER], { stdio: ['pipe', 'pipe', 'inherit'] });
const port = Number(await new Promise<string>((resolve) => createInterface({ input: child.stdout! }).once('line', resolve)));
const baseURL = `http://127.0.0.1:${port}/v1`;
const messages: ChatMessage[] = [
  { role: 'system', content: 'You are an agent that answers questions about a table with SQL. '.repeat(30) },
  { role: 'user', content: 'How many rows of the table have a value over 10 in the second column? '.repeat(21) },
];

const adapter = createOpenAICompatibleModel({ baseURL, model: 'm', env: {}, retry: { maxAttempts: 1 } });
const sdk = new OpenAI({ baseURL, apiKey: 'EMPTY', maxRetries: 0, organization: null, project: null });
const agent = new http.Agent({ keepAlive: true });

async function bare(): Promise<unknown> {
  const body = JSON.stringify({ model: 'm', messages: messages.map(toWireMessage), temperature: 0 });
  const text = await new Promise<string>((resolve, reject) => {
    const request = http.request({ host: '127.0.0.1', port, path: '/v1/chat/completions', method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
      response.on('error', reject);
    });
    request.on('error', reject);
    request.end(body);
  });
  const completion = JSON.parse(text) as { choices: { message: { tool_calls?: unknown } }[] };
  return fromWireToolCalls(completion.choices[0]!.message.tool_calls);
}

const clients: [string, () => Promise<unknown>][] = [
  ['adapter (node:http)', () => adapter.complete({ messages, temperature: 0 })],
  ['openai client over fetch', () => sdk.chat.completions.create({ model: 'm', messages: messages.map(toWireMessage), temperature: 0 })],
  ['bare node:http POST', bare],
];

async function measure(fn: () => Promise<unknown>, n: number, gapMs: number): Promise<{ cpuMs: number; p50Ms: number }> {
  const latencies: number[] = [];
  let cpu = 0;
  for (let i = 0; i < n; i++) {
    if (gapMs > 0) await sleep(gapMs);
    const before = process.cpuUsage();
    const started = performance.now();
    await fn();
    latencies.push(performance.now() - started);
    const used = process.cpuUsage(before);
    cpu += (used.user + used.system) / 1000;
  }
  return { cpuMs: cpu / n, p50Ms: median(latencies) };
}

const results = new Map<string, { cpu: number[]; p50: number[]; idleCpu: number[]; idleP50: number[] }>(clients.map(([name]) => [name, { cpu: [], p50: [], idleCpu: [], idleP50: [] }]));
for (const [, fn] of clients) for (let i = 0; i < 50; i++) await fn();
for (let r = 0; r < rounds; r++) {
  for (const [name, fn] of clients) {
    const back = await measure(fn, calls, 0);
    const idle = await measure(fn, gapCalls, 200);
    const row = results.get(name)!;
    row.cpu.push(back.cpuMs);
    row.p50.push(back.p50Ms);
    row.idleCpu.push(idle.cpuMs);
    row.idleP50.push(idle.p50Ms);
  }
}
child.stdin!.end();
await adapter.close();
agent.destroy();

const rows = [...results].map(([name, r]) => ({ name, cpuMs: median(r.cpu), p50Ms: median(r.p50), idleCpuMs: median(r.idleCpu), idleP50Ms: median(r.idleP50) }));
if (process.argv.includes('--json')) {
  console.log(JSON.stringify(rows));
} else {
  const anchor = rows[1]!;
  console.log(`model client, ${rounds} round(s) of ${calls} calls back to back and ${gapCalls} after 200 ms idle (medians over rounds):`);
  for (const row of rows) {
    console.log(
      `${row.name}: back to back cpu ${row.cpuMs.toFixed(3)} ms/call, p50 ${row.p50Ms.toFixed(3)} ms; after idle cpu ${row.idleCpuMs.toFixed(3)} ms/call, p50 ${row.idleP50Ms.toFixed(3)} ms` +
        (row === anchor ? '' : ` (×${(row.cpuMs / anchor.cpuMs).toFixed(2)} / ×${(row.idleCpuMs / anchor.idleCpuMs).toFixed(2)} of the openai client's cpu)`),
    );
  }
}
