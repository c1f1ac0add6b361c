import type { Command } from 'commander';

import { readIntegerOption } from '../../app/integer-option.js';
import type { AnyBenchmarkDefinition } from '../../benchmark/definition.js';
import { ConfigError } from '../../episode/index.js';
import { benchmarkOf, benchNames, protocolHelp, type CliContext } from '../cli-context.js';
import { simTargetHelp } from '../sim-target-help.js';

/** What the demo says before it runs: which parts are real and which are simulated. */
export function demoBanner(definition: AnyBenchmarkDefinition, taskFile?: string): string {
  const data = taskFile === undefined ? (definition.demo?.data ?? `the ${definition.title} tasks`) : `the ${definition.name} tasks of ${taskFile}`;
  return [
    `harness-r1 demo — the whole Harness-R1 loop, offline, on ${data}:`,
    'baseline → failure evidence → engineer patch → validation → sandboxed rerun of the same tasks → reward.',
    `SIMULATED parts: the target is a SIMULATED TARGET (sim:${definition.name}), a seeded policy that knows each task's`,
    'solution and makes realistic mistakes, served over a local OpenAI-compatible HTTP server; the engineer is',
    'the built-in SYMBOLIC ENGINEER (rule-based), not an LLM. The numbers describe the simulation, not a model.',
    'Real parts: the tasks, the environment and grader, the patch validator, the Python sandbox and the runtime.',
  ].join('\n');
}

/** The task-file flags of the registered benchmarks (`taskFileOption`), each once: what the demo plays instead of a split. */
function taskFileFlags(ctx: CliContext): { key: string; flag: string; description: string }[] {
  const flags = new Map<string, { key: string; flag: string; description: string }>();
  for (const d of ctx.registry.all()) {
    const flag = d.options.flags.find((f) => f.key === d.taskFileOption);
    if (flag !== undefined && !flags.has(flag.key)) flags.set(flag.key, flag);
  }
  return [...flags.values()];
}

/** `--sim-options` as the `&…` tail of the demo's target SPEC; the seed has its own flag. */
function demoSimOptions(text: string | undefined): string {
  if (text === undefined) return '';
  const query = text.trim().replace(/^[?&]+/, '');
  if (query === '') throw new ConfigError({ message: '--sim-options is empty; give name=value items joined by &, e.g. faults=none,give_up:1.', field: 'simOptions' });
  if (new URLSearchParams(query).has('seed')) throw new ConfigError({ message: '--sim-options must not set seed: the demo takes it as --seed.', field: 'simOptions' });
  return `&${query}`;
}

export function registerDemoCommand(program: Command, ctx: CliContext): void {
  const first = ctx.registry.all()[0];
  const demoRanges = ctx.registry
    .all()
    .filter((d) => d.demo !== undefined)
    .map((d) => `${d.name} ${d.demo!.tasks}`)
    .join(', ');
  const command = program
    .command('demo')
    .description(`Run the whole loop offline: simulated target + symbolic engineer on batches of real tasks (${first ? `${first.title} ${first.defaultSplit}` : 'the first benchmark'} by default), then an HTML report.`)
    .option('--bench <bench>', `${benchNames(ctx)} (default ${first?.name ?? 'none'}), or the path of a benchmark module with a simulated target`, first?.name)
    .option('--seed <n>', 'seed of the simulated target', '1')
    .option('--sim-options <query>', "the simulated target's other parameters, name=value joined by & (e.g. faults=none,give_up:1&latency_ms=300; see below)")
    .option('--tasks <range>', `task indices (default: the benchmark's demo range; ${demoRanges})`)
    .option('--batch-size <n>', 'tasks per batch', '10')
    .option('--concurrency <n>', 'episodes played at once', '4')
    .option('--run-dir <dir>', 'where the run is recorded (default runs/improve-<bench>-<split>-<time>); an existing one is resumed with the same settings, refused with others')
    .option('--new', 'start a new run even when --run-dir holds one: records into the first free <dir>-2, <dir>-3, …')
    .option('--data-dir <dir>', 'benchmark data folder (default ../shared/data or HARNESS_DATA_DIR)')
    .option('--protocol <p>', `the protocol the target plays: ${protocolHelp(ctx.registry)}`);
  const fileKeys = taskFileFlags(ctx).map((f) => {
    command.option(f.flag, f.description);
    return f.key;
  });
  command
    .option('--json', 'print a machine-readable summary on stdout')
    .addHelpText('after', () => `
Examples:
  harness-r1 demo                                          # ${first ? `${first.title} ${first.defaultSplit}` : 'the first benchmark'}, then open the report it names
  harness-r1 demo --bench webshop --sim-options latency_ms=300   # at a real server's pace
  (one example per benchmark below)
${simTargetHelp(ctx.registry, 'demo')}`)
    .action(async (opts: { bench: string; seed: string; simOptions?: string; tasks?: string; batchSize: string; concurrency: string; runDir?: string; new?: boolean; dataDir?: string; protocol?: string; json?: boolean } & Record<string, unknown>) => {
      const seed = readIntegerOption('seed', opts.seed, { min: 0, max: 2 ** 31 - 1 });
      const simOptions = demoSimOptions(opts.simOptions);
      const definition = await benchmarkOf(ctx, opts.bench);
      if (!definition.simulation) throw new ConfigError({ message: `${definition.name} has no simulated target, so the offline demo cannot run on it.`, field: 'bench' });
      const files = Object.fromEntries(fileKeys.map((k) => [k, typeof opts[k] === 'string' ? (opts[k] as string) : undefined]));
      const given = fileKeys.map((k) => files[k]).find((v) => v !== undefined);
      const { improveCommand } = await import('./improve.js');
      const result = await improveCommand(
        { registry: ctx.registry },
        {
          bench: opts.bench,
          ...(given === undefined ? { split: definition.defaultSplit, tasks: opts.tasks ?? definition.demo?.tasks } : { tasks: opts.tasks ?? ':' }),
          ...files,
          batchSize: opts.batchSize,
          target: `sim:${definition.name}?seed=${seed}${simOptions}`,
          engineer: 'symbolic',
          concurrency: opts.concurrency,
          banner: demoBanner(definition, given),
          runDir: opts.runDir,
          new: opts.new,
          dataDir: opts.dataDir,
          protocol: opts.protocol,
          json: opts.json,
        },
      );
      process.exitCode = result.code;
    });
}
