/**
 * The one list of benchmarks: the built-in ones, plus any a user loads from a module of their own (by path,
 * or by name from a config file). Everything else asks the registry; nothing outside this folder names a
 * concrete benchmark.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

import type { AnyBenchmarkDefinition } from '../benchmark/definition.js';
import { ConfigError } from '../episode/index.js';
import { patchRulesLookup, type PatchRulesLookup } from '../patch/index.js';
import { alfworld } from './alfworld/index.js';
import { dbbench } from './dbbench/index.js';
import { webshop } from './webshop/index.js';

/** The benchmarks that ship with harness-r1, in the order help texts list them. */
export const BUILTIN_BENCHMARKS: readonly AnyBenchmarkDefinition[] = [dbbench, alfworld, webshop] as unknown as readonly AnyBenchmarkDefinition[];

export class BenchmarkRegistry {
  private readonly byName = new Map<string, AnyBenchmarkDefinition>();

  constructor(definitions: readonly AnyBenchmarkDefinition[] = BUILTIN_BENCHMARKS) {
    for (const d of definitions) this.add(d);
  }

  /** Adds a definition; a second one with the same name is a configuration error. */
  add(definition: AnyBenchmarkDefinition): void {
    checkDefinition(definition);
    if (this.byName.has(definition.name)) {
      throw new ConfigError({ message: `Two benchmarks are named '${definition.name}'.`, field: 'bench' });
    }
    this.byName.set(definition.name, definition);
  }

  names(): string[] {
    return [...this.byName.keys()];
  }

  all(): AnyBenchmarkDefinition[] {
    return [...this.byName.values()];
  }

  find(name: string): AnyBenchmarkDefinition | undefined {
    return this.byName.get(name);
  }

  /** The definition of a name; an unknown one is a usage error that lists the known names. */
  get(name: string, field = 'bench'): AnyBenchmarkDefinition {
    const found = this.byName.get(name);
    if (!found) throw new ConfigError({ message: `Unknown benchmark '${name}'.`, field, allowed: this.names() });
    return found;
  }

  /** The patch validator's view: every benchmark's rules by name. */
  patchRules(): PatchRulesLookup {
    return patchRulesLookup(this.all().map((d) => d.patch));
  }

  /**
   * Resolves `--bench`: a registered name, or a path to a module (`./my-bench/index.js`) whose default
   * export is a definition, which is then registered.
   */
  async resolve(nameOrPath: string, field = 'bench'): Promise<AnyBenchmarkDefinition> {
    if (!looksLikePath(nameOrPath)) return this.get(nameOrPath, field);
    const definition = await loadBenchmarkModule(nameOrPath, field);
    const known = this.byName.get(definition.name);
    if (known && known !== definition) {
      throw new ConfigError({ message: `${nameOrPath} defines '${definition.name}', a name that is already registered.`, field });
    }
    if (!known) this.add(definition);
    return definition;
  }
}

/** `--bench` values that name a file rather than a registered benchmark. */
export function looksLikePath(value: string): boolean {
  return value.startsWith('.') || value.startsWith('/') || value.includes(path.sep) || /\.(?:[cm]?js|[cm]?ts)$/.test(value);
}

/** Imports a benchmark module and returns its default export, checked for the definition's shape. */
export async function loadBenchmarkModule(file: string, field = 'bench'): Promise<AnyBenchmarkDefinition> {
  const resolved = path.resolve(file);
  if (!existsSync(resolved)) throw new ConfigError({ message: `Benchmark module not found: ${resolved}.`, field });
  let loaded: { default?: unknown };
  try {
    await typeScriptLoaderFor(resolved);
    loaded = (await import(pathToFileURL(resolved).href)) as { default?: unknown };
  } catch (cause) {
    throw new ConfigError({ message: `Cannot load benchmark module ${resolved}: ${(cause as Error).message}`, field, cause });
  }
  const definition = loaded.default;
  if (!isDefinition(definition)) {
    throw new ConfigError({ message: `${resolved} does not default-export a benchmark definition (use defineBenchmark).`, field });
  }
  return definition;
}

/**
 * A benchmark written in TypeScript needs a loader when the CLI runs compiled (`dist/`): tsx's, registered
 * on first need. From the sources (tsx, vitest) one is already active.
 */
async function typeScriptLoaderFor(file: string): Promise<void> {
  if (!/\.[cm]?ts$/.test(file) || import.meta.url.endsWith('.ts') || tsxRegistered) return;
  const { register } = await import('tsx/esm/api');
  register();
  tsxRegistered = true;
}
let tsxRegistered = false;

const REQUIRED: readonly (keyof AnyBenchmarkDefinition)[] = ['name', 'title', 'protocols', 'splits', 'defaultSplit', 'options', 'open', 'patch', 'engineer', 'evaluation'];

function isDefinition(value: unknown): value is AnyBenchmarkDefinition {
  return typeof value === 'object' && value !== null && REQUIRED.every((key) => key in value);
}

/** The invariants a definition must keep (so a user's mistake is named at load time, not mid-run). */
function checkDefinition(d: AnyBenchmarkDefinition): void {
  const problems: string[] = [];
  if (!/^[a-z][a-z0-9_-]*$/.test(d.name)) problems.push(`name '${d.name}' must be lower case letters, digits, '-' or '_'`);
  if (d.patch.name !== d.name) problems.push(`patch.name '${d.patch.name}' differs from name '${d.name}'`);
  if (d.engineer.name !== d.name) problems.push(`engineer.name '${d.engineer.name}' differs from name '${d.name}'`);
  if (d.protocols.length === 0) problems.push('protocols is empty');
  if (problems.length > 0) throw new ConfigError({ message: `Benchmark definition '${d.name}' is not valid: ${problems.join('; ')}.`, field: 'bench' });
}
