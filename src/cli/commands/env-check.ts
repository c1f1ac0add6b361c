import type { Command } from 'commander';

import { readIntegerOption } from '../../app/integer-option.js';
import { ConfigError } from '../../episode/index.js';
import { benchmarkOf, type CliContext } from '../cli-context.js';

export function registerEnvCheckCommand(program: Command, ctx: CliContext): void {
  const env = program.command('env').description('Check benchmark environments against their reference data.');
  const checks = ctx.registry.all().filter((d) => d.envCheck);
  const command = env
    .command('check')
    .description('Replay the reference solutions of a benchmark and report how many reproduce the reference.')
    .argument('<bench>', `benchmark: ${checks.map((d) => `${d.name} (${d.envCheck!.summary})`).join(', ')}`)
    .option('--data-dir <dir>', 'benchmark data folder (default ../shared/data or HARNESS_DATA_DIR)')
    .option('--json', 'machine-readable output');
  const seen = new Set(['--data-dir', '--json']);
  for (const d of checks) {
    for (const flag of d.envCheck!.flags) {
      const name = flag.flag.split(' ')[0]!;
      if (seen.has(name)) continue;
      seen.add(name);
      command.option(flag.flag, flag.description);
    }
  }
  command.action(async (bench: string, opts: Record<string, unknown>) => {
    const definition = await benchmarkOf(ctx, bench);
    const check = definition.envCheck;
    if (!check) {
      throw new ConfigError({ message: `env check does not know '${bench}'.`, field: 'bench', allowed: checks.map((d) => d.name) });
    }
    const { dataDir, json, ...rest } = opts;
    const options: Record<string, unknown> = {};
    for (const flag of check.flags) {
      const value = rest[flag.key];
      if (value === undefined) continue;
      options[flag.key] = flag.type === 'integer' ? readIntegerOption(flag.key, value, flag) : flag.type === 'number' && typeof value === 'string' ? Number(value) : value;
    }
    process.exitCode = await check.run(options, { ...(typeof dataDir === 'string' ? { dataDir } : {}), json: json === true, out: process.stdout });
  });
}
