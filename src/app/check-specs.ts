/**
 * Everything that can be known wrong about a target or engineer SPEC without starting anything: its form,
 * options that belong to the other role, a simulated target for another benchmark, and the simulated
 * target's own parameters (`latency_ms` here, the rest by the benchmark's `simulation.check`). Commands call
 * these before they create a run directory, so a bad SPEC leaves nothing behind; `resolveTarget` and
 * `resolveEngineer` call them too, so both paths refuse the same SPECs with the same messages.
 */
import { ConfigError } from '../episode/index.js';
import { parseModelSpec, type ModelSpec } from '../models/model-spec.js';
import type { BenchmarkRegistry } from '../benchmarks/registry.js';

/** The simulated target's own delay parameter, taken in front of every benchmark's simulation. */
export const SIM_LATENCY_PARAM = 'latency_ms';
export const MAX_SIM_LATENCY_MS = 600_000;

export const ENGINEER_SPEC_FORMS = ['symbolic', 'openai:<base-url>#<model>[?options]', 'scripted:<file>'] as const;

type SimSpec = Extract<ModelSpec, { kind: 'sim' }>;

/** A checked simulated target: the delay, and the parameters its benchmark's simulation reads. */
export interface CheckedSim {
  spec: SimSpec;
  latencyMs: number;
  simParams: Record<string, string>;
}

/** `sim:<name>` for every benchmark with a simulated target. */
export function simSpecs(registry: BenchmarkRegistry): string[] {
  return registry.all().flatMap((d) => (d.simulation ? [`sim:${d.name}`] : []));
}

/** Checks a target SPEC played on `bench` (when given); returns the parsed SPEC, and for `sim:` what it plays with. */
export function checkTargetSpec(spec: string, context: { registry: BenchmarkRegistry; bench?: string }): { parsed: ModelSpec; sim?: CheckedSim } {
  const parsed = parseModelSpec(spec, { field: 'target' });
  const { registry, bench } = context;
  switch (parsed.kind) {
    case 'openai':
      if (parsed.engineerProtocol !== undefined) throw new ConfigError({ message: `engineer_protocol is an engineer option; the target '${spec}' is asked with tool calls.`, field: 'target' });
      return { parsed };
    case 'scripted':
      return { parsed };
    case 'symbolic':
      throw new ConfigError({ message: "'symbolic' is an engineer, not a target model.", field: 'target', allowed: ['openai:<base-url>#<model>', ...simSpecs(registry), 'scripted:<file>'] });
    case 'sim':
      return { parsed, sim: checkSim(parsed, registry, bench) };
  }
}

function checkSim(parsed: SimSpec, registry: BenchmarkRegistry, bench: string | undefined): CheckedSim {
  // A simulated target knows the tasks of its own benchmark only: another benchmark's would fail every episode.
  if (bench !== undefined && parsed.bench !== bench && registry.find(parsed.bench)?.simulation) {
    throw new ConfigError({ message: `sim:${parsed.bench} is the simulated target of ${parsed.bench}; --bench ${bench} plays with sim:${bench}.`, field: 'target', allowed: registry.find(bench)?.simulation ? [`sim:${bench}`] : [] });
  }
  const simulation = registry.find(parsed.bench)?.simulation;
  if (!simulation) throw new ConfigError({ message: `There is no simulated target for '${parsed.bench}'.`, field: 'target', allowed: simSpecs(registry) });
  const { [SIM_LATENCY_PARAM]: latencyText, ...simParams } = parsed.params;
  const latencyMs = latencyText === undefined ? 0 : /^\d+$/.test(latencyText.trim()) ? Number(latencyText) : Number.NaN;
  if (!Number.isInteger(latencyMs) || latencyMs < 0 || latencyMs > MAX_SIM_LATENCY_MS) {
    throw new ConfigError({ message: `${SIM_LATENCY_PARAM} must be an integer number of milliseconds (0..${MAX_SIM_LATENCY_MS}), got '${latencyText}'.`, field: 'target' });
  }
  simulation.check?.(new URLSearchParams(simParams));
  return { spec: parsed, latencyMs, simParams };
}

/** Checks an engineer SPEC; returns it parsed. */
export function checkEngineerSpec(spec: string): Exclude<ModelSpec, { kind: 'sim' }> {
  const parsed = parseModelSpec(spec, { field: 'engineer' });
  if (parsed.kind === 'sim') throw new ConfigError({ message: `'${spec}' is a simulated target, not an engineer.`, field: 'engineer', allowed: ENGINEER_SPEC_FORMS });
  return parsed;
}

/** Checks every target (on every benchmark it plays) and every engineer of a command before it makes its run directory. */
export function checkSpecs(registry: BenchmarkRegistry, plays: { bench: string; targets: readonly string[] }[], engineers: readonly string[] = []): void {
  for (const { bench, targets } of plays) for (const target of targets) checkTargetSpec(target, { registry, bench });
  for (const engineer of engineers) checkEngineerSpec(engineer);
}
