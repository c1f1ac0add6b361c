/**
 * The `--help` section on simulated targets, shared by `run`, `improve` and `demo`: the parameters every
 * `sim:` target takes (`latency_ms`, read in front of the simulation), then per benchmark with a simulated
 * target its parameters and fault names — read from the definition (`simulation.params`, `.faults`, which
 * the benchmark's own parser uses) — and an example command built from the definition's example SPEC.
 */
import type { AnyBenchmarkDefinition } from '../benchmark/definition.js';
import type { BenchmarkRegistry } from '../benchmarks/registry.js';
import { MAX_SIM_LATENCY_MS, SIM_LATENCY_PARAM } from '../app/check-specs.js';

export type SimHelpCommand = 'run' | 'improve' | 'demo';

/** What the parameters most simulations share mean (a benchmark's own ones are described by `paramHelp`). */
const SHARED_PARAM_HELP: Readonly<Record<string, string>> = {
  seed: 'integer >= 0 that fixes every draw (default 0)',
  faults: 'comma-separated items applied left to right: none, default, or NAME:RATE (RATE in 0..1)',
  comply: 'chance in 0..1 that a hint or block naming the fix is followed',
};

/** The SPEC a benchmark's help example plays: its definition's example, else `sim:<name>?seed=1`. */
export function simExampleSpec(definition: AnyBenchmarkDefinition): string {
  return definition.simulation?.example ?? `sim:${definition.name}?seed=1`;
}

/** One example command per benchmark with a simulated target, as `command` takes it. */
export function simExampleCommand(definition: AnyBenchmarkDefinition, command: SimHelpCommand): string {
  const spec = simExampleSpec(definition);
  const bench = `--bench ${definition.name}`;
  if (command === 'run') return `harness-r1 run ${bench} --tasks 0:5 --target '${spec}'`;
  if (command === 'improve') return `harness-r1 improve ${bench} --tasks 0:10 --batch-size 5 --target '${spec}'`;
  // The demo takes the seed as --seed and the other parameters as --sim-options.
  const query = new URLSearchParams(spec.includes('?') ? spec.slice(spec.indexOf('?') + 1) : '');
  const seed = query.get('seed');
  query.delete('seed');
  const rest = decodeURIComponent(query.toString());
  return `harness-r1 demo ${bench}${seed === null ? '' : ` --seed ${seed}`}${rest === '' ? '' : ` --sim-options '${rest}'`}`;
}

/** The help section (starts with a blank line). */
export function simTargetHelp(registry: BenchmarkRegistry, command: SimHelpCommand): string {
  const simulated = registry.all().filter((d) => d.simulation !== undefined);
  if (simulated.length === 0) return '';
  const where = command === 'demo' ? 'the demo plays sim:<bench>?seed=<--seed>&<--sim-options>' : 'played with --target sim:<bench>[?name=value&…]';
  const lines = [
    '',
    `Simulated targets (${where}):`,
    "a seeded policy that knows each task's solution and makes the mistakes its faults name, served over a",
    'local OpenAI-compatible server. Parameters:',
    `  ${SIM_LATENCY_PARAM}=<ms>  every sim: target: delay each answer by an integer 0..${MAX_SIM_LATENCY_MS} ms (default 0), to play at a real server's pace`,
  ];
  for (const definition of simulated) {
    const simulation = definition.simulation!;
    lines.push(`  sim:${definition.name}`);
    for (const param of simulation.params) {
      const help = simulation.paramHelp?.[param] ?? SHARED_PARAM_HELP[param];
      lines.push(`    ${param}${help === undefined ? '' : `: ${help}`}`);
    }
    if (simulation.faults !== undefined && simulation.faults.length > 0) lines.push(`    fault names: ${simulation.faults.join(', ')}`);
    lines.push(`    e.g. ${simExampleCommand(definition, command)}`);
  }
  return lines.join('\n');
}
