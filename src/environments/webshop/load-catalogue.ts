import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

import { ConfigError } from '../../episode/index.js';
import { cleanProduct } from './clean-product.js';
import type { GoalOptions, HumanInstruction, ProductExtras, WebShopProduct } from './clean-product.js';

/**
 * The standard WebShop data file names (the 1,000-product "small" setting). Point `files` elsewhere
 * to use the full catalogue (`items_shuffle.json`, `items_ins_v2.json`).
 */
export const WEBSHOP_FILES = {
  catalogue: 'items_shuffle_1000.json',
  attributes: 'items_ins_v2_1000.json',
  humanInstructions: 'items_human_ins.json',
  humanGoalTexts: 'human_goals.json',
  goalQueryMap: 'goal_query_map.json',
} as const;

export type WebShopFileNames = { -readonly [K in keyof typeof WEBSHOP_FILES]: string };

/** Which goals the environment builds: from human instructions (what AgentBench uses) or synthetic ones. */
export type GoalMode = 'human' | 'synthetic';

export interface LoadCatalogueOptions {
  /** The folder holding the WebShop files. */
  dataDir: string;
  /** `human` needs `items_human_ins.json`; `synthetic` needs only the shipped files. */
  goals: GoalMode;
  files?: Partial<WebShopFileNames>;
}

export interface WebShopCatalogue {
  products: WebShopProduct[];
  byAsin: ReadonlyMap<string, WebShopProduct>;
  /** Records dropped while loading: bad ASIN (`nan`, longer than 10), duplicates, or uncleanable. */
  skipped: { asin: string; reason: string }[];
  files: WebShopFileNames;
}

/** The path of a WebShop data file (a name in `dataDir`, or a path of its own); a `ConfigError` naming the file and the mode when it is missing. */
export function requireWebShopFile(dataDir: string, file: string, neededFor: string): string {
  const full = path.resolve(dataDir, file);
  if (!existsSync(full)) {
    throw new ConfigError({
      message: `WebShop data file '${file}' not found in ${dataDir}; ${neededFor} needs it. Point the WebShop data directory at the folder that holds it.`,
      field: 'webshop.dataDir',
    });
  }
  return full;
}

/** Whether the optional human-instruction file is present. */
export function hasHumanInstructions(dataDir: string, files: Partial<WebShopFileNames> = {}): boolean {
  return existsSync(path.resolve(dataDir, files.humanInstructions ?? WEBSHOP_FILES.humanInstructions));
}

export function readJsonFile(file: string): unknown {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as unknown;
  } catch (cause) {
    throw new ConfigError({ message: `Cannot read WebShop data file ${file}: ${(cause as Error).message}`, field: 'webshop.dataDir', cause });
  }
}

/**
 * Loads and cleans the catalogue (engine.load_products): products in file order, dropping ASINs that
 * are `nan`, longer than 10 characters or repeated; joins attributes and the synthetic instruction from
 * the attribute file, and the human instructions when `goals` is `human`. Reviews and ratings are not
 * loaded (the small setting has none). Throws `ConfigError` for a missing or unreadable file.
 */
export function loadCatalogue(options: LoadCatalogueOptions): WebShopCatalogue {
  const files: WebShopFileNames = { ...WEBSHOP_FILES, ...options.files };
  const mode = `WebShop with ${options.goals} goals`;
  const rawProducts = readJsonFile(requireWebShopFile(options.dataDir, files.catalogue, mode));
  const rawAttributes = readJsonFile(requireWebShopFile(options.dataDir, files.attributes, mode));
  const rawHuman =
    options.goals === 'human'
      ? readJsonFile(requireWebShopFile(options.dataDir, files.humanInstructions, 'WebShop with human goals (what AgentBench uses)'))
      : undefined;
  if (!Array.isArray(rawProducts)) throw malformed(files.catalogue, 'a list of products');
  const attributes = asRecord(rawAttributes, files.attributes);
  const human = rawHuman === undefined ? undefined : asRecord(rawHuman, files.humanInstructions);

  const products: WebShopProduct[] = [];
  const skipped: WebShopCatalogue['skipped'] = [];
  const seen = new Set<string>();
  for (const raw of rawProducts as unknown[]) {
    if (!raw || typeof raw !== 'object') throw malformed(files.catalogue, 'product records that are objects');
    const record = raw as Record<string, unknown>;
    const asin = String(record.asin);
    if (asin === 'nan' || asin.length > 10) {
      skipped.push({ asin, reason: 'invalid asin' });
      continue;
    }
    if (seen.has(asin)) {
      skipped.push({ asin, reason: 'duplicate asin' });
      continue;
    }
    seen.add(asin);
    const cleaned = cleanProduct(record, extrasFor(asin, attributes, human));
    if ('message' in cleaned) skipped.push({ asin, reason: cleaned.message });
    else products.push(cleaned);
  }
  return { products, byAsin: new Map(products.map((p) => [p.asin, p])), skipped, files };
}

function extrasFor(asin: string, attributes: Record<string, unknown>, human: Record<string, unknown> | undefined): ProductExtras {
  const extras: ProductExtras = {};
  const entry = attributes[asin] as Record<string, unknown> | undefined;
  if (entry && Array.isArray(entry.attributes)) extras.attributes = entry.attributes.map(String);
  if (entry && typeof entry.instruction === 'string') {
    extras.syntheticInstruction = {
      text: entry.instruction,
      attributes: Array.isArray(entry.instruction_attributes) ? entry.instruction_attributes.map(String) : [],
    };
  }
  const instructions = human?.[asin];
  if (Array.isArray(instructions)) extras.humanInstructions = instructions.map(toHumanInstruction);
  return extras;
}

function toHumanInstruction(raw: unknown): HumanInstruction {
  const record = (raw ?? {}) as Record<string, unknown>;
  const options = record.instruction_options;
  let goalOptions: GoalOptions;
  if (options && typeof options === 'object' && !Array.isArray(options)) {
    goalOptions = { kind: 'dict', entries: Object.entries(options as Record<string, unknown>).map(([k, v]) => [k, String(v)]) };
  } else {
    goalOptions = { kind: 'list', values: Array.isArray(options) ? options.map(String) : [] };
  }
  return {
    instruction: String(record.instruction ?? ''),
    attributes: Array.isArray(record.instruction_attributes) ? record.instruction_attributes.map(String) : [],
    options: goalOptions,
  };
}

function asRecord(value: unknown, file: string): Record<string, unknown> {
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw malformed(file, 'an object keyed by ASIN');
  return value as Record<string, unknown>;
}

function malformed(file: string, expected: string): ConfigError {
  return new ConfigError({ message: `WebShop data file '${file}' is malformed: expected ${expected}.`, field: 'webshop.dataDir' });
}
