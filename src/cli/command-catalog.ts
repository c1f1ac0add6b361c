/**
 * The commands of `harness-r1`, as the top-level help lists them, each with a loader for its module. Only
 * the command a command line names is loaded (with its dependencies: the sandbox, SQLite, model clients,
 * charts…), so `--version`, `--help` and every single command start without paying for all the others.
 * The names, terms and descriptions here must agree with what the modules register; a test holds them to it.
 */
import type { Command } from 'commander';

import type { CliContext } from './cli-context.js';

/** Adds one command (with its subcommands) to the program. */
export type RegisterCommand = (program: Command, ctx: CliContext) => void;

export interface CommandEntry {
  readonly name: string;
  /** How the top-level help lists it: the name, `[options]` when it has options, then its arguments. */
  readonly term: string;
  readonly description: string;
  readonly load: () => Promise<RegisterCommand>;
}

/** In the order the top-level help lists them. */
export const COMMAND_CATALOG: readonly CommandEntry[] = [
  {
    name: 'demo', term: 'demo [options]',
    description: 'Run the whole loop offline: simulated target + symbolic engineer on batches of real tasks (DBBench dev by default), then an HTML report.',
    load: async () => (await import('./commands/demo.js')).registerDemoCommand,
  },
  {
    name: 'run', term: 'run [options]',
    description: 'Play benchmark tasks with a target model and record every episode (no engineer, no reward).',
    load: async () => (await import('./commands/run-register.js')).registerRunCommand,
  },
  {
    name: 'improve', term: 'improve [options]',
    description: 'The Harness-R1 loop: baseline → failure evidence → engineer patch → validate → rerun the same tasks → reward, per batch.',
    load: async () => (await import('./commands/improve-register.js')).registerImproveCommand,
  },
  {
    name: 'experiment', term: 'experiment',
    description: "The paper's experiments: held-out generalization, lifecycle ablation, cross-target transfer, main table; paired statistics beside every delta.",
    load: async () => (await import('./commands/experiment.js')).registerExperimentCommand,
  },
  {
    name: 'report', term: 'report [options] <run>',
    description: 'Write a self-contained HTML report of a run: summary, per-batch and per-task before/after, flips, patches with their verdicts, hooks fired, charts.',
    load: async () => (await import('./commands/report.js')).registerReportCommand,
  },
  {
    name: 'packet', term: 'packet [options] <run>',
    description: "Print the failure packet (the engineer's evidence) built from a run's no-harness episodes.",
    load: async () => (await import('./commands/packet.js')).registerPacketCommand,
  },
  {
    name: 'probe', term: 'probe [options]',
    description: 'Check that a model server returns structured tool calls (tool calls written as text silently score 0).',
    load: async () => (await import('./commands/probe.js')).registerProbeCommand,
  },
  {
    name: 'env', term: 'env',
    description: 'Check benchmark environments against their reference data.',
    load: async () => (await import('./commands/env-check.js')).registerEnvCheckCommand,
  },
  {
    name: 'splits', term: 'splits [options]',
    description: "Build the paper's task splits (test, validation, sft_train, rl_train) for a benchmark and write their manifest.",
    load: async () => {
      const { registerSplitsCommand } = await import('./commands/splits.js');
      return (program, ctx) => registerSplitsCommand(program, ctx.registry, ctx.config);
    },
  },
  {
    name: 'validate', term: 'validate [options] <patch>',
    description: 'Validate a Harness-R1 patch (or an engineer response) exactly as the original validator does.',
    load: async () => {
      const [{ registerValidateCommand }, { openSandboxCompiler }, { looksLikePath }] = await Promise.all([
        import('./commands/validate.js'), import('../app/sandbox-compiler.js'), import('../benchmarks/registry.js'),
      ]);
      return (program, ctx) => registerValidateCommand(program, {
        openCompiler: openSandboxCompiler,
        benchmarks: ctx.registry.patchRules(),
        benchmarkNames: ctx.registry.names(),
        resolveBench: async (value) => (looksLikePath(value) ? (await ctx.registry.resolve(value)).name : value),
      });
    },
  },
  {
    name: 'export', term: 'export',
    description: 'Training data for the harness engineer: rl (RL rows with a frozen baseline), sft (teacher-filtered cold-start SFT rows), agent-sft (successful target episodes).',
    load: async () => (await import('./commands/export.js')).registerExportCommand,
  },
  {
    name: 'sample-group', term: 'sample-group [options]',
    description: "K engineer samples for one RL row, each validated and rerun through the reward path of improve; the group's rewards, mean, std, advantages, zero-variance flag, statuses and valid rate.",
    load: async () => (await import('./commands/sample-group.js')).registerSampleGroupCommand,
  },
  {
    name: 'serve-reward', term: 'serve-reward [options]',
    description: "Serve the reward of improve over HTTP for RL trainers: RL row metadata + engineer response → validated, rerun against the row's frozen baseline, cached and persisted.",
    load: async () => (await import('./commands/serve-reward.js')).registerServeRewardCommand,
  },
];

/**
 * The commands a command line can reach: its first operand (as commander finds it: the first argument that
 * is not an option; the program's own options take no values) and, after `help`, the next one. It may name
 * more than commander dispatches to (say after an unknown option), never fewer.
 */
export function reachableCommands(argv: readonly string[]): Set<string> {
  const operands: string[] = [];
  for (let i = 0; i < argv.length && operands.length < 2; i++) {
    const arg = argv[i]!;
    if (arg === '--') {
      operands.push(...argv.slice(i + 1, i + 3));
      break;
    }
    if (arg.length > 1 && arg.startsWith('-')) continue;
    operands.push(arg);
    if (arg !== 'help') break;
  }
  return new Set(operands.filter((name) => COMMAND_CATALOG.some((entry) => entry.name === name)));
}
