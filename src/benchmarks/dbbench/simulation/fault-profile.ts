import { ConfigError } from '../../../episode/index.js';
import { DBBENCH_SPLITS, type DbBenchSplit } from '../../../environments/dbbench/load-tasks.js';

/**
 * The failure modes of the simulated DBBench target (SPEC §5) and the knobs that set them. Each rate is
 * the per-episode probability that the mode is drawn for a task; a drawn mode shows only where it can
 * (backticks needs a table name that must be quoted, case_format needs a value whose case or format can
 * be changed).
 */
export const DBBENCH_FAULTS = ['backticks', 'early_commit', 'case_format', 'give_up', 'repeat'] as const;

export type DbBenchFault = (typeof DBBENCH_FAULTS)[number];

export type DbBenchFaultRates = Record<DbBenchFault, number>;

/**
 * Defaults tuned so that about 60 % of the dev split succeeds with no harness (the estimate is printed by
 * `dev-success-estimate.test.ts`; the real rate is measured end to end with the runtime).
 */
export const DEFAULT_DBBENCH_FAULT_RATES: Readonly<DbBenchFaultRates> = Object.freeze({
  backticks: 0.15,
  early_commit: 0.1,
  case_format: 0.1,
  give_up: 0.07,
  repeat: 0.08,
});

/** Probability that a hint naming the fix of a drawn mode is followed (each hint message draws once). */
export const DEFAULT_DBBENCH_COMPLY = 0.8;

export const DEFAULT_DBBENCH_SIM_SEED = 0;

/**
 * Splits indexed by default, in the order that breaks ties between identical questions. standard.v0.2
 * repeats the standard questions (11 records differ) and is indexed only when asked for with `split=`.
 */
export const DEFAULT_DBBENCH_SIM_SPLITS: readonly DbBenchSplit[] = ['dev', 'standard'];

/** Everything that shapes the simulated target's behaviour besides the task data. */
export interface DbBenchSimSettings {
  seed: number;
  faults: DbBenchFaultRates;
  comply: number;
  /** Splits whose tasks the target knows; the first one wins when two splits hold the same question. */
  splits: DbBenchSplit[];
}

export function defaultDbBenchSimSettings(): DbBenchSimSettings {
  return {
    seed: DEFAULT_DBBENCH_SIM_SEED,
    faults: { ...DEFAULT_DBBENCH_FAULT_RATES },
    comply: DEFAULT_DBBENCH_COMPLY,
    splits: [...DEFAULT_DBBENCH_SIM_SPLITS],
  };
}

const FAULT_ALIASES: Record<string, DbBenchFault> = {
  backticks: 'backticks',
  backtick: 'backticks',
  quoting: 'backticks',
  early_commit: 'early_commit',
  case_format: 'case_format',
  case: 'case_format',
  format: 'case_format',
  give_up: 'give_up',
  giveup: 'give_up',
  repeat: 'repeat',
  loop: 'repeat',
};

export const DBBENCH_SIM_PARAMS = ['seed', 'faults', 'comply', 'split'] as const;

/**
 * Applies a `faults=` value to a base profile, items left to right:
 * `none` sets every rate to 0, `default` restores the defaults, `all:R` sets every rate, `NAME:R` sets
 * one (names: backticks, early_commit, case_format, give_up, repeat; `-` may replace `_`).
 * Example: `none,backticks:0.3` gives only the backticks mode; `backticks:0.3` changes only that rate.
 */
export function parseFaultSpec(text: string, base: Readonly<DbBenchFaultRates> = DEFAULT_DBBENCH_FAULT_RATES): DbBenchFaultRates {
  const rates: DbBenchFaultRates = { ...base };
  const items = text.split(',').map((item) => item.trim()).filter((item) => item !== '');
  if (items.length === 0) throw new ConfigError({ message: "Empty 'faults' value.", field: 'faults', allowed: faultSpecAllowed() });
  for (const item of items) {
    const lowered = item.toLowerCase().replace(/-/g, '_');
    if (lowered === 'none') {
      for (const fault of DBBENCH_FAULTS) rates[fault] = 0;
      continue;
    }
    if (lowered === 'default' || lowered === 'defaults') {
      Object.assign(rates, DEFAULT_DBBENCH_FAULT_RATES);
      continue;
    }
    const colon = lowered.indexOf(':');
    if (colon < 0) {
      throw new ConfigError({ message: `Fault item '${item}' needs the form NAME:RATE.`, field: 'faults', allowed: faultSpecAllowed() });
    }
    const name = lowered.slice(0, colon).trim();
    const rate = parseRate(lowered.slice(colon + 1).trim(), `faults item '${item}'`, 'faults');
    if (name === 'all') {
      for (const fault of DBBENCH_FAULTS) rates[fault] = rate;
      continue;
    }
    const fault = FAULT_ALIASES[name];
    if (fault === undefined) {
      throw new ConfigError({ message: `Unknown DBBench fault '${name}' in faults=${text}.`, field: 'faults', allowed: faultSpecAllowed() });
    }
    rates[fault] = rate;
  }
  return rates;
}

/**
 * Reads the query part of a `sim:dbbench?seed=…&faults=…&comply=…&split=…` target spec (with or without
 * the leading `?`). Missing parameters keep their defaults; anything malformed is a ConfigError naming it.
 */
export function parseDbBenchSimQuery(query: string | URLSearchParams): DbBenchSimSettings {
  const params = typeof query === 'string' ? new URLSearchParams(query.startsWith('?') ? query.slice(1) : query) : query;
  const settings = defaultDbBenchSimSettings();
  const seen = new Set<string>();
  for (const [key, value] of params) {
    if (seen.has(key)) throw new ConfigError({ message: `Parameter '${key}' is given twice in the sim:dbbench spec.`, field: key });
    seen.add(key);
    switch (key) {
      case 'seed':
        settings.seed = parseSeed(value);
        break;
      case 'faults':
        settings.faults = parseFaultSpec(value);
        break;
      case 'comply':
        settings.comply = parseRate(value, "'comply'", 'comply');
        break;
      case 'split':
        settings.splits = parseSplitPreference(value);
        break;
      default:
        throw new ConfigError({ message: `Unknown parameter '${key}' in the sim:dbbench spec.`, field: 'target', allowed: DBBENCH_SIM_PARAMS });
    }
  }
  return settings;
}

/** Checks programmatic settings the same way the spec parser does. */
export function validateDbBenchSimSettings(settings: DbBenchSimSettings): DbBenchSimSettings {
  parseSeed(String(settings.seed));
  for (const fault of DBBENCH_FAULTS) parseRate(String(settings.faults[fault]), `fault rate '${fault}'`, 'faults');
  parseRate(String(settings.comply), "'comply'", 'comply');
  if (settings.splits.length === 0) throw new ConfigError({ message: 'The simulated target needs at least one split.', field: 'split', allowed: Object.keys(DBBENCH_SPLITS) });
  for (const split of settings.splits) {
    if (!(split in DBBENCH_SPLITS)) throw new ConfigError({ message: `Unknown DBBench split '${split}'.`, field: 'split', allowed: Object.keys(DBBENCH_SPLITS) });
  }
  return settings;
}

/** `split=standard.v0.2` puts that split first (it wins ties); the default splits stay known after it. */
function parseSplitPreference(value: string): DbBenchSplit[] {
  const wanted = value.split(',').map((s) => s.trim()).filter((s) => s !== '');
  if (wanted.length === 0) throw new ConfigError({ message: "Empty 'split' value.", field: 'split', allowed: Object.keys(DBBENCH_SPLITS) });
  for (const split of wanted) {
    if (!(split in DBBENCH_SPLITS)) throw new ConfigError({ message: `Unknown DBBench split '${split}'.`, field: 'split', allowed: Object.keys(DBBENCH_SPLITS) });
  }
  const first = wanted as DbBenchSplit[];
  return [...first, ...DEFAULT_DBBENCH_SIM_SPLITS.filter((split) => !first.includes(split))];
}

function parseSeed(value: string): number {
  const seed = Number(value);
  if (value.trim() === '' || !Number.isSafeInteger(seed) || seed < 0) {
    throw new ConfigError({ message: `Seed '${value}' must be a non-negative integer.`, field: 'seed' });
  }
  return seed;
}

function parseRate(value: string, what: string, field: string): number {
  const rate = Number(value);
  if (value === '' || !Number.isFinite(rate) || rate < 0 || rate > 1) {
    throw new ConfigError({ message: `${what}: rate '${value}' must be a number between 0 and 1.`, field });
  }
  return rate;
}

function faultSpecAllowed(): string[] {
  return ['none', 'default', 'all:R', ...DBBENCH_FAULTS.map((fault) => `${fault}:R`)];
}
