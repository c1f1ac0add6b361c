import type { Bm25Options } from './bm25-index.js';
import { buildGoalSet } from './goals.js';
import type { GoalSet } from './goals.js';
import { loadCatalogue } from './load-catalogue.js';
import type { GoalMode, WebShopCatalogue, WebShopFileNames } from './load-catalogue.js';
import type { RewardOptions } from './reward.js';
import { createWebShopSearch } from './search.js';
import type { WebShopSearch } from './search.js';

/**
 * Everything the WebShop sessions share, built once per process and read-only afterwards (the
 * original's `SimServer`): the cleaned catalogue, the search engine, the product prices and the
 * shuffled goals.
 */
export interface WebShopEngine {
  catalogue: WebShopCatalogue;
  search: WebShopSearch;
  goalSet: GoalSet;
  rewardOptions: RewardOptions;
}

export interface LoadWebShopEngineOptions {
  /** The folder holding the WebShop data files. */
  dataDir: string;
  /** `human` (AgentBench's setting) needs `items_human_ins.json`; `synthetic` runs on the shipped files. */
  goals: GoalMode;
  /** Goal shuffle seed; 233 by default. */
  goalSeed?: number;
  /** Seed for prices of ranged products and price caps; the goal seed by default (see `buildGoalSet`). */
  priceSeed?: number;
  files?: Partial<WebShopFileNames>;
  bm25?: Bm25Options;
  reward?: RewardOptions;
}

/** Loads the data and builds the engine. Throws `ConfigError` when a needed file is missing. */
export function loadWebShopEngine(options: LoadWebShopEngineOptions): WebShopEngine {
  const catalogue = loadCatalogue({ dataDir: options.dataDir, goals: options.goals, ...(options.files ? { files: options.files } : {}) });
  return createWebShopEngine({ catalogue, ...options });
}

/** Builds the engine from an already loaded catalogue. */
export function createWebShopEngine(options: Omit<LoadWebShopEngineOptions, 'dataDir' | 'files'> & { catalogue: WebShopCatalogue }): WebShopEngine {
  const goalSet = buildGoalSet({
    products: options.catalogue.products,
    mode: options.goals,
    ...(options.goalSeed === undefined ? {} : { goalSeed: options.goalSeed }),
    ...(options.priceSeed === undefined ? {} : { priceSeed: options.priceSeed }),
  });
  return {
    catalogue: options.catalogue,
    search: createWebShopSearch(options.catalogue.products, options.bm25),
    goalSet,
    rewardOptions: options.reward ?? {},
  };
}
