import path from 'node:path';

import { ConfigError } from '../../episode/index.js';
import { manifestSha256 } from '../../environments/webshop/canonical-json.js';
import { buildGoalSet, type GoalSet } from '../../environments/webshop/goals.js';
import {
  extractInstruction,
  goalToPyValue,
  productPricesSha256,
  taskManifest,
} from '../../environments/webshop/identity-manifest.js';
import { hasHumanInstructions, loadCatalogue, WEBSHOP_FILES, type GoalMode, type WebShopFileNames } from '../../environments/webshop/load-catalogue.js';
import { renderPage } from '../../environments/webshop/render-page.js';
import { fileSha256, type SourceFile } from '../../task-splits/index.js';

/** The WebShop goal list a split is made over, with each goal's identity digest. */
export interface WebShopPool {
  mode: GoalMode;
  goalSet: GoalSet;
  /** `webshop_task_manifest_v1` digest of goal i: what a run of task i records as its identity. */
  digests: string[];
  sources: SourceFile[];
  /** Whether the human instructions came from `--pool`. */
  fromUserPool: boolean;
}

/**
 * Loads the goals the way the environment does (same catalogue cleaning, goal seed 233, price seed =
 * goal seed) and computes each task's manifest digest. This adapter composes the identity module's
 * pieces from a goal set, because its `createTaskManifestBuilder` wants a whole engine (with a search
 * index) although it reads only the goals. `pool`, when given, is an `items_human_ins.json`-format
 * file used in place of the data folder's: human goals, as in the paper.
 */
export function loadWebShopPool(dataDir: string, pool?: string): WebShopPool {
  const webshopDir = path.join(dataDir, 'webshop');
  const files: Partial<WebShopFileNames> = {};
  let mode: GoalMode;
  if (pool !== undefined) {
    // The loader joins file names onto its folder, so the user's file is named relative to it.
    files.humanInstructions = path.relative(webshopDir, path.resolve(pool));
    if (!hasHumanInstructions(webshopDir, files)) {
      throw new ConfigError({ message: `--pool file not found: ${pool} (webshop expects an items_human_ins.json-format file).`, field: 'pool' });
    }
    mode = 'human';
  } else {
    mode = hasHumanInstructions(webshopDir) ? 'human' : 'synthetic';
  }
  const catalogue = loadCatalogue({ dataDir: webshopDir, goals: mode, files });
  const goalSet = buildGoalSet({ products: catalogue.products, mode });
  const pricesHash = productPricesSha256(goalSet.prices);
  const digests = goalSet.goals.map(
    (goal, index) =>
      taskManifest({
        goalSeed: goalSet.goalSeed,
        index,
        instructionSha256: manifestSha256(extractInstruction(renderPage({ kind: 'search' }, goal.instructionText).observation)),
        goalSha256: manifestSha256(goalToPyValue(goal, mode)),
        productPricesSha256: pricesHash,
      }).sha256,
  );
  const sources: SourceFile[] = [
    source('catalogue', webshopDir, WEBSHOP_FILES.catalogue, `webshop/${WEBSHOP_FILES.catalogue}`),
    source('attributes', webshopDir, WEBSHOP_FILES.attributes, `webshop/${WEBSHOP_FILES.attributes}`),
  ];
  if (mode === 'human') {
    sources.push(
      pool !== undefined
        ? { role: 'human instructions (--pool)', path: pool, ...fileSha256(pool) }
        : source('human instructions', webshopDir, WEBSHOP_FILES.humanInstructions, `webshop/${WEBSHOP_FILES.humanInstructions}`),
    );
  }
  return { mode, goalSet, digests, sources, fromUserPool: pool !== undefined };
}

function source(role: string, dir: string, file: string, shown: string): SourceFile {
  return { role, path: shown, ...fileSha256(path.join(dir, file)) };
}
