/**
 * What a hostile model server costs the client: a 100 MB `content` body (Content-Length) and an endless
 * chunked body, each from a real local HTTP server, read through the OpenAI-compatible adapter. Prints the
 * bytes the client read before it stopped, the bytes the server managed to write before the hang-up, the
 * growth of the process's resident memory, and the error the call ended with.
 *
 *   npx tsx bench/model-body-cap-bench.ts [--cap-mib 16]
 */
import { createOpenAICompatibleModel } from '../src/models/openai-compatible-model.js';
import { scripted, startFakeOpenAIServer, type FakeResponse } from '../src/models/fake-openai-server.js';
import { isModelCallError } from '../src/models/chat-model.js';

const MiB = 1024 * 1024;
const i = process.argv.indexOf('--cap-mib');
const capMiB = i >= 0 ? Number(process.argv[i + 1]) : 16;
const HEAD = '{"id":"c","object":"chat.completion","created":0,"model":"fake-model","choices":[{"index":0,"message":{"role":"assistant","content":"';
const TAIL = '"},"finish_reason":"stop"}]}';

const cases: [string, FakeResponse][] = [
  ['100 MB content (Content-Length)', { kind: 'stream', head: HEAD, chunk: 'x'.repeat(64 * 1024), repeat: 1600, tail: TAIL, declareLength: true }],
  ['endless chunked body (safety stop 1 GiB)', { kind: 'stream', head: HEAD, chunk: 'y'.repeat(64 * 1024), repeat: 'endless', limitBytes: 1024 * MiB }],
];

async function main(): Promise<void> {
  console.log(`max_body_bytes = ${capMiB} MiB`);
  for (const [label, response] of cases) {
    const server = await startFakeOpenAIServer({ handler: scripted([response]) });
    const model = createOpenAICompatibleModel({ baseURL: server.url, model: 'fake-model', env: {}, limits: { maxBodyBytes: capMiB * MiB }, retry: { maxAttempts: 1 } });
    global.gc?.();
    const before = process.memoryUsage().rss;
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
    const started = performance.now();
    const outcome = await model.complete({ messages: [{ role: 'user', content: 'hi' }] }).then(
      (r) => `returned ${r.message.content?.length ?? 0} characters of content`,
      (e: unknown) => (isModelCallError(e) ? `${e.failure}: read ${e.limit?.actual ?? '?'} bytes` : String(e)),
    );
    const ms = performance.now() - started;
    await server.streams[0]!.closed;
    clearInterval(sampler);
    peak = Math.max(peak, process.memoryUsage().rss);
    const written = server.streams[0]!.bytesWritten;
    console.log(`${label}: ${outcome}; server wrote ${(written / MiB).toFixed(1)} MiB; peak RSS +${((peak - before) / MiB).toFixed(1)} MiB; ${ms.toFixed(0)} ms`);
    await server.close();
  }
}

await main();
