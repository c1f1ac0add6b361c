import type { AddressInfo } from 'node:net';
import path from 'node:path';

import { serve } from '@hono/node-server';
import type { Command } from 'commander';
import { z } from 'zod';

import { resolveDataDir } from '../../config/data-dir.js';
import { ConfigError } from '../../episode/index.js';
import { intOption, parseWith } from '../../app/options.js';
import { rowRewardPaths } from '../../app/row-reward-path.js';
import { parseModelSpec } from '../../models/model-spec.js';
import { createSandboxPool } from '../../sandbox/index.js';
import { buildHttpApp } from '../../serving/http-app.js';
import { RewardService } from '../../serving/reward-service.js';
import { RowCatalog } from '../../serving/row-catalog.js';
import { EXIT_INTERRUPTED, onInterrupt } from '../interrupt.js';
import type { CliContext } from '../cli-context.js';

export const ServeRewardOptionsSchema = z.object({
  rows: z.string(),
  store: z.string(),
  port: intOption('port', 0, 65535).default(8765),
  host: z.string().default('127.0.0.1'),
  target: z.string().optional(),
  concurrency: intOption('concurrency', 1, 1024).default(4),
  episodeConcurrency: intOption('episodeConcurrency', 1, 256).default(4),
  queueDepth: intOption('queueDepth', 0, 1_000_000).default(1024),
  waitMaxMs: intOption('waitMaxMs', 0, 86_400_000).default(600_000),
  maxBodyBytes: intOption('maxBodyBytes', 1024, 1 << 30).default(16 * 1024 * 1024),
  maxInfraRetries: intOption('maxInfraRetries', 0, 10).default(2),
  sandboxWorkers: intOption('sandboxWorkers', 1, 64).default(2),
  hookTimeoutMs: intOption('hookTimeoutMs', 1, 60_000).optional(),
  dataDir: z.string().optional(),
});

const isSimulated = (spec: string) => {
  try {
    return parseModelSpec(spec, { field: 'target' }).kind === 'sim';
  } catch {
    return false;
  }
};

/** A running reward server: its URL, the service behind it, and how to stop it (in-flight evaluations stay queued). */
export interface RewardServer {
  url: string;
  service: RewardService;
  banner: string;
  close(): Promise<void>;
}

/** Opens the reward service on a port: rows loaded, store opened (unfinished jobs queued again), HTTP listening. */
export async function openRewardServer(ctx: CliContext, received: Record<string, unknown>): Promise<RewardServer> {
  const o = parseWith(ServeRewardOptionsSchema, Object.fromEntries(Object.entries(received).filter(([, v]) => v !== undefined)));
  const dirs = o.rows.split(',').map((d) => d.trim()).filter((d) => d !== '');
  if (dirs.length === 0) throw new ConfigError({ message: '--rows needs at least one export rl folder.', field: 'rows' });
  const catalog = RowCatalog.load(dirs);
  for (const e of catalog.all()) if (!ctx.registry.find(e.row.metadata.benchmark)) throw new ConfigError({ message: `Row ${e.key}: unknown benchmark ${e.row.metadata.benchmark}.`, field: 'rows', allowed: ctx.registry.names() });
  const storeDir = path.resolve(o.store);
  const dataDir = resolveDataDir(o.dataDir);
  const pool = createSandboxPool({ size: o.sandboxWorkers, ...(o.hookTimeoutMs === undefined ? {} : { hookTimeoutMs: o.hookTimeoutMs }) });
  const paths = rowRewardPaths({
    registry: ctx.registry, dataDir, ...(o.target === undefined ? {} : { target: o.target }), rootDir: storeDir, pool, episodeConcurrency: o.episodeConcurrency, maxInfraRetries: o.maxInfraRetries,
    ...(o.hookTimeoutMs === undefined ? {} : { extraRerunContext: { hookTimeoutMs: o.hookTimeoutMs } }),
  });
  const log = (line: string) => process.stderr.write(`${line}\n`);
  const service = new RewardService({ catalog, prepare: paths.prepare, storeDir, ...(o.target === undefined ? {} : { target: o.target }), concurrency: o.concurrency, queueDepth: o.queueDepth, log });
  const app = buildHttpApp(service, { waitMaxMs: o.waitMaxMs, maxBodyBytes: o.maxBodyBytes });

  const server = await new Promise<ReturnType<typeof serve>>((resolve, reject) => {
    const s = serve({ fetch: app.fetch, port: o.port, hostname: o.host }, () => resolve(s));
    s.once('error', reject);
  });
  // Requests may wait for reruns (OpenRLHF's endpoint blocks until done): no server-side timeout cuts them.
  if ('requestTimeout' in server) server.requestTimeout = 0;
  const address = server.address() as AddressInfo;
  const url = `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}`;
  const targets = [...new Set(catalog.all().map((e) => service.targetOf(e)))];
  const benches = [...new Set(catalog.all().map((e) => e.row.metadata.benchmark))].sort();
  const banner =
    `serve-reward listening on ${url}\n` +
    `  ${catalog.size} RL row(s) (${benches.join(', ')}) from ${dirs.join(', ')}\n` +
    `  target(s): ${targets.map((t) => `${t}${isSimulated(t) ? ' (SIMULATED: rewards describe the simulation, not a model)' : ''}`).join(', ')}\n` +
    `  store ${storeDir}; ${o.concurrency} evaluation(s) at once per target, queue depth ${o.queueDepth}\n` +
    `  POST ${url}/v1/rewards · GET ${url}/v1/jobs/<id> · POST ${url}/openrlhf/reward · GET ${url}/health · GET ${url}/metrics\n`;
  return {
    url, service, banner,
    async close() {
      // Stop accepting, let evaluations in flight store their finished episodes (they stay queued for the next start), close everything.
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      if ('closeIdleConnections' in server) server.closeIdleConnections();
      await service.shutdown();
      if ('closeAllConnections' in server) server.closeAllConnections();
      await closed;
      await paths.close();
      await pool.close();
    },
  };
}

/** `harness-r1 serve-reward`: the reward path of improve as an HTTP JSON service for RL trainers. Resolves with the exit code once stopped by a signal. */
export async function serveRewardCommand(ctx: CliContext, received: Record<string, unknown>, out: Pick<NodeJS.WriteStream, 'write'> = process.stdout): Promise<{ code: number }> {
  const server = await openRewardServer(ctx, received);
  out.write(server.banner);
  const controller = new AbortController();
  const detach = onInterrupt(controller);
  await new Promise<void>((resolve) => controller.signal.addEventListener('abort', () => resolve(), { once: true }));
  await server.close();
  detach();
  process.stderr.write('serve-reward stopped; unfinished jobs stay queued in the store and run at the next start.\n');
  return { code: EXIT_INTERRUPTED };
}

export function registerServeRewardCommand(program: Command, ctx: CliContext): void {
  program
    .command('serve-reward')
    .description("Serve the reward of improve over HTTP for RL trainers: RL row metadata + engineer response → validated, rerun against the row's frozen baseline, cached and persisted.")
    .option('--rows <dir,...>', 'export rl output folder(s) whose rows are served (required)')
    .option('--store <dir>', 'where the job table (SQLite) and the reruns are kept; a restart on it loses nothing (required)')
    .option('--port <n>', 'port (default 8765; 0 picks a free one)')
    .option('--host <addr>', 'address to listen on (default 127.0.0.1)')
    .option('--target <spec>', "the frozen target for every row (default: each row's own); a row exported with another target is refused")
    .option('--concurrency <n>', 'evaluations (reruns) at once per target (default 4)')
    .option('--episode-concurrency <n>', 'episodes at once within one rerun (default 4)')
    .option('--queue-depth <n>', 'jobs waiting beyond which new ones get 429 + Retry-After (default 1024)')
    .option('--wait-max-ms <n>', 'longest a request may wait for its results with wait_ms (default 600000)')
    .option('--max-body-bytes <n>', 'largest request body (413 beyond; default 16 MiB)')
    .option('--max-infra-retries <n>', 'reruns of episodes that ended in an infrastructure failure (default 2), then missing_evaluation')
    .option('--sandbox-workers <n>', 'Python sandbox workers for the hooks (default 2)')
    .option('--hook-timeout-ms <ms>', 'wall-clock limit of one hook call in the reruns (default 50, as the original and improve)')
    .option('--data-dir <dir>', 'benchmark data folder (default ../shared/data or HARNESS_DATA_DIR)')
    .addHelpText(
      'after',
      `
Examples:
  harness-r1 export rl --bench dbbench --target sim:dbbench --out rl/
  harness-r1 serve-reward --rows rl/ --store rewards/ --port 8765 --concurrency 16
  curl -s localhost:8765/v1/rewards -d '{"metadata": <a row's metadata>, "response": "…</think>\\n<patch>{…}</patch>", "wait_ms": 60000}'

Stops on SIGINT/SIGTERM (exit 130): evaluations in flight finish their episodes and stay queued for the next start.
`,
    )
    .action(async (opts: Record<string, unknown>) => {
      process.exitCode = (await serveRewardCommand(ctx, opts)).code;
    });
}
