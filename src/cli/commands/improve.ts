import path from 'node:path';

import type { Command } from 'commander';

import { resolveDataDir } from '../../config/data-dir.js';
import { ConfigError } from '../../episode/index.js';
import { makeBatches, DEFAULT_BATCH_SIZE } from '../../evaluation/improve/batches.js';
import { REWARD_METRICS, type RewardMetric } from '../../evaluation/improve/batch-reward.js';
import { improveRun, type ImproveSummary } from '../../evaluation/improve/improve-run.js';
import { modelTurnHealthOf } from '../../report/render-model-turns.js';
import { writeReport } from '../../report/write-report.js';
import { createSandboxPool } from '../../sandbox/index.js';
import { EXIT_OK } from '../exit-codes.js';
import { parseTaskRange } from '../parse-task-range.js';
import { renderImproveSummary } from '../render-improve-summary.js';
import { BENCHES, checkBench, environmentChoice, openEnvironment } from '../resolve-environment.js';
import { resolveEngineer } from '../resolve-engineer.js';
import { resolveTarget } from '../resolve-target.js';
import { sandboxCompiler } from '../sandbox-compiler.js';
import { taskFileOf } from './run.js';

export interface ImproveCommandOptions {
  bench: string;
  /** Default dev; not with `data` / `games`. */
  split?: string;
  /** DBBench: a task file to play instead of a split; WebShop: a human-instructions (goals) file. */
  data?: string;
  /** ALFWorld: a games file to play instead of a split. */
  games?: string;
  tasks?: string;
  batchSize: number;
  batches?: number;
  target: string;
  engineer: string;
  concurrency: number;
  runDir?: string;
  /** Default per benchmark: delta_average_reward for webshop (its evaluator's default), delta_pass_rate otherwise. */
  metric?: string;
  maxRounds?: number;
  grading?: string;
  backend?: string;
  dsn?: string;
  dataDir?: string;
  json?: boolean;
  wording?: string;
  protocol?: string;
  goals?: string;
  goalSeed?: number;
  /** A second engineer pass per rerun batch that sees the first attempt's effect (LLM engineers). */
  revise?: boolean;
  banner?: string;
}

/** The full loop on batches of tasks; the library function behind `harness-r1 improve` (and the demo). */
export async function improveCommand(o: ImproveCommandOptions, out: NodeJS.WriteStream = process.stdout): Promise<{ code: number; summary: ImproveSummary; runDir: string; report: string }> {
  const bench = checkBench(o.bench);
  if (o.revise && o.engineer === 'symbolic') throw new ConfigError({ message: '--revise needs an LLM engineer; the symbolic engineer has no revision pass.', field: 'revise' });
  const metric = o.metric ?? (bench === 'webshop' ? 'delta_average_reward' : 'delta_pass_rate');
  if (!(REWARD_METRICS as readonly string[]).includes(metric)) throw new ConfigError({ message: `Unknown --metric '${metric}'.`, field: 'metric', allowed: REWARD_METRICS });
  if (!Number.isInteger(o.concurrency) || o.concurrency < 1 || o.concurrency > 256) {
    throw new ConfigError({ message: `--concurrency must be an integer from 1 to 256, got ${o.concurrency}.`, field: 'concurrency' });
  }
  const dataDir = resolveDataDir(o.dataDir);
  const choice = environmentChoice(bench, dataDir, o);
  const opened = await openEnvironment(choice);
  const { environment: baselineEnvironment, options: backendOptions } = opened;
  for (const notice of opened.notices) process.stderr.write(`${notice}\n`);
  const taskIndices = parseTaskRange(o.tasks ?? `0:${Math.min(DEFAULT_BATCH_SIZE, baselineEnvironment.size)}`, baselineEnvironment.size);
  const batches = makeBatches(taskIndices, o.batchSize, o.batches);
  const target = await resolveTarget(o.target, { dataDir, ...taskFileOf(o) });
  const engineer = await resolveEngineer(o.engineer, { dataDir });
  const pool = createSandboxPool({ size: Math.min(2, o.concurrency) });
  const split = baselineEnvironment.split;
  const runDir = path.resolve(o.runDir ?? path.join('runs', `improve-${o.bench}-${choice.split.replace(/[^\w.-]+/g, '-')}-${new Date().toISOString().replace(/[-:]/g, '').replace(/\..*/, '').replace('T', '-')}`));
  try {
    if (!o.json && o.banner) out.write(`${o.banner}\n`);
    const log = (line: string) => {
      if (!o.json) process.stderr.write(`${line}\n`);
    };
    const { summary } = await improveRun({
      batches,
      baselineEnvironment,
      baselineManifest: {
        bench: o.bench, split, target: { spec: o.target, label: target.model.label, simulated: target.model.simulated }, options: backendOptions,
        ...(opened.data ? { data: opened.data } : {}),
      },
      context: {
        bench,
        split: baselineEnvironment.split,
        rootDir: runDir,
        // Each rerun gets its own environment (and database backend), so batches never share state.
        openEnvironment: async (overlay) => (await openEnvironment({ ...choice, ...(overlay && bench === 'dbbench' ? { overlay } : {}) })).environment,
        target: target.model,
        engineer: engineer.engineer,
        compiler: sandboxCompiler(pool),
        pool,
        concurrency: o.concurrency,
        threshold: 1,
        metric: metric as RewardMetric,
        maxInfraRetries: 2,
        ...(o.revise ? { revise: true } : {}),
        // The split as asked (webshop: 'dev', whatever its goal set is called), as rerun cache keys always had it.
        rerunContext: { target: o.target, bench: o.bench, split: choice.split, ...backendOptions, threshold: 1, metric },
        onProgress: (e) => {
          if (e.kind === 'stage') log(`${e.batchTag}: ${e.stage}${e.detail ? ` → ${e.detail}` : ''}`);
          else if (e.done === e.total) log(`${e.batchTag}: ${e.total} episode(s) recorded`);
        },
      },
    });
    const written = await writeReport({ runDir });
    const report = written.file;
    const modelTurns = modelTurnHealthOf(written.artifacts);
    const unshipped = opened.data?.unshipped;
    if (o.json) out.write(`${JSON.stringify({ runDir, report, ...(opened.data ? { data: opened.data } : {}), summary, modelTurns }, null, 2)}
`);
    else {
      out.write(`${renderImproveSummary(summary, modelTurns)}
`);
      if (unshipped) out.write(`not played: ${unshipped.count} of the ${unshipped.listed} games of ${split} are not shipped with the data (listed in baseline/run.json)
`);
      out.write(`report: ${report}
run directory: ${runDir}
`);
    }
    return { code: EXIT_OK, summary, runDir, report };
  } finally {
    await baselineEnvironment.close();
    await target.close();
    await engineer.close();
    await pool.close();
  }
}

export function registerImproveCommand(program: Command): void {
  program
    .command('improve')
    .description('The Harness-R1 loop: baseline → failure evidence → engineer patch → validate → rerun the same tasks → reward, per batch.')
    .requiredOption('--bench <bench>', `benchmark (${BENCHES.join(', ')}; the symbolic engineer and failure packets cover dbbench first)`)
    .option('--split <split>', 'dbbench: dev, standard or standard.v0.2; alfworld: dev, standard, new_std, train_valid (default: dev)')
    .option('--data <file>', 'dbbench: a task file in the shipped format to play instead of a split; webshop: a goals file (items_human_ins.json format)')
    .option('--games <file>', 'alfworld: a games file in the shipped format (.jsonl or .jsonl.gz) to play instead of a split')
    .option('--tasks <range>', 'task indices (default 0:10): START:END, 7, or 1,3,9')
    .option('--batch-size <n>', `tasks per batch (reference ${DEFAULT_BATCH_SIZE})`, (v) => Number(v), DEFAULT_BATCH_SIZE)
    .option('--batches <n>', 'only the first N batches', (v) => Number(v))
    .requiredOption('--target <spec>', 'frozen target: openai:<base-url>#<model>, sim:dbbench[?seed=N], scripted:<file>')
    .option('--engineer <spec>', 'engineer: symbolic (built-in, offline), openai:<base-url>#<model>, scripted:<file>', 'symbolic')
    .option('--concurrency <n>', 'episodes played at once', (v) => Number(v), 4)
    .option('--run-dir <dir>', 'where everything is recorded; an existing one is resumed (default runs/improve-<bench>-<split>-<time>)')
    .option('--metric <metric>', `batch reward: ${REWARD_METRICS.join(' or ')} (default: delta_average_reward for webshop, delta_pass_rate otherwise)`)
    .option('--max-rounds <n>', 'rounds per episode (default: dbbench 20, alfworld 50 steps (v0.2: 35), webshop 20 (v0.2: 10))', (v) => Number(v))
    .option('--protocol <p>', 'alfworld, webshop: fc (AgentBench function calling, default) or v0.2 (the text protocol with one-shot examples)')
    .option('--grading <rule>', 'dbbench query grading: fc (default) or v0.2')
    .option('--wording <w>', 'alfworld: 2.1.1 (default) or 2.1.2')
    .option('--goals <mode>', 'webshop: human or synthetic goals')
    .option('--goal-seed <n>', 'webshop: goal seed (reference 233)', (v) => Number(v))
    .option('--backend <name>', 'sqlite (default) or mariadb')
    .option('--dsn <url>', 'MariaDB/MySQL server for --backend mariadb')
    .option('--data-dir <dir>', 'benchmark data folder (default ../shared/data or HARNESS_DATA_DIR)')
    .option('--revise', 'LLM engineers: a second pass per batch that sees the first patch, its result, its flips and traces of its rerun (adds <tag>-revision rows)')
    .option('--json', 'machine-readable summary')
    .addHelpText(
      'after',
      `
Every stage leaves a file under <run-dir> (baseline/, batches/<tag>/{metadata,engineer,prompt,verdict,patch,result}.json,
reruns/<key>/, summary.json); run the same command with the same --run-dir to resume after a crash.
A patch scores its delta only when it is valid, its rerun completed and at least one hook effect fired;
invalid, inert and no-patch batches score 0; reruns that infrastructure failures kept from completing are
reported as missing evaluations, never as results.
The caps on what a model server may send are openai: SPEC options (see harness-r1 run --help); the
summary warns when the target's turns point at a server setting (tool calls as text, empty turns).`,
    )
    .action(async (opts: Record<string, unknown>) => {
      const result = await improveCommand({
        bench: String(opts.bench),
        ...(opts.split !== undefined ? { split: String(opts.split) } : {}),
        ...(opts.data !== undefined ? { data: String(opts.data) } : {}),
        ...(opts.games !== undefined ? { games: String(opts.games) } : {}),
        batchSize: opts.batchSize as number,
        target: String(opts.target),
        engineer: String(opts.engineer),
        concurrency: opts.concurrency as number,
        ...(opts.metric !== undefined ? { metric: String(opts.metric) } : {}),
        ...(opts.tasks !== undefined ? { tasks: String(opts.tasks) } : {}),
        ...(opts.batches !== undefined ? { batches: opts.batches as number } : {}),
        ...(opts.runDir !== undefined ? { runDir: String(opts.runDir) } : {}),
        ...(opts.maxRounds !== undefined ? { maxRounds: opts.maxRounds as number } : {}),
        ...(opts.grading !== undefined ? { grading: String(opts.grading) } : {}),
        ...(opts.backend !== undefined ? { backend: String(opts.backend) } : {}),
        ...(opts.dsn !== undefined ? { dsn: String(opts.dsn) } : {}),
        ...(opts.dataDir !== undefined ? { dataDir: String(opts.dataDir) } : {}),
        ...(opts.json ? { json: true } : {}),
        ...(opts.revise ? { revise: true } : {}),
        ...(opts.wording !== undefined ? { wording: String(opts.wording) } : {}),
        ...(opts.protocol !== undefined ? { protocol: String(opts.protocol) } : {}),
        ...(opts.goals !== undefined ? { goals: String(opts.goals) } : {}),
        ...(opts.goalSeed !== undefined ? { goalSeed: opts.goalSeed as number } : {}),
      });
      process.exitCode = result.code;
    });
}
