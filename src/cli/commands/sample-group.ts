import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

import type { Command } from 'commander';
import { z } from 'zod';

import { resolveDataDir } from '../../config/data-dir.js';
import { ConfigError } from '../../episode/index.js';
import { buildEngineerPrompt, isEngineerPromptProtocol } from '../../engineer/engineer-prompt.js';
import { PROMPT_VERSION } from '../../engineer/prompt-templates.js';
import { benchmarkOptions, openBenchmark } from '../../app/open-environment.js';
import { intOption, parseWith } from '../../app/options.js';
import { resolveEngineer } from '../../app/resolve-engineer.js';
import { resolveTarget } from '../../app/resolve-target.js';
import { sandboxCompiler } from '../../app/sandbox-compiler.js';
import { createSandboxPool } from '../../sandbox/index.js';
import { RunStore } from '../../store/run-store.js';
import { engineerInputOf } from '../../training/rows/export-rl.js';
import { checkRowContext } from '../../training/rows/row-context.js';
import { promptSha256, releaseShapeProblems, type RlRow } from '../../training/rows/rl-row.js';
import { writeFileAtomic } from '../../training/rows/write-atomic.js';
import { sampleGroup, type SampleGroup } from '../../training/groups/sample-group.js';
import type { RewardMetric } from '../../evaluation/improve/batch-reward.js';
import { EXIT_OK } from '../exit-codes.js';
import { receivedOptions, type CliContext } from '../cli-context.js';

export const probability = (key: string, min: number) =>
  z.union([z.number(), z.string()]).transform((v, ctx) => {
    const n = Number(v);
    if (!Number.isFinite(n) || n < min || n > (key === 'topP' ? 1 : 2)) {
      ctx.addIssue({ code: 'custom', message: `--${key === 'topP' ? 'top-p' : key} must be a number in [${min}, ${key === 'topP' ? 1 : 2}], got '${String(v)}'.` });
      return z.NEVER;
    }
    return n;
  });

export const SampleGroupOptionsSchema = z.object({
  row: z.string(),
  engineer: z.string().default('symbolic'),
  k: intOption('k', 1, 256).default(8),
  temperature: probability('temperature', 0).default(0.7),
  topP: probability('topP', 0.01).default(0.95),
  seed: intOption('seed', 0, 2 ** 31 - 1).default(0),
  target: z.string().optional(),
  out: z.string().optional(),
  dataDir: z.string().optional(),
  concurrency: intOption('concurrency', 1, 256).default(4),
  json: z.boolean().optional(),
});

/** `FILE:LINE` (1-based) → the row on that line of a rows file, and the export folder it belongs to. */
export function readRowAt(spec: string): { row: RlRow; root: string; file: string; line: number } {
  const match = /^(.*):(\d+)$/.exec(spec);
  if (!match) throw new ConfigError({ message: `--row must be FILE:LINE (1-based), got '${spec}'.`, field: 'row' });
  const file = path.resolve(match[1]!);
  const line = Number(match[2]);
  if (!existsSync(file)) throw new ConfigError({ message: `--row: no such rows file ${file}.`, field: 'row' });
  const lines = readFileSync(file, 'utf8').split('\n').filter((l) => l.trim() !== '');
  if (line < 1 || line > lines.length) throw new ConfigError({ message: `--row: ${file} has ${lines.length} row(s); line ${line} is not one of them.`, field: 'row' });
  let row: RlRow;
  try {
    row = JSON.parse(lines[line - 1]!) as RlRow;
  } catch (cause) {
    throw new ConfigError({ message: `--row: line ${line} of ${file} is not JSON.`, field: 'row', cause });
  }
  const problems = releaseShapeProblems(row);
  if (problems.length > 0 || typeof row.metadata.baseline_run !== 'string') throw new ConfigError({ message: `--row: line ${line} of ${file} is not an RL row written by export rl (${problems.join('; ') || 'no baseline_run'}).`, field: 'row' });
  return { row, root: path.dirname(path.dirname(file)), file, line };
}

/** `harness-r1 sample-group`: K engineer samples for one RL row through the reward path of improve, with GRPO's statistics. */
export async function sampleGroupCommand(ctx: CliContext, received: Record<string, unknown>, out: Pick<NodeJS.WriteStream, 'write'> = process.stdout): Promise<{ code: number; group: SampleGroup; file: string }> {
  const o = parseWith(SampleGroupOptionsSchema, receivedOptions(ctx, received, Object.keys(SampleGroupOptionsSchema.shape)));
  const { row, root } = readRowAt(o.row);
  const m = row.metadata;
  const definition = ctx.registry.get(m.benchmark);
  const dataDir = resolveDataDir(o.dataDir);
  const targetSpec = o.target ?? m.target_spec;
  if (!isEngineerPromptProtocol(m.response_protocol)) throw new ConfigError({ message: `The row's response protocol '${m.response_protocol}' is unknown.`, field: 'row' });

  // The baseline the row froze, and the prompt rebuilt from it: they must be the row's.
  const baselineDir = path.join(root, m.baseline_run);
  if (!RunStore.exists(baselineDir)) throw new ConfigError({ message: `The row's baseline run ${baselineDir} is missing (sample-group reads rows inside their export folder).`, field: 'row' });
  const store = RunStore.open(baselineDir);
  const records = store.records();
  store.close();
  const byIndex = new Map(records.map((r) => [r.task.index, r]));
  const input = engineerInputOf(definition, m.batch_tag, m.env_split, [...m.task_indices, ...m.excluded_tasks], byIndex, m.reward_threshold);
  const { prompt } = buildEngineerPrompt(input, { protocol: m.response_protocol });
  const rebuilt = promptSha256(prompt.messages, prompt.prefill);

  const options = benchmarkOptions(ctx.registry, definition, m.env_options);
  const choice = { definition, dataDir, split: m.env_split, protocol: m.env_protocol, options, ...(m.env_max_rounds === null ? {} : { maxRounds: m.env_max_rounds }) };
  const probe = await openBenchmark(choice);
  await probe.environment.close();
  checkRowContext(row, { targetSpec, serving: probe.identity, promptVersion: PROMPT_VERSION, responseProtocol: m.response_protocol, promptStaticPrefixSha256: prompt.staticPrefixSha256 });
  if (rebuilt !== m.prompt_sha256) {
    throw new ConfigError({ message: `Row ${m.batch_tag}: the prompt rebuilt from its baseline (sha256 ${rebuilt}) is not the row's (${m.prompt_sha256}); the baseline run or the packet code changed.`, field: 'row' });
  }

  const target = await resolveTarget(targetSpec, { dataDir, registry: ctx.registry, bench: definition.name });
  const pool = createSandboxPool({ size: Math.min(2, o.concurrency) });
  const sampling = { temperature: o.temperature, topP: o.topP, seed: o.seed };
  const engineers = await Promise.all(Array.from({ length: o.k }, (_, k) => resolveEngineer(o.engineer, { dataDir, sampling: { ...sampling, seed: o.seed * 1000 + k } })));
  const outDir = path.resolve(o.out ?? path.join(root, 'groups', m.batch_tag));
  const metric = m.reward_metric as RewardMetric;
  try {
    const group = await sampleGroup({
      row, input, episodes: [...byIndex.values()].filter((r) => m.task_indices.includes(r.task.index)),
      engineers: engineers.map((e) => e.engineer), sampling,
      ctx: {
        benchmark: definition, patchRules: ctx.registry.patchRules(), split: m.env_split, rootDir: outDir,
        openEnvironment: async (patch) => (await openBenchmark(choice, patch)).environment,
        target: target.model, compiler: sandboxCompiler(pool), pool, concurrency: o.concurrency, threshold: m.reward_threshold, metric, maxInfraRetries: 2,
        rerunContext: { target: targetSpec, bench: definition.name, split: m.env_split, ...probe.identity, threshold: m.reward_threshold, metric },
      },
      onSample: (s) => {
        if (!o.json) process.stderr.write(`sample ${s.sample}: ${s.status} reward ${s.reward.toFixed(3)}${s.rerun?.cacheHit ? ' (same patch as an earlier sample: its rerun reused)' : ''}\n`);
      },
    });
    const file = path.join(outDir, 'group.json');
    writeFileAtomic(file, `${JSON.stringify(group, null, 2)}\n`);
    out.write(o.json ? `${JSON.stringify(group, null, 2)}\n` : renderGroup(group, file));
    return { code: EXIT_OK, group, file };
  } finally {
    await target.close();
    await Promise.all(engineers.map((e) => e.close()));
    await pool.close();
  }
}

const f3 = (n: number) => n.toFixed(3);

export function renderGroup(g: SampleGroup, file: string): string {
  const who = [g.engineerSymbolic ? 'symbolic engineer' : 'LLM engineer', g.targetSimulated ? 'SIMULATED target' : 'target'].join(', ');
  return `${[
    `${g.benchmark} ${g.batchTag}: ${g.k} samples (temperature ${g.sampling.temperature}, top-p ${g.sampling.topP}, seed ${g.sampling.seed}; ${who})`,
    `  rewards    ${g.rewards.map(f3).join(' ')}`,
    `  advantages ${g.advantages.map(f3).join(' ')}`,
    `  mean ${f3(g.mean)}  std ${f3(g.std)}  zero-variance ${g.zeroVariance ? 'yes (GRPO learns nothing from this group)' : 'no'}`,
    `  valid rate ${f3(g.validRate)}  distinct patches ${g.distinctPatches}  statuses ${Object.entries(g.statuses).map(([s, n]) => `${s} ${n}`).join(', ')}`,
    `  wrote ${file}`,
  ].join('\n')}\n`;
}

export function registerSampleGroupCommand(program: Command, ctx: CliContext): void {
  program
    .command('sample-group')
    .description('K engineer samples for one RL row, each validated and rerun through the reward path of improve; the group\'s rewards, mean, std, advantages, zero-variance flag, statuses and valid rate.')
    .option('--row <file:line>', 'an RL row: a rows file written by export rl and its 1-based line (required)')
    .option('--engineer <spec>', 'symbolic (default; seeded stochastic sampling when temperature > 0), openai:<base-url>#<model>, scripted:<file>')
    .option('--k <n>', 'samples (default 8, as the reference GRPO run)')
    .option('--temperature <t>', 'sampling temperature (default 0.7); 0 keeps the symbolic engineer deterministic')
    .option('--top-p <p>', 'nucleus (default 0.95)')
    .option('--seed <n>', 'sample k uses seed*1000+k (default 0)')
    .option('--target <spec>', "the frozen target (default: the row's); another target is refused")
    .option('--out <dir>', 'where reruns and group.json go (default <export>/groups/<batch_tag>)')
    .option('--concurrency <n>', 'episodes played at once (default 4)')
    .option('--data-dir <dir>', 'benchmark data folder (default ../shared/data or HARNESS_DATA_DIR)')
    .option('--config <file>', 'a JSON file with the same settings (camelCase keys); flags win')
    .option('--json', 'machine-readable group')
    .action(async (opts: Record<string, unknown>) => {
      process.exitCode = (await sampleGroupCommand(ctx, opts)).code;
    });
}
