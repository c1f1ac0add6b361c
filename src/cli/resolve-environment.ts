import { ConfigError } from '../episode/index.js';
import { alfworldEnvironment } from '../benchmarks/alfworld/environment.js';
import { parseAlfworldWording } from '../environments/alfworld/load-logic.js';
import { dbBenchEnvironment } from '../benchmarks/dbbench/environment.js';
import type { DbBenchGradingRule } from '../environments/dbbench/dbbench-environment.js';
import type { DbBenchOverlay } from '../environments/dbbench/legacy-overlay.js';
import { DBBENCH_PROTOCOL_VERSION } from '../environments/dbbench/prompts.js';
import { TARGET_PROTOCOLS, type TargetProtocol } from '../environments/environment.js';
import type { Environment } from '../runtime/environment.js';
import { webShopEnvironment } from '../benchmarks/webshop/environment.js';
import { resolveDbBackend } from './resolve-backend.js';

export const BENCHES = ['dbbench', 'alfworld', 'webshop'] as const;
export type Bench = (typeof BENCHES)[number];

export interface EnvironmentChoice {
  bench: string;
  dataDir: string;
  split: string;
  maxRounds?: number;
  /** alfworld, webshop: fc (default) or v0.2 */
  protocol?: string;
  /** DBBench */
  backend?: string;
  dsn?: string;
  grading?: string;
  overlay?: DbBenchOverlay;
  /** ALFWorld: 2.1.1 (default) or 2.1.2 */
  wording?: string;
  /** WebShop: human or synthetic goals, and the goal seed */
  goals?: string;
  goalSeed?: number;
}

/** The environment flags a command received (undefined = not given), as one choice. */
export function environmentChoice(
  bench: Bench,
  dataDir: string,
  o: { split: string; maxRounds?: number; protocol?: string; backend?: string; dsn?: string; grading?: string; wording?: string; goals?: string; goalSeed?: number },
): EnvironmentChoice {
  const given = Object.entries({ maxRounds: o.maxRounds, protocol: o.protocol, backend: o.backend, dsn: o.dsn, grading: o.grading, wording: o.wording, goals: o.goals, goalSeed: o.goalSeed })
    .filter(([, v]) => v !== undefined);
  return { bench, dataDir, split: o.split, ...Object.fromEntries(given) };
}

/** `--protocol`: fc or v0.2 (alfworld, webshop); DBBench plays the function-calling protocol only. */
export function parseTargetProtocol(bench: Bench, value: string | undefined): TargetProtocol {
  if (value === undefined) return 'fc';
  if (!(TARGET_PROTOCOLS as readonly string[]).includes(value)) throw new ConfigError({ message: `Unknown --protocol '${value}'.`, field: 'protocol', allowed: TARGET_PROTOCOLS });
  if (bench === 'dbbench' && value !== 'fc') {
    throw new ConfigError({ message: 'dbbench plays the function-calling protocol only; --grading v0.2 grades answers with the v0.2 rule.', field: 'protocol', allowed: ['fc'] });
  }
  return value as TargetProtocol;
}

export function checkBench(bench: string): Bench {
  if (!(BENCHES as readonly string[]).includes(bench)) throw new ConfigError({ message: `Unknown benchmark '${bench}'.`, field: 'bench', allowed: BENCHES });
  return bench as Bench;
}

/** Builds the environment a command asked for; options that do not apply to the benchmark are refused. */
export async function openEnvironment(o: EnvironmentChoice): Promise<{ environment: Environment; options: Record<string, unknown> }> {
  const bench = checkBench(o.bench);
  const protocol = parseTargetProtocol(bench, o.protocol);
  const refuse = (flag: string, value: unknown) => {
    if (value !== undefined) throw new ConfigError({ message: `${flag} applies to ${flag === '--wording' ? 'alfworld' : flag.startsWith('--goal') ? 'webshop' : 'dbbench'} only, not ${bench}.`, field: flag });
  };
  if (bench !== 'dbbench') [['--backend', o.backend], ['--dsn', o.dsn], ['--grading', o.grading]].forEach(([f, v]) => refuse(f as string, v));
  if (bench !== 'alfworld') refuse('--wording', o.wording);
  if (bench !== 'webshop') [['--goals', o.goals], ['--goal-seed', o.goalSeed]].forEach(([f, v]) => refuse(f as string, v));
  if (bench === 'dbbench') {
    const grading = o.grading ?? 'fc';
    if (grading !== 'fc' && grading !== 'v0.2') throw new ConfigError({ message: `Unknown grading rule '${grading}'.`, field: 'grading', allowed: ['fc', 'v0.2'] });
    const backend = await resolveDbBackend(o.backend, o.dsn);
    const environment = dbBenchEnvironment({
      dataDir: o.dataDir,
      split: o.split,
      backend,
      grading: grading as DbBenchGradingRule,
      ...(o.maxRounds !== undefined ? { maxRounds: o.maxRounds } : {}),
      ...(o.overlay ? { overlay: o.overlay } : {}),
    });
    return { environment, options: { protocol: DBBENCH_PROTOCOL_VERSION, backend: backend.name, grading, maxRounds: o.maxRounds ?? null } };
  }
  if (bench === 'alfworld') {
    const wording = o.wording === undefined ? '2.1.1' : parseAlfworldWording(o.wording, 'wording');
    const environment = alfworldEnvironment({ dataDir: o.dataDir, split: o.split, wording, protocol, ...(o.maxRounds !== undefined ? { maxSteps: o.maxRounds } : {}) });
    return { environment, options: { protocol: protocol === 'fc' ? 'alfworld-fc-v1' : 'alfworld-text-v0.2', wording, maxSteps: o.maxRounds ?? null } };
  }
  if (o.goals !== undefined && o.goals !== 'human' && o.goals !== 'synthetic') {
    throw new ConfigError({ message: `Unknown --goals '${o.goals}'.`, field: 'goals', allowed: ['human', 'synthetic'] });
  }
  const environment = webShopEnvironment({
    dataDir: o.dataDir,
    protocol,
    ...(o.goals !== undefined ? { goals: o.goals as 'human' | 'synthetic' } : {}),
    ...(o.goalSeed !== undefined ? { goalSeed: o.goalSeed } : {}),
    ...(o.maxRounds !== undefined ? { maxRounds: o.maxRounds } : {}),
  });
  return { environment, options: { protocol: protocol === 'fc' ? 'webshop-fc-v1' : 'webshop-text-v0.2', goals: environment.split, goalSeed: o.goalSeed ?? 233, maxRounds: o.maxRounds ?? null } };
}
