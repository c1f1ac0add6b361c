import { Command, CommanderError, Help } from 'commander';

import { isHarnessError } from '../episode/errors.js';
import type { CliContext } from './cli-context.js';
import { COMMAND_CATALOG, reachableCommands } from './command-catalog.js';
import { fsProblem, isFsError } from '../store/fs-problem.js';
import { EXIT_INTERRUPTED } from './interrupt.js';
import { EXIT_FAILED, EXIT_USAGE } from './exit-codes.js';
import { packageVersion } from './package-version.js';

/**
 * Builds the `harness-r1` program. Each command is a thin wrapper over a library function. The commands
 * in `load` (by default all) are loaded and registered in full; the others only by name and description,
 * as the top-level help lists them, so a command line pays only for the command it runs.
 */
export async function buildProgram(ctx?: CliContext, load: ReadonlySet<string> = new Set(COMMAND_CATALOG.map((entry) => entry.name))): Promise<Command> {
  const program = new Command('harness-r1')
    .description('Make LLM agents fail less without touching their weights: run a frozen agent, patch its harness with hooks, rerun, measure.')
    .version(packageVersion(), '-V, --version', 'print the version and exit')
    .showHelpAfterError('(run with --help for usage)')
    .exitOverride();
  const context = load.size > 0 ? (ctx ?? (await prepareContext([]))) : undefined;
  const registers = await Promise.all(COMMAND_CATALOG.map((entry) => (load.has(entry.name) ? entry.load() : undefined)));
  const listedOnly = new Map<Command, string>();
  COMMAND_CATALOG.forEach((entry, i) => {
    const register = registers[i];
    if (register) register(program, context!);
    else listedOnly.set(program.command(entry.name).description(entry.description), entry.term);
  });
  // Set after the commands are added, so none of them inherits it.
  program.configureHelp({
    subcommandTerm(this: Help, command: Command): string {
      return listedOnly.get(command) ?? Help.prototype.subcommandTerm.call(this, command);
    },
  });
  program.hook('preSubcommand', (_program, command) => {
    if (listedOnly.has(command)) throw new Error(`command '${command.name()}' was reached without being loaded (reachableCommands missed it)`);
  });
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
  const [{ BenchmarkRegistry, loadBenchmarkModule, looksLikePath }, { readConfigFile }, { ConfigError }] = await Promise.all([
    import('../benchmarks/registry.js'), import('../app/options.js'), import('../episode/index.js'),
  ]);
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
    const load = reachableCommands(argv);
    // The context is built (and a bad config file or benchmark module reported) for any command line that
    // names a command or gives --config or --bench; `--version` and the top-level help skip it.
    const needsContext = load.size > 0 || argv.some((arg) => /^--(?:config|bench)(?:=|$)/.test(arg));
    const program = await buildProgram(needsContext ? await prepareContext(argv) : undefined, load);
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
