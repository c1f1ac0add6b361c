/**
 * Options of the commands that play episodes, as zod schemas. A command's flags are parsed once into one
 * validated object; a config file (`--config harness.json`) holds the same keys and is validated by the same
 * schema, its values standing in for flags that were not given. Errors are ConfigErrors that name the flag
 * and, where there is a fixed set, the allowed values.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

import { z } from 'zod';

import { ConfigError, REWARD_METRICS } from '../episode/index.js';
import { DEFAULT_BATCH_SIZE } from '../evaluation/improve/batches.js';
import { parseDisabledHooks } from '../hooks/disabled-hooks.js';
import { STRATEGY_NAMES } from '../runtime/strategies/index.js';
import { REPLAY_MODES } from '../models/replay-mode.js';
import { flagOf, integerProblem, integerValue } from './integer-option.js';

export { flagOf };

/** An integer option given as text (a flag) or a number (a config file), within bounds (read by `integerValue`). */
export function intOption(key: string, min: number, max: number) {
  return z.union([z.number(), z.string()]).transform((value, ctx) => {
    const n = integerValue(value, { min, max });
    if (n === undefined) {
      ctx.addIssue({ code: 'custom', message: integerProblem(key, value, { min, max }) });
      return z.NEVER;
    }
    return n;
  });
}

/** One of a fixed set of values. */
export function choiceOption<const T extends readonly [string, ...string[]]>(key: string, values: T) {
  return z.string().transform((value, ctx) => {
    if (!(values as readonly string[]).includes(value)) {
      ctx.addIssue({ code: 'custom', message: `Unknown ${flagOf(key)} '${value}'. Allowed: ${values.join(', ')}.` });
      return z.NEVER;
    }
    return value as T[number];
  });
}

/** `--disable-hooks on_init,make_pre_hint,…` (a list in a config file): lifecycle positions whose hooks are not called. */
export function disabledHooksOption(key: string) {
  return z.union([z.string(), z.array(z.string())]).transform((value, ctx) => {
    try {
      return parseDisabledHooks(value, key);
    } catch (error) {
      ctx.addIssue({ code: 'custom', message: (error as Error).message });
      return z.NEVER;
    }
  });
}

/** Options every episode-playing command shares. */
const episodeOptions = {
  bench: z.string(),
  split: z.string().optional(),
  tasks: z.string().optional(),
  target: z.string(),
  runDir: z.string().optional(),
  dataDir: z.string().optional(),
  maxRounds: intOption('maxRounds', 1, 10_000).optional(),
  protocol: z.string().optional(),
  json: z.boolean().optional(),
  /** Lifecycle positions whose hooks are not called (the ablation switch). */
  disableHooks: disabledHooksOption('disableHooks').optional(),
  /** Start a new run directory instead of continuing (or refusing) the one named. */
  new: z.boolean().optional(),
  /** A baseline target strategy (`react`, `self_refine`, `reflection`); absent: the plain target. */
  strategy: choiceOption('strategy', STRATEGY_NAMES).optional(),
  /** Exact replay of the baseline's model turns in reruns (default: by target, see `chooseReplay`). */
  replay: choiceOption('replay', REPLAY_MODES).optional(),
};

export const RunOptionsSchema = z.object({
  ...episodeOptions,
  concurrency: intOption('concurrency', 1, 256).default(1),
  resume: z.boolean().optional(),
  retryInfra: z.boolean().optional(),
  patch: z.string().optional(),
  /** One patch per batch of the run's tasks, `<dir>/<batch>/<bench>.json` (batches as `improve` cuts them). */
  patchSource: z.string().optional(),
  /** Tasks per batch with `--patch-source` (default 10, as `improve`). */
  batchSize: intOption('batchSize', 1, 100_000).optional(),
  hookTimeoutMs: intOption('hookTimeoutMs', 1, 60_000).optional(),
  /** Worker kills after which a hook is switched off for the rest of an episode (default 2; 0 never). */
  hookKillLimit: intOption('hookKillLimit', 0, 1000).optional(),
  /** Cap on one serialized episode record (default `HARNESS_MAX_RECORD_BYTES`, else 16 MiB). */
  maxRecordBytes: intOption('maxRecordBytes', 1, 2 ** 31 - 1).optional(),
  /** Print every task's row at the end instead of the shortened table. */
  tasksTable: z.boolean().optional(),
  banner: z.string().optional(),
});
export type RunOptions = z.infer<typeof RunOptionsSchema>;

export { DEFAULT_BATCH_SIZE };

export const ImproveOptionsSchema = z.object({
  ...episodeOptions,
  /** Default: the symbolic engineer (see `engineerOrSource`). */
  engineer: z.string().optional(),
  /** Replay the patches of a folder (`<dir>/<batch>/<bench>.json`) instead of asking an engineer. */
  patchSource: z.string().optional(),
  /** Stop each batch after validation: write its patch to `<run>/patches/`, no rerun and no reward. */
  generateOnly: z.boolean().optional(),
  concurrency: intOption('concurrency', 1, 256).default(4),
  batchSize: intOption('batchSize', 1, 100_000).default(DEFAULT_BATCH_SIZE),
  batches: intOption('batches', 1, 100_000).optional(),
  metric: choiceOption('metric', REWARD_METRICS as readonly ['delta_pass_rate', 'delta_average_reward']).optional(),
  revise: z.boolean().optional(),
  /** Wall-clock limit of one hook call in reruns (default: the sandbox's, 50 ms as the original). */
  hookTimeoutMs: intOption('hookTimeoutMs', 1, 60_000).optional(),
  banner: z.string().optional(),
});
export type ImproveOptions = z.infer<typeof ImproveOptionsSchema>;

/** Splits what a command received into its own options and the benchmark-specific rest. */
export function splitOptions(schema: z.ZodObject, received: Record<string, unknown>): { own: Record<string, unknown>; bench: Record<string, unknown> } {
  const ownKeys = new Set(Object.keys(schema.shape));
  const own: Record<string, unknown> = {};
  const bench: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(received)) {
    if (value === undefined || key === 'config') continue;
    (ownKeys.has(key) ? own : bench)[key] = value;
  }
  return { own, bench };
}

/** Validates with a schema; the first issue becomes a ConfigError naming its flag (or config field). */
export function parseWith<S extends z.ZodType>(schema: S, value: unknown, where = ''): z.infer<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const key = issue.path.map(String).join('.');
  const field = key === '' ? 'options' : key;
  if (issue.code === 'custom') throw new ConfigError({ message: `${where}${issue.message}`, field });
  if (issue.code === 'invalid_value' && 'values' in issue) {
    const given = issue.path.reduce<unknown>((v, k) => (v !== null && typeof v === 'object' ? (v as Record<PropertyKey, unknown>)[k as PropertyKey] : undefined), value);
    throw new ConfigError({ message: `${where}Unknown ${flagOf(key)} '${String(given)}'.`, field, allowed: issue.values.map(String) });
  }
  const present = issue.path.reduce<unknown>((v, k) => (v !== null && typeof v === 'object' ? (v as Record<PropertyKey, unknown>)[k as PropertyKey] : undefined), value);
  if (issue.code === 'invalid_type' && present === undefined) throw new ConfigError({ message: `${where}${flagOf(key)} is required.`, field });
  if (issue.code === 'unrecognized_keys') {
    throw new ConfigError({ message: `${where}unknown setting(s): ${issue.keys.join(', ')}.`, field: issue.keys[0] ?? field });
  }
  throw new ConfigError({ message: `${where}${flagOf(key)}: ${issue.message}.`, field });
}

/** A config file: the command's settings (camelCase keys, as the flags) and benchmark modules by name. */
export interface ConfigFile {
  file: string;
  settings: Record<string, unknown>;
  /** Benchmark name → module path (resolved against the config file's folder). */
  benchmarks: Record<string, string>;
}

const ConfigFileSchema = z.object({ benchmarks: z.record(z.string(), z.string()).optional() }).catchall(z.unknown());

/** Reads and checks `--config FILE` (JSON). */
export function readConfigFile(file: string): ConfigFile {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (cause) {
    throw new ConfigError({ message: `Cannot read config file ${file}: ${(cause as Error).message}`, field: 'config', cause });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (cause) {
    throw new ConfigError({ message: `Config file ${file} is not valid JSON: ${(cause as Error).message}`, field: 'config', cause });
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) throw new ConfigError({ message: `Config file ${file} must hold a JSON object.`, field: 'config' });
  const parsed = parseWith(ConfigFileSchema, json, `${file}: `);
  const { benchmarks = {}, ...settings } = parsed;
  const dir = path.dirname(path.resolve(file));
  return { file, settings, benchmarks: Object.fromEntries(Object.entries(benchmarks).map(([name, p]) => [name, path.resolve(dir, p)])) };
}

/** Flags given win; config values fill the rest. */
export function withConfig(received: Record<string, unknown>, config: ConfigFile | undefined): Record<string, unknown> {
  const given = Object.fromEntries(Object.entries(received).filter(([, v]) => v !== undefined));
  return { ...(config?.settings ?? {}), ...given };
}
