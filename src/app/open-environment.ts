/**
 * Opens a benchmark's environment for a command: the protocol checked against the benchmark's, the
 * benchmark-specific options validated by its own schema, and options that belong to another benchmark
 * refused with the benchmark they apply to.
 */
import type { AnyBenchmarkDefinition, OpenedEnvironment } from '../benchmark/definition.js';
import type { BenchmarkRegistry } from '../benchmarks/registry.js';
import { ConfigError } from '../episode/index.js';
import type { HarnessPatch } from '../patch/index.js';
import { fileSplitLabel } from '../config/data-file.js';
import { dataDirPath, resolveDataDir } from '../config/data-dir.js';
import { readIntegerOption } from './integer-option.js';
import { flagOf, parseWith } from './options.js';

export interface BenchmarkChoice {
  definition: AnyBenchmarkDefinition;
  dataDir: string;
  split: string;
  protocol: string;
  maxRounds?: number;
  /** Episodes played at once (engines start this many up front). */
  concurrency?: number;
  /** The benchmark's own options, already validated (see `benchmarkOptions`). */
  options: Record<string, unknown>;
}

/**
 * The data directory a command hands the benchmark: checked to exist, unless the benchmark reads nothing
 * from it (`needsDataDir: false`) and the user named none.
 */
export function dataDirFor(definition: AnyBenchmarkDefinition, explicit: string | undefined): string {
  return definition.needsDataDir === false && explicit === undefined ? dataDirPath() : resolveDataDir(explicit);
}

/** The protocol a command asked for (the benchmark's default when none). */
export function chooseProtocol(registry: BenchmarkRegistry, definition: AnyBenchmarkDefinition, value: string | undefined): string {
  if (value === undefined) return definition.protocols[0]!;
  if (definition.protocols.includes(value)) return value;
  const known = new Set(registry.all().flatMap((d) => d.protocols));
  // A protocol another benchmark plays: the benchmark itself says why it does not (e.g. one that plays FC only).
  if (known.has(value)) return value;
  throw new ConfigError({ message: `Unknown --protocol '${value}'.`, field: 'protocol', allowed: [...known] });
}

/**
 * The benchmark-specific part of what a command received: keys of the benchmark's own flags, validated by
 * its schema. A key that only other benchmarks know is refused, naming them.
 */
export function benchmarkOptions(registry: BenchmarkRegistry, definition: AnyBenchmarkDefinition, received: Record<string, unknown>): Record<string, unknown> {
  const own = new Set(definition.options.flags.map((f) => f.key));
  const mine: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(received)) {
    if (value === undefined) continue;
    if (own.has(key)) {
      const flag = definition.options.flags.find((f) => f.key === key)!;
      mine[key] = flag.type === 'integer' ? readIntegerOption(key, value, flag) : flag.type === 'number' && typeof value === 'string' ? numberOf(key, value) : value;
      continue;
    }
    const owners = registry.all().filter((d) => d.options.flags.some((f) => f.key === key));
    if (owners.length > 0) {
      const ownFile = definition.taskFileOption;
      const isFileFlag = owners.some((d) => d.taskFileOption === key);
      const hint = isFileFlag && ownFile !== undefined ? `; ${definition.name} plays a task file with ${flagOf(ownFile)} FILE` : '';
      throw new ConfigError({ message: `${flagOf(key)} applies to ${owners.map((d) => d.name).join(', ')} only, not ${definition.name}${hint}.`, field: flagOf(key) });
    }
    throw new ConfigError({ message: `Unknown option ${flagOf(key)} for ${definition.name}.`, field: key, allowed: definition.options.flags.map((f) => f.flag.split(' ')[0]!) });
  }
  return parseWith(definition.options.schema, mine) as Record<string, unknown>;
}

function numberOf(key: string, text: string): number {
  const n = Number(text);
  if (text.trim() === '' || !Number.isFinite(n)) throw new ConfigError({ message: `${flagOf(key)} must be a number, got '${text}'.`, field: key });
  return n;
}

/**
 * The split a command plays: a task file named by the benchmark's task-file option is played instead of a
 * split (`file:<name>`), so naming both is refused; else the split given, or the benchmark's default.
 */
export function chooseSplit(definition: AnyBenchmarkDefinition, split: string | undefined, options: Record<string, unknown>): { split: string; taskFile?: string } {
  const key = definition.taskFileOption;
  const file = key === undefined ? undefined : options[key];
  if (typeof file === 'string') {
    if (split !== undefined) throw new ConfigError({ message: `${flagOf(key!)} FILE is played instead of a split; give it or --split, not both.`, field: 'split' });
    return { split: fileSplitLabel(file), taskFile: file };
  }
  return { split: split ?? definition.defaultSplit };
}

/** Opens the environment of a choice; with `patch`, the benchmark installs the legacy actions it honours. */
export function openBenchmark(choice: BenchmarkChoice, patch?: HarnessPatch): Promise<OpenedEnvironment> {
  return choice.definition.open({
    dataDir: choice.dataDir,
    split: choice.split,
    protocol: choice.protocol,
    options: choice.options,
    ...(choice.maxRounds !== undefined ? { maxRounds: choice.maxRounds } : {}),
    ...(choice.concurrency !== undefined ? { concurrency: choice.concurrency } : {}),
    ...(patch ? { patch } : {}),
  });
}
