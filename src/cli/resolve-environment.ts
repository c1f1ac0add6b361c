import { dataFileIdentity, fileSplitLabel } from '../config/data-file.js';
import { ConfigError } from '../episode/index.js';
import { createAlfworldEnvironment } from '../environments/alfworld/alfworld-environment.js';
import { parseAlfworldWording } from '../environments/alfworld/load-logic.js';
import { createDbBenchEnvironment, type DbBenchGradingRule } from '../environments/dbbench/dbbench-environment.js';
import { loadDbBenchFile } from '../environments/dbbench/load-tasks.js';
import type { DbBenchOverlay } from '../environments/dbbench/legacy-overlay.js';
import { DBBENCH_PROTOCOL_VERSION } from '../environments/dbbench/prompts.js';
import { TARGET_PROTOCOLS, type Environment, type TargetProtocol } from '../environments/environment.js';
import { createWebShopEnvironment } from '../environments/webshop/webshop-environment.js';
import type { RunDataNotes } from '../store/run-manifest.js';
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
  /** DBBench: a task file to play instead of a split; WebShop: a human-instructions file to build the goals from. */
  data?: string;
  /** ALFWorld: a games file to play instead of a split. */
  games?: string;
}

/** The environment flags a command received, as one choice. */
export interface EnvironmentFlags {
  /** undefined = not given (dev, or the task file's own label with --data / --games) */
  split?: string;
  maxRounds?: number;
  protocol?: string;
  backend?: string;
  dsn?: string;
  grading?: string;
  wording?: string;
  goals?: string;
  goalSeed?: number;
  data?: string;
  games?: string;
}

/**
 * The environment flags a command received (undefined = not given), as one choice. A task file
 * (`--data`, `--games`) takes the place of a split, so giving both is refused.
 */
export function environmentChoice(bench: Bench, dataDir: string, o: EnvironmentFlags): EnvironmentChoice {
  const file = o.data ?? o.games;
  if (o.data !== undefined && o.games !== undefined) throw new ConfigError({ message: 'Give --data FILE (dbbench, webshop) or --games FILE (alfworld), not both.', field: 'data' });
  if (file !== undefined && o.split !== undefined && bench !== 'webshop') {
    throw new ConfigError({ message: `${o.data !== undefined ? '--data' : '--games'} FILE is played instead of a split; give it or --split, not both.`, field: 'split' });
  }
  const given = Object.entries({ maxRounds: o.maxRounds, protocol: o.protocol, backend: o.backend, dsn: o.dsn, grading: o.grading, wording: o.wording, goals: o.goals, goalSeed: o.goalSeed, data: o.data, games: o.games })
    .filter(([, v]) => v !== undefined);
  return { bench, dataDir, split: file !== undefined ? fileSplitLabel(file) : (o.split ?? 'dev'), ...Object.fromEntries(given) };
}

/** What `openEnvironment` built: the environment, its identity options (for the manifest) and what to tell the user. */
export interface OpenedEnvironment {
  environment: Environment;
  /** The run's identity options: recorded in `run.json`, compared on resume, part of rerun cache keys. */
  options: Record<string, unknown>;
  /** Informational notes for the manifest (games the split lists that are not shipped). */
  data?: RunDataNotes;
  /** Lines for stderr, before the run starts. */
  notices: string[];
}

/** How many listed ids a notice names before it says "…". */
const NOTICE_IDS = 20;

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

/**
 * Builds the environment a command asked for; options that do not apply to the benchmark are refused.
 * A task file (`--data`, `--games`) is played instead of a split and recorded by path and sha256 in the
 * identity options (`dataFile`); games a split lists but the data does not ship are named in a notice and
 * in `data`.
 */
export async function openEnvironment(o: EnvironmentChoice): Promise<OpenedEnvironment> {
  const bench = checkBench(o.bench);
  const protocol = parseTargetProtocol(bench, o.protocol);
  const refuse = (flag: string, value: unknown) => {
    if (value !== undefined) throw new ConfigError({ message: `${flag} applies to ${flag === '--wording' ? 'alfworld' : flag.startsWith('--goal') ? 'webshop' : 'dbbench'} only, not ${bench}.`, field: flag });
  };
  if (bench !== 'dbbench') [['--backend', o.backend], ['--dsn', o.dsn], ['--grading', o.grading]].forEach(([f, v]) => refuse(f as string, v));
  if (bench !== 'alfworld') refuse('--wording', o.wording);
  if (bench !== 'webshop') [['--goals', o.goals], ['--goal-seed', o.goalSeed]].forEach(([f, v]) => refuse(f as string, v));
  if (bench === 'alfworld' && o.data !== undefined) throw new ConfigError({ message: '--data applies to dbbench (a task file) and webshop (a goals file); alfworld plays a games file with --games FILE.', field: '--data' });
  if (bench !== 'alfworld' && o.games !== undefined) throw new ConfigError({ message: `--games applies to alfworld only; ${bench} plays a task file with --data FILE.`, field: '--games' });
  const file = o.data ?? o.games;
  const dataFile = file === undefined ? {} : { dataFile: dataFileIdentity(file, o.data !== undefined ? '--data' : '--games') };
  if (bench === 'dbbench') {
    const tasks = o.data === undefined ? undefined : loadDbBenchFile(o.data);
    if (tasks?.length === 0) throw new ConfigError({ message: `--data ${o.data}: the file holds no tasks.`, field: 'data' });
    const grading = o.grading ?? 'fc';
    if (grading !== 'fc' && grading !== 'v0.2') throw new ConfigError({ message: `Unknown grading rule '${grading}'.`, field: 'grading', allowed: ['fc', 'v0.2'] });
    const backend = await resolveDbBackend(o.backend, o.dsn);
    const environment = createDbBenchEnvironment({
      dataDir: o.dataDir,
      split: o.split,
      backend,
      grading: grading as DbBenchGradingRule,
      ...(o.maxRounds !== undefined ? { maxRounds: o.maxRounds } : {}),
      ...(o.overlay ? { overlay: o.overlay } : {}),
      ...(tasks ? { tasks } : {}),
    });
    return { environment, options: { protocol: DBBENCH_PROTOCOL_VERSION, backend: backend.name, grading, maxRounds: o.maxRounds ?? null, ...dataFile }, notices: [] };
  }
  if (bench === 'alfworld') {
    const wording = o.wording === undefined ? '2.1.1' : parseAlfworldWording(o.wording, 'wording');
    const environment = createAlfworldEnvironment({
      dataDir: o.dataDir, split: o.split, wording, protocol, ...(o.maxRounds !== undefined ? { maxSteps: o.maxRounds } : {}), ...(o.games !== undefined ? { gamesFile: o.games } : {}),
    });
    const { entries, available, missing } = environment.games;
    if (available.length === 0) {
      throw new ConfigError({ message: `alfworld ${o.split}: none of its ${entries.length} games is shipped with the data (${o.dataDir}), so there is nothing to play.`, field: 'split' });
    }
    const options = { protocol: protocol === 'fc' ? 'alfworld-fc-v1' : 'alfworld-text-v0.2', wording, maxSteps: o.maxRounds ?? null, ...dataFile };
    if (missing.length === 0) return { environment, options, notices: [] };
    const ids = missing.map((m) => m.id);
    const named = ids.slice(0, NOTICE_IDS).join(', ') + (ids.length > NOTICE_IDS ? `, … (${ids.length - NOTICE_IDS} more; all in run.json)` : '');
    return {
      environment,
      options,
      data: { unshipped: { count: missing.length, listed: entries.length, ids } },
      notices: [`notice: alfworld ${o.split} lists ${entries.length} games; ${missing.length} are not shipped with the data and are not played (task indices count the ${available.length} shipped games): ${named}`],
    };
  }
  if (o.goals !== undefined && o.goals !== 'human' && o.goals !== 'synthetic') {
    throw new ConfigError({ message: `Unknown --goals '${o.goals}'.`, field: 'goals', allowed: ['human', 'synthetic'] });
  }
  const environment = createWebShopEnvironment({
    dataDir: o.dataDir,
    protocol,
    ...(o.goals !== undefined ? { goals: o.goals as 'human' | 'synthetic' } : {}),
    ...(o.goalSeed !== undefined ? { goalSeed: o.goalSeed } : {}),
    ...(o.maxRounds !== undefined ? { maxRounds: o.maxRounds } : {}),
    ...(o.data !== undefined ? { humanInstructionsFile: o.data } : {}),
  });
  if (environment.size === 0) throw new ConfigError({ message: `webshop ${environment.split}: there are no goals to play (no instruction with attributes for a product of the catalogue).`, field: 'data' });
  return { environment, options: { protocol: protocol === 'fc' ? 'webshop-fc-v1' : 'webshop-text-v0.2', goals: environment.split, goalSeed: o.goalSeed ?? 233, maxRounds: o.maxRounds ?? null, ...dataFile }, notices: [] };
}
