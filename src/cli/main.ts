import { Command, CommanderError } from 'commander';

import { ConfigError, isHarnessError } from '../episode/index.js';
import { registerDemoCommand } from './commands/demo.js';
import { registerEnvCheckCommand } from './commands/env-check.js';
import { registerExperimentCommand } from './commands/experiment.js';
import { registerExportCommand } from './commands/export.js';
import { registerImproveCommand } from './commands/improve.js';
import { registerPacketCommand } from './commands/packet.js';
import { registerProbeCommand } from './commands/probe.js';
import { registerReportCommand } from './commands/report.js';
import { registerRunCommand } from './commands/run.js';
import { registerSampleGroupCommand } from './commands/sample-group.js';
import { registerServeRewardCommand } from './commands/serve-reward.js';
import { registerSplitsCommand } from './commands/splits.js';
import { registerValidateCommand } from './commands/validate.js';
import { openSandboxCompiler } from '../app/sandbox-compiler.js';
import { readConfigFile } from '../app/options.js';
import { BenchmarkRegistry, loadBenchmarkModule, looksLikePath } from '../benchmarks/registry.js';
import type { CliContext } from './cli-context.js';
import { fsProblem, isFsError } from '../store/fs-problem.js';
import { EXIT_INTERRUPTED } from './interrupt.js';
import { EXIT_FAILED, EXIT_USAGE } from './exit-codes.js';
import { packageVersion } from './package-version.js';

/** Builds the `harness-r1` program. Each command is a thin wrapper over a library function. */
export function buildProgram(ctx: CliContext = { registry: new BenchmarkRegistry() }): Command {
  const program = new Command('harness-r1')
    .description('Make LLM agents fail less without touching their weights: run a frozen agent, patch its harness with hooks, rerun, measure.')
    .version(packageVersion(), '-V, --version', 'print the version and exit')
    .showHelpAfterError('(run with --help for usage)')
    .exitOverride();
  registerDemoCommand(program, ctx);
  registerRunCommand(program, ctx);
  registerImproveCommand(program, ctx);
  registerExperimentCommand(program, ctx);
  registerReportCommand(program);
  registerPacketCommand(program, ctx);
  registerProbeCommand(program);
  registerEnvCheckCommand(program, ctx);
  registerSplitsCommand(program, ctx.registry);
  registerValidateCommand(program, {
    openCompiler: openSandboxCompiler,
    benchmarks: ctx.registry.patchRules(),
    benchmarkNames: ctx.registry.names(),
    resolveBench: async (value) => (looksLikePath(value) ? (await ctx.registry.resolve(value)).name : value),
  });
  registerExportCommand(program, ctx);
  registerSampleGroupCommand(program, ctx);
  registerServeRewardCommand(program, ctx);
  return program;
}

/** The value after `--flag` (or in `--flag=value`) anywhere in argv. */
function flagValue(argv: readonly string[], flag: string): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === flag) return argv[i + 1];
    if (arg.startsWith(`${flag}=`)) return arg.slice(flag.length + 1);
  }
  return undefined;
}

/**
 * Before the flags are parsed: the config file (if any) and every benchmark the command line or config file
 * loads from a module, so their own flags exist when the command is built.
 */
export async function prepareContext(argv: readonly string[]): Promise<CliContext> {
  const registry = new BenchmarkRegistry();
  const configFile = flagValue(argv, '--config');
  const config = configFile === undefined ? undefined : readConfigFile(configFile);
  for (const [name, file] of Object.entries(config?.benchmarks ?? {})) {
    const definition = await loadBenchmarkModule(file, 'benchmarks');
    if (definition.name !== name) throw new ConfigError({ message: `${config!.file}: benchmarks.${name} loads '${definition.name}'; the names must agree.`, field: `benchmarks.${name}` });
    registry.add(definition);
  }
  const bench = flagValue(argv, '--bench') ?? (typeof config?.settings.bench === 'string' ? config.settings.bench : undefined);
  // `env check <bench>` names the benchmark as an argument.
  const envBench = argv[0] === 'env' && argv[1] === 'check' ? argv[2] : undefined;
  for (const value of [bench, envBench]) if (value !== undefined && looksLikePath(value)) await registry.resolve(value);
  return { registry, ...(config ? { config } : {}) };
}

/** Runs the CLI: usage and config errors exit 2 with a message naming what is wrong; other failures exit 1. */
export async function main(argv: string[]): Promise<number> {
  try {
    const program = buildProgram(await prepareContext(argv));
    await program.parseAsync(argv, { from: 'user' });
    return typeof process.exitCode === 'number' ? process.exitCode : 0;
  } catch (error) {
    if (error instanceof CommanderError) {
      if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version' || error.code === 'commander.help') return 0;
      return EXIT_USAGE;
    }
    if (isHarnessError(error) && error.code === 'config_error') {
      process.stderr.write(`error: ${error.message}\n`);
      return EXIT_USAGE;
    }
    if (isHarnessError(error) && error.code === 'interrupted') {
      process.stderr.write(`${error.message}\n`);
      return EXIT_INTERRUPTED;
    }
    if (isHarnessError(error) && error.code === 'preflight_failed') {
      process.stderr.write(`error: ${error.message}\n`);
      return EXIT_FAILED;
    }
    // A file-system error that no command turned into a ConfigError still names the path and the problem.
    if (isFsError(error)) {
      process.stderr.write(`error: ${fsProblem(error).message}\n`);
      return EXIT_USAGE;
    }
    process.stderr.write(`error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    return EXIT_FAILED;
  }
}

const isEntry = process.argv[1] !== undefined && /(?:main\.ts|harness-r1(?:\.js)?)$/.test(process.argv[1]);
if (isEntry) {
  const code = await main(process.argv.slice(2));
  process.exit(code);
}
