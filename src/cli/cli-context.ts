/**
 * What every command gets from `main`: the benchmark registry (built-ins, plus benchmarks loaded by path or
 * from the config file) and the config file, if one was given. Commands parse their flags once, with the
 * config file's values standing in for flags not given.
 */
import type { Command } from 'commander';

import type { AnyBenchmarkDefinition } from '../benchmark/definition.js';
import type { BenchmarkRegistry } from '../benchmarks/registry.js';
import { ConfigError } from '../episode/index.js';
import { ImproveOptionsSchema, RunOptionsSchema, withConfig, type ConfigFile } from '../app/options.js';

export interface CliContext {
  registry: BenchmarkRegistry;
  config?: ConfigFile;
}

/**
 * Adds every registered benchmark's own flags to a command (each flag once; a flag two benchmarks share
 * keeps the first description). Which benchmark a flag belongs to is checked when the options are parsed.
 */
export function addBenchmarkFlags(command: Command, registry: BenchmarkRegistry): Command {
  const seen = new Set<string>();
  for (const definition of registry.all()) {
    for (const flag of definition.options.flags) {
      const name = flag.flag.split(' ')[0]!;
      if (seen.has(name)) continue;
      seen.add(name);
      command.option(flag.flag, flag.description);
    }
  }
  return command;
}

/** Every key a config file may hold: the episode commands' options and every benchmark's flags. */
function knownConfigKeys(registry: BenchmarkRegistry): Set<string> {
  return new Set([
    ...Object.keys(RunOptionsSchema.shape),
    ...Object.keys(ImproveOptionsSchema.shape),
    ...registry.all().flatMap((d) => d.options.flags.map((f) => f.key)),
    'engineer',
  ]);
}

/**
 * The options a command received, config values filled in. A config key that neither this command, the
 * episode commands nor any benchmark knows is refused; keys that belong to other commands (an `engineer` in a config read by `run`) are left out.
 */
export function receivedOptions(ctx: CliContext, opts: Record<string, unknown>, ownKeys: readonly string[]): Record<string, unknown> {
  const known = new Set([...knownConfigKeys(ctx.registry), ...ownKeys]);
  const unknown = Object.keys(ctx.config?.settings ?? {}).filter((k) => !known.has(k));
  if (unknown.length > 0) {
    throw new ConfigError({ message: `${ctx.config!.file}: unknown setting(s): ${unknown.join(', ')}.`, field: unknown[0]!, allowed: [...known].sort() });
  }
  const benchKeys = new Set(ctx.registry.all().flatMap((d) => d.options.flags.map((f) => f.key)));
  const mine = new Set([...ownKeys, ...benchKeys]);
  const merged = withConfig(opts, ctx.config);
  return Object.fromEntries(Object.entries(merged).filter(([k]) => mine.has(k) && k !== 'config'));
}

/** The benchmark a command names (`--bench NAME` or a module path already loaded by `main`). */
export function benchmarkOf(ctx: CliContext, bench: string): Promise<AnyBenchmarkDefinition> {
  return ctx.registry.resolve(bench);
}

/** The names and simulated targets of the registered benchmarks, for help texts. */
export function benchNames(ctx: CliContext): string {
  return ctx.registry.names().join(', ');
}

/** `--split` help: each registered benchmark's named splits, its default first. */
export function splitHelp(registry: BenchmarkRegistry): string {
  return registry
    .all()
    .map((d) => `${d.name}: ${[d.defaultSplit, ...d.splits.filter((s) => s !== d.defaultSplit)].join(', ')}`)
    .join('; ');
}

/** `--max-rounds` help: each registered benchmark's default rounds per protocol. */
export function roundsHelp(registry: BenchmarkRegistry): string {
  return registry
    .all()
    .map((d) => {
      const [first, ...rest] = d.protocols.map((p) => [p, d.defaultRounds[p]] as const).filter(([, n]) => n !== undefined);
      if (first === undefined) return d.name;
      return `${d.name} ${first[1]}${rest.map(([p, n]) => ` (${p}: ${n})`).join('')}`;
    })
    .join(', ');
}

/** `--protocol` help: the benchmarks that play more than one protocol, and which (the first is the default). */
export function protocolHelp(registry: BenchmarkRegistry): string {
  const groups = new Map<string, string[]>();
  for (const d of registry.all().filter((b) => b.protocols.length > 1)) {
    const key = d.protocols.map((p, i) => (i === 0 ? `${p} (default)` : p)).join(' or ');
    groups.set(key, [...(groups.get(key) ?? []), d.name]);
  }
  return [...groups].map(([protocols, names]) => `${names.join(', ')}: ${protocols}`).join('; ');
}
