import type { Command } from 'commander';

import type { CliContext } from '../cli-context.js';
import { registerAblationCommand } from './experiment-ablation.js';
import { registerHeldoutCommand } from './experiment-heldout.js';
import { registerMainTableCommand } from './experiment-main.js';
import { registerTransferCommand } from './experiment-transfer.js';

/** `harness-r1 experiment <name>`: the paper's protocols, one subcommand each. */
export function registerExperimentCommand(program: Command, ctx: CliContext): void {
  const experiment = program.command('experiment').description("The paper's experiments: held-out generalization, lifecycle ablation, cross-target transfer, main table; paired statistics beside every delta.");
  registerHeldoutCommand(experiment, ctx);
  registerAblationCommand(experiment, ctx);
  registerTransferCommand(experiment, ctx);
  registerMainTableCommand(experiment, ctx);
}
