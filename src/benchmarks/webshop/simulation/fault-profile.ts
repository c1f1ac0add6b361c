import { ConfigError } from '../../../episode/index.js';

/**
 * The failure modes of the simulated WebShop target (SPEC §5). Each rate is the per-episode probability
 * that the mode is drawn for a goal; a drawn mode shows only where it can (early_buy needs a goal with
 * options, over_budget a listed product above the budget next to the goal product).
 */
export const WEBSHOP_FAULTS = ['early_buy', 'over_budget', 'search_loop', 'give_up'] as const;

export type WebShopFault = (typeof WEBSHOP_FAULTS)[number];

export type WebShopFaultRates = Record<WebShopFault, number>;

/** Defaults tuned so that about 30 % of the first 100 synthetic goals succeed with no harness. */
export const DEFAULT_WEBSHOP_FAULT_RATES: Readonly<WebShopFaultRates> = Object.freeze({
  early_buy: 0.4,
  over_budget: 0.35,
  search_loop: 0.2,
  give_up: 0.15,
});

export const DEFAULT_WEBSHOP_COMPLY = 0.8;
export const DEFAULT_WEBSHOP_SIM_SEED = 0;

export interface WebShopSimSettings {
  seed: number;
  faults: WebShopFaultRates;
  comply: number;
}

export function defaultWebShopSimSettings(): WebShopSimSettings {
  return { seed: DEFAULT_WEBSHOP_SIM_SEED, faults: { ...DEFAULT_WEBSHOP_FAULT_RATES }, comply: DEFAULT_WEBSHOP_COMPLY };
}

function rate(text: string, what: string): number {
  const value = Number(text);
  if (text.trim() === '' || !Number.isFinite(value) || value < 0 || value > 1) {
    throw new ConfigError({ message: `${what} must be a number between 0 and 1, got '${text}'.`, field: 'faults' });
  }
  return value;
}

/**
 * A `faults=` spec, applied left to right to the defaults: `none` (all 0), `default`, `all:R`, `NAME:R`
 * (`-` may replace `_`).
 */
export function parseWebShopFaultSpec(spec: string): WebShopFaultRates {
  const rates: WebShopFaultRates = { ...DEFAULT_WEBSHOP_FAULT_RATES };
  for (const item of spec.split(',').map((s) => s.trim()).filter(Boolean)) {
    if (item === 'none') for (const f of WEBSHOP_FAULTS) rates[f] = 0;
    else if (item === 'default') Object.assign(rates, DEFAULT_WEBSHOP_FAULT_RATES);
    else {
      const [name = '', value = ''] = item.split(':');
      const key = name.replace(/-/g, '_');
      if (key === 'all') for (const f of WEBSHOP_FAULTS) rates[f] = rate(value, 'all');
      else if ((WEBSHOP_FAULTS as readonly string[]).includes(key)) rates[key as WebShopFault] = rate(value, key);
      else throw new ConfigError({ message: `Unknown WebShop fault '${name}'.`, field: 'faults', allowed: ['none', 'default', 'all:R', ...WEBSHOP_FAULTS.map((f) => `${f}:R`)] });
    }
  }
  return rates;
}

/** Settings from handler options; anything not given keeps its default. */
export function resolveWebShopSimSettings(options: { seed?: number; faults?: Partial<WebShopFaultRates> | string; comply?: number }): WebShopSimSettings {
  const settings = defaultWebShopSimSettings();
  if (options.seed !== undefined) {
    if (!Number.isInteger(options.seed) || options.seed < 0) throw new ConfigError({ message: `seed must be a non-negative integer, got ${options.seed}.`, field: 'seed' });
    settings.seed = options.seed;
  }
  if (typeof options.faults === 'string') settings.faults = parseWebShopFaultSpec(options.faults);
  else if (options.faults) {
    for (const f of WEBSHOP_FAULTS) {
      const value = options.faults[f];
      if (value !== undefined) settings.faults[f] = rate(String(value), f);
    }
  }
  if (options.comply !== undefined) settings.comply = rate(String(options.comply), 'comply');
  return settings;
}

/** Words and phrases that name each mode's fix in a hint (case-insensitive, whole words). */
export const WEBSHOP_FIX_KEYWORDS: Readonly<Record<WebShopFault, readonly string[]>> = {
  early_buy: ['option', 'options', 'select', 'selected', 'choose', 'attribute', 'attributes', 'size', 'color', 'colour', 'required', 'unselected'],
  over_budget: ['budget', 'price', 'cheaper', 'expensive', 'over budget', 'cost', 'afford', 'lower than', 'too much'],
  search_loop: ['loop', 'looping', 'repeat', 'repeated', 'same search', 'different keywords', 'other keywords', 'new keywords', 'rephrase', 'duplicate', 'search again', 'open a product', 'click a product'],
  give_up: ['buy now', 'purchase', 'stall', 'stalled', 'stalling', 'give up', 'giving up', 'decide', 'proceed', 'go ahead', 'finish'],
};

/** The modes whose fix a hint names. */
export function faultsNamedByHint(text: string): WebShopFault[] {
  const lower = text.toLowerCase();
  return WEBSHOP_FAULTS.filter((fault) =>
    WEBSHOP_FIX_KEYWORDS[fault].some((word) => new RegExp(`(?:^|[^a-z])${word.replace(/ /g, '\\s+')}(?:$|[^a-z])`).test(lower)),
  );
}

export const WEBSHOP_SIM_PARAMS = ['seed', 'faults', 'comply'] as const;

/** Reads the query of a `sim:webshop?seed=…&faults=…&comply=…` spec into settings. */
export function parseWebShopSimQuery(query: string | URLSearchParams): WebShopSimSettings {
  const params = typeof query === 'string' ? new URLSearchParams(query.startsWith('?') ? query.slice(1) : query) : query;
  const options: { seed?: number; faults?: string; comply?: number } = {};
  const seen = new Set<string>();
  for (const [key, value] of params) {
    if (seen.has(key)) throw new ConfigError({ message: `Parameter '${key}' is given twice in the sim:webshop spec.`, field: key });
    seen.add(key);
    if (key === 'seed') {
      if (!/^\d+$/.test(value)) throw new ConfigError({ message: `seed must be a non-negative integer, got '${value}'.`, field: 'seed' });
      options.seed = Number(value);
    } else if (key === 'faults') options.faults = value;
    else if (key === 'comply') options.comply = rate(value, 'comply');
    else throw new ConfigError({ message: `Unknown parameter '${key}' in the sim:webshop spec.`, field: 'target', allowed: WEBSHOP_SIM_PARAMS });
  }
  return resolveWebShopSimSettings(options);
}
