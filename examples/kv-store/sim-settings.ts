/**
 * Settings of the simulated target (`sim:kv-store?seed=N&faults=…&comply=P`) and its keyed randomness: a
 * draw is a pure function of (seed, task, draw name), so the same seed gives the same episodes at any
 * concurrency and in any order.
 */
import { createHash } from 'node:crypto';

import { ConfigError } from 'harness-r1';

/** The mistakes the simulated target makes, each with its default rate per task. */
export const KV_FAULTS = ['text_only', 'repeat', 'wrong_tool', 'early_submit'] as const;
export type KvFault = (typeof KV_FAULTS)[number];

export const DEFAULT_RATES: Readonly<Record<KvFault, number>> = Object.freeze({ text_only: 0.15, repeat: 0.2, wrong_tool: 0.2, early_submit: 0.1 });
export const DEFAULT_COMPLY = 0.9;
export const SIM_PARAMS = ['seed', 'faults', 'comply'] as const;

export interface KvSimSettings {
  seed: number;
  rates: Record<KvFault, number>;
  comply: number;
}

function bad(message: string): never {
  throw new ConfigError({ message: `sim:kv-store: ${message}`, field: 'target' });
}

function rate(text: string, what: string): number {
  const r = Number(text);
  if (text.trim() === '' || !(r >= 0 && r <= 1)) bad(`${what} must be a number from 0 to 1, got '${text}'.`);
  return r;
}

/**
 * Reads the query of `sim:kv-store?…`. `faults` is a comma-separated list applied left to right to the
 * defaults: `none` sets every rate to 0, `default` restores them, `all:R` sets every rate, `NAME:R` one.
 */
export function parseKvSimParams(params: URLSearchParams): KvSimSettings {
  for (const key of params.keys()) {
    if (!(SIM_PARAMS as readonly string[]).includes(key)) {
      throw new ConfigError({ message: `sim:kv-store has no parameter '${key}'.`, field: 'target', allowed: SIM_PARAMS });
    }
  }
  const seedText = params.get('seed') ?? '0';
  if (!/^\d+$/.test(seedText)) bad(`seed must be a non-negative integer, got '${seedText}'.`);
  const rates: Record<KvFault, number> = { ...DEFAULT_RATES };
  for (const item of (params.get('faults') ?? '').split(',').map((s) => s.trim()).filter((s) => s !== '')) {
    if (item === 'none') for (const f of KV_FAULTS) rates[f] = 0;
    else if (item === 'default') Object.assign(rates, DEFAULT_RATES);
    else {
      const [name, value] = item.split(':');
      const r = rate(value ?? '', `faults ${item}`);
      if (name === 'all') for (const f of KV_FAULTS) rates[f] = r;
      else if ((KV_FAULTS as readonly string[]).includes(name!.replace(/-/g, '_'))) rates[name!.replace(/-/g, '_') as KvFault] = r;
      else throw new ConfigError({ message: `sim:kv-store: unknown fault '${name}'.`, field: 'target', allowed: ['none', 'default', 'all', ...KV_FAULTS] });
    }
  }
  const comply = params.has('comply') ? rate(params.get('comply')!, 'comply') : DEFAULT_COMPLY;
  return { seed: Number(seedText), rates, comply };
}

export function simHash(...parts: readonly (string | number)[]): string {
  return createHash('sha256').update(parts.map(String).join('\u0000')).digest('hex');
}

/** True with probability `p` for this (seed, task, name); raising `p` only adds true draws. */
export function simChance(seed: number, taskKey: string, name: string, p: number): boolean {
  return Number.parseInt(simHash('kv-sim-draw', seed, taskKey, name).slice(0, 12), 16) / 2 ** 48 < p;
}
