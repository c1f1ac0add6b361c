import { Hono, type Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { z } from 'zod';

import type { RlRowMetadata } from '../training/rows/rl-row.js';
import type { RewardResult } from './reward-result.js';
import type { Refusal, RewardService } from './reward-service.js';

export interface HttpAppOptions {
  /** Longest a request may wait for its results (`wait_ms` is capped to it). */
  waitMaxMs: number;
  /** Largest request body accepted (413 beyond). */
  maxBodyBytes: number;
}

const Item = z.object({ metadata: z.record(z.string(), z.unknown()), response: z.string() });
const WaitMs = z.number().int().min(0).optional();
const Body = z.union([z.object({ items: z.array(Item).min(1), wait_ms: WaitMs }), Item.extend({ wait_ms: WaitMs })]);
const OpenRlhfBody = z.object({ query: z.array(z.string()), prompts: z.array(z.string()).optional(), labels: z.array(z.string()) });

type ErrorCode = Refusal['code'] | 'too_large' | 'not_found' | 'stopping';

function error(c: Context, status: 400 | 404 | 409 | 413 | 422 | 429 | 503, code: ErrorCode, message: string, extra: Record<string, unknown> = {}) {
  return c.json({ error: { code, message, ...extra } }, status);
}

async function readJson(c: Context): Promise<{ ok: true; value: unknown } | { ok: false }> {
  try {
    return { ok: true, value: await c.req.json() };
  } catch {
    return { ok: false };
  }
}

/**
 * The HTTP face of the reward service (the shared serve-reward contract): `POST /v1/rewards`, `GET
 * /v1/jobs/:id`, `GET /health`, `GET /metrics`, and OpenRLHF's remote reward-model endpoint.
 */
export function buildHttpApp(service: RewardService, o: HttpAppOptions): Hono {
  const app = new Hono();
  const limit = bodyLimit({ maxSize: o.maxBodyBytes, onError: (c) => error(c, 413, 'too_large', `The request body is larger than ${o.maxBodyBytes} bytes (--max-body-bytes).`) });
  const waitOf = (ms: number | undefined) => Math.min(ms ?? 0, o.waitMaxMs);

  /** Every item submitted, then waited for together; the first refusal answers the whole request. */
  async function answer(items: { metadata: Record<string, unknown>; response: string }[], waitMs: number): Promise<{ results: RewardResult[] } | Refusal> {
    const submitted = [];
    for (const item of items) {
      const s = await service.submit(item.metadata as unknown as RlRowMetadata, item.response);
      if (s.kind === 'refused') return s;
      submitted.push(s);
    }
    const deadline = Date.now() + waitMs;
    const results: RewardResult[] = [];
    for (const s of submitted) results.push((await service.wait(s.evalKey, Math.max(0, deadline - Date.now()), s.cached))!);
    return { results };
  }

  const refuse = (c: Context, r: Refusal) => {
    if (r.retryAfterSeconds !== undefined) c.header('Retry-After', String(r.retryAfterSeconds));
    return error(c, r.httpStatus, r.code, r.message, r.fields ? { fields: r.fields } : {});
  };

  app.post('/v1/rewards', limit, async (c) => {
    if (service.stopping) return error(c, 503, 'stopping', 'The service is shutting down.');
    const json = await readJson(c);
    if (!json.ok) return error(c, 400, 'bad_request', 'The body is not JSON.');
    const parsed = Body.safeParse(json.value);
    if (!parsed.success) return error(c, 400, 'bad_request', `The body is not {items: [{metadata, response}], wait_ms?} or {metadata, response, wait_ms?}: ${parsed.error.issues[0]?.path.join('.')} ${parsed.error.issues[0]?.message}`);
    const body = parsed.data;
    const single = !('items' in body);
    const out = await answer(single ? [body] : body.items, waitOf(body.wait_ms));
    if ('kind' in out) return refuse(c, out);
    return c.json(single ? out.results[0] : out);
  });

  app.get('/v1/jobs/:id', async (c) => {
    const ms = Number(c.req.query('wait_ms') ?? 0);
    const result = await service.wait(c.req.param('id'), Number.isFinite(ms) ? waitOf(Math.max(0, ms)) : 0, true);
    return result ? c.json(result) : error(c, 404, 'not_found', `No job ${c.req.param('id')}.`);
  });

  app.get('/health', (c) => c.json(service.health()));
  app.get('/metrics', (c) => c.text(service.renderMetrics(), 200, { 'Content-Type': 'text/plain; version=0.0.4; charset=utf-8' }));

  // OpenRLHF's remote reward model: labels carry the row metadata (JSON), each query is prompt + response; answers when all are done.
  app.post('/openrlhf/reward', limit, async (c) => {
    const json = await readJson(c);
    const parsed = OpenRlhfBody.safeParse(json.ok ? json.value : undefined);
    if (!parsed.success) return error(c, 400, 'bad_request', 'The body is not {query: [str], prompts: [str], labels: [str]}.');
    const { query, prompts = [], labels } = parsed.data;
    if (labels.length !== query.length) return error(c, 400, 'bad_request', `${query.length} queries but ${labels.length} labels.`);
    const items = [];
    for (const [i, q] of query.entries()) {
      let metadata: unknown;
      try {
        metadata = JSON.parse(labels[i]!);
      } catch {
        return error(c, 400, 'bad_request', `labels[${i}] is not the row metadata as JSON.`);
      }
      if (typeof metadata !== 'object' || metadata === null) return error(c, 400, 'bad_request', `labels[${i}] is not a metadata object.`);
      const prompt = prompts[i];
      items.push({ metadata: metadata as Record<string, unknown>, response: prompt !== undefined && q.startsWith(prompt) ? q.slice(prompt.length) : q });
    }
    const out = await answer(items, 2_147_483_647);
    if ('kind' in out) return refuse(c, out);
    const rewards = out.results.map((r) => r.reward ?? 0);
    return c.json({ rewards, scores: rewards, extra_logs: { status: out.results.map((r) => r.status ?? r.state), scored: out.results.map((r) => (r.scored ? 1 : 0)) } });
  });

  app.notFound((c) => error(c, 404, 'not_found', `No route ${c.req.method} ${c.req.path}.`));
  return app;
}
