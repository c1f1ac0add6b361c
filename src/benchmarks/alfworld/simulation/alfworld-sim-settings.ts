import { ConfigError } from '../../../episode/index.js';

/** The failure modes of the simulated ALFWorld target (SPEC §5). */
export const ALFWORLD_FAULTS = ['skip_transform', 'wrong_destination', 'transform_loop', 'forget_second', 'repeat_failed'] as const;
export type AlfworldFault = (typeof ALFWORLD_FAULTS)[number];
export type AlfworldFaultRates = Record<AlfworldFault, number>;

/**
 * Per-game probabilities of each failure mode (a mode only applies where the task allows it: transforms
 * on clean/heat/cool, the second object on pick_two). Tuned so the seed-0 baseline on dev is about 40 %.
 */
export const DEFAULT_ALFWORLD_FAULT_RATES: Readonly<AlfworldFaultRates> = {
  skip_transform: 0.3,
  wrong_destination: 0.3,
  transform_loop: 0.2,
  forget_second: 0.6,
  repeat_failed: 0.3,
};

/** Probability that a block, or a hint naming the fix, makes the target correct that mistake. */
export const DEFAULT_ALFWORLD_COMPLY = 0.8;
export const DEFAULT_ALFWORLD_SIM_SEED = 0;

export interface AlfworldSimSettings {
  seed: number;
  faults: AlfworldFaultRates;
  comply: number;
}

/** Words that show a hint or block names the fix for a mode. */
export const ALFWORLD_FIX_KEYWORDS: Readonly<Record<AlfworldFault, RegExp>> = {
  skip_transform: /\b(heat|heated|hot|cool|cooled|cold|clean|cleaned|wash|microwave|fridge|sinkbasin|sink)\b/i,
  wrong_destination: /\b(destination|wrong (place|receptacle|location|spot)|target receptacle|goal receptacle|task says|as the task)\b/i,
  transform_loop: /\b(already (heated|cooled|cleaned|hot|cold|clean)|loop|looping|stop (heating|cooling|cleaning|putting)|repeating)\b/i,
  forget_second: /\b(second|two|another|both|remaining object|one more)\b/i,
  repeat_failed: /\b(nothing happens|invalid|not admissible|admissible|available actions|exactly as listed|repeat(ing|ed)?|same action)\b/i,
};

/** The fault modes a message names. */
export function faultsNamedBy(message: string): AlfworldFault[] {
  return ALFWORLD_FAULTS.filter((f) => ALFWORLD_FIX_KEYWORDS[f].test(message));
}

/** Reads a `faults=` spec: `none`, `default`, or `mode:rate` items separated by commas (`none,skip_transform:1`). */
export function parseAlfworldFaultSpec(spec: string): AlfworldFaultRates {
  const rates: AlfworldFaultRates = { ...DEFAULT_ALFWORLD_FAULT_RATES };
  for (const item of spec.split(',').map((s) => s.trim()).filter(Boolean)) {
    if (item === 'none') {
      for (const f of ALFWORLD_FAULTS) rates[f] = 0;
      continue;
    }
    if (item === 'default') {
      Object.assign(rates, DEFAULT_ALFWORLD_FAULT_RATES);
      continue;
    }
    const [name, value] = item.split(':');
    const rate = Number(value);
    if (!(ALFWORLD_FAULTS as readonly string[]).includes(name ?? '') || !Number.isFinite(rate) || rate < 0 || rate > 1) {
      throw new ConfigError({ message: `Bad ALFWorld fault item '${item}': expected none, default or <mode>:<rate in 0..1>.`, field: 'faults', allowed: [...ALFWORLD_FAULTS] });
    }
    rates[name as AlfworldFault] = rate;
  }
  return rates;
}

/** The query parameters of `sim:alfworld?…`. */
export const ALFWORLD_SIM_PARAMS = ['seed', 'faults', 'comply'] as const;

/**
 * Reads `sim:alfworld?…` parameters into handler options: unknown keys are refused, `seed` must be written
 * as an integer and `comply` as a number (ranges and the `faults=` items are checked when the settings are
 * resolved). `latency_ms` never reaches here: the target in front of the simulation takes it.
 */
export function alfworldSimOptionsOf(params: URLSearchParams): { seed?: number; comply?: number; faults?: string } {
  const options: { seed?: number; comply?: number; faults?: string } = {};
  for (const [key, value] of params) {
    if (!(ALFWORLD_SIM_PARAMS as readonly string[]).includes(key)) {
      throw new ConfigError({ message: `Unknown sim:alfworld parameter '${key}'.`, field: 'target', allowed: [...ALFWORLD_SIM_PARAMS, 'latency_ms'] });
    }
    if (key === 'seed') {
      if (!/^\d+$/.test(value.trim())) throw new ConfigError({ message: `sim:alfworld seed must be a non-negative integer, got '${value}'.`, field: 'seed' });
      options.seed = Number(value);
    } else if (key === 'comply') {
      const comply = value.trim() === '' ? Number.NaN : Number(value);
      if (!Number.isFinite(comply)) throw new ConfigError({ message: `sim:alfworld comply must be a probability in 0..1, got '${value}'.`, field: 'comply' });
      options.comply = comply;
    } else options.faults = value;
  }
  return options;
}
