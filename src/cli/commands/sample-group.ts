import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

import type { Command } from 'commander';
import { z } from 'zod';

import { resolveDataDir } from '../../config/data-dir.js';
import { ConfigError } from '../../episode/index.js';
import { intOption, parseWith } from '../../app/options.js';
import { resolveEngineer, type ResolvedEngineer } from '../../app/resolve-engineer.js';
import { rowRewardPaths } from '../../app/row-reward-path.js';
import { createSandboxPool } from '../../sandbox/index.js';
import { releaseShapeProblems, type RlRow } from '../../training/rows/rl-row.js';
import { writeFileAtomic } from '../../training/rows/write-atomic.js';
import { sampleGroup, type SampleGroup } from '../../training/groups/sample-group.js';
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
  const dataDir = resolveDataDir(o.dataDir);
  const outDir = path.resolve(o.out ?? path.join(root, 'groups', m.batch_tag));
  const pool = createSandboxPool({ size: Math.min(2, o.concurrency) });
  // The same row setup as serve-reward: the baseline the row froze, the prompt rebuilt from it (its digest
  // must be the row's), the row's target and serving identity, and improve's reward path.
  const paths = rowRewardPaths({
    registry: ctx.registry, dataDir, ...(o.target === undefined ? {} : { target: o.target }), rootDir: outDir, pool,
    episodeConcurrency: o.concurrency, maxInfraRetries: 2,
  });
  const engineers: ResolvedEngineer[] = [];
  try {
    const prepared = await paths.prepare({ key: m.batch_tag, row, root });
    const sampling = { temperature: o.temperature, topP: o.topP, seed: o.seed };
    for (let k = 0; k < o.k; k += 1) engineers.push(await resolveEngineer(o.engineer, { dataDir, sampling: { ...sampling, seed: o.seed * 1000 + k } }));
    const group = await sampleGroup({
      row, input: prepared.input, episodes: prepared.batch.episodes,
      engineers: engineers.map((e) => e.engineer), sampling, ctx: prepared.ctx,
      onSample: (s) => {
        if (!o.json) process.stderr.write(`sample ${s.sample}: ${s.status} reward ${s.reward.toFixed(3)}${s.rerun?.cacheHit ? ' (same patch as an earlier sample: its rerun reused)' : ''}\n`);
      },
    });
    const file = path.join(outDir, 'group.json');
    writeFileAtomic(file, `${JSON.stringify(group, null, 2)}\n`);
    out.write(o.json ? `${JSON.stringify(group, null, 2)}\n` : renderGroup(group, file));
    return { code: EXIT_OK, group, file };
  } finally {
    await paths.close();
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
