import { Command, CommanderError } from 'commander';

import { isHarnessError } from '../episode/index.js';
import { registerDemoCommand } from './commands/demo.js';
import { registerEnvCheckCommand } from './commands/env-check.js';
import { registerImproveCommand } from './commands/improve.js';
import { registerPacketCommand } from './commands/packet.js';
import { registerProbeCommand } from './commands/probe.js';
import { registerReportCommand } from './commands/report.js';
import { registerRunCommand } from './commands/run.js';
import { registerSplitsCommand } from './commands/splits.js';
import { registerValidateCommand } from './commands/validate.js';
import { openSandboxCompiler } from './sandbox-compiler.js';
import { EXIT_FAILED, EXIT_USAGE } from './exit-codes.js';

/** Builds the `harness-r1` program. Each command is a thin wrapper over a library function. */
export function buildProgram(): Command {
  const program = new Command('harness-r1')
    .description('Make LLM agents fail less without touching their weights: run a frozen agent, patch its harness with hooks, rerun, measure.')
    .showHelpAfterError('(run with --help for usage)')
    .exitOverride();
  registerDemoCommand(program);
  registerRunCommand(program);
  registerImproveCommand(program);
  registerReportCommand(program);
  registerPacketCommand(program);
  registerProbeCommand(program);
  registerEnvCheckCommand(program);
  registerValidateCommand(program, { openCompiler: openSandboxCompiler });
  registerSplitsCommand(program);
  return program;
}

/** Runs the CLI: usage and config errors exit 2 with a message naming what is wrong; other failures exit 1. */
export async function main(argv: string[]): Promise<number> {
  const program = buildProgram();
  try {
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
    process.stderr.write(`error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    return EXIT_FAILED;
  }
}

const isEntry = process.argv[1] !== undefined && /(?:main\.ts|harness-r1(?:\.js)?)$/.test(process.argv[1]);
if (isEntry) {
  const code = await main(process.argv.slice(2));
  process.exit(code);
}
