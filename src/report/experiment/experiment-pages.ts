import { ConfigError } from '../../episode/index.js';
import { ablationPage } from './ablation-page.js';
import type { ExperimentPage } from './experiment-page.js';
import { heldoutPage } from './heldout-page.js';
import { mainPage } from './main-page.js';
import { transferPage } from './transfer-page.js';

/**
 * The page of each experiment kind (`experiment.json`'s `kind`). To give a new experiment its page — the
 * transfer matrix (a target × benchmark heatmap) or the main table (Table 1) — write an `ExperimentPage`
 * for its `<kind>.json` and add it here; the loader, the shell, the per-store episode reports and the
 * `report` command need no change.
 */
const PAGES: readonly ExperimentPage<never>[] = [heldoutPage, ablationPage, transferPage, mainPage] as unknown as ExperimentPage<never>[];

export function experimentPageOf(kind: string): ExperimentPage<unknown> {
  const page = PAGES.find((p) => p.kind === kind);
  if (!page) {
    throw new ConfigError({ message: `The report has no page for a ${kind} experiment yet (pages: ${PAGES.map((p) => p.kind).join(', ')}); its ${kind}.json holds the figures.`, field: 'run' });
  }
  return page as unknown as ExperimentPage<unknown>;
}

export const EXPERIMENT_PAGE_KINDS: readonly string[] = PAGES.map((p) => p.kind);
