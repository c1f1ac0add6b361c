import type { Command } from 'commander';

import type { CliContext } from '../cli-context.js';
import { registerExportAgentSftCommand } from './export-agent-sft.js';
import { registerExportRlCommand } from './export-rl.js';
import { registerExportSftCommand } from './export-sft.js';

/** `harness-r1 export …`: training data for the harness engineer. */
export function registerExportCommand(program: Command, ctx: CliContext): void {
  const parent = program.command('export').description('Training data for the harness engineer: rl (RL rows with a frozen baseline), sft (teacher-filtered cold-start SFT rows), agent-sft (successful target episodes).');
  registerExportRlCommand(parent, ctx);
  registerExportSftCommand(parent, ctx);
  registerExportAgentSftCommand(parent, ctx);
}
