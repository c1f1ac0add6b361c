import type { EpisodeRecord } from '../../episode/index.js';
import type { ExperimentIdentity, ExperimentRunDir } from '../../run-dir/experiment-run-dir.js';
import type { Badges, ProvenanceFlags } from '../badges.js';
import type { ChartSpec, ReportChart } from '../charts.js';
import type { SafeHtml } from '../html.js';

/** The headings a benchmark's columns carry in the paper's tables (a benchmark definition's `paperColumns`). */
export interface PaperColumns {
  success: string;
  score?: string;
}

/** What a page's loader may ask of the run directory; every path is relative to it, with `/` separators. */
export interface ExperimentReader {
  run: ExperimentRunDir;
  identity: ExperimentIdentity;
  /** True when the file or folder exists in the run directory. */
  has(rel: string): boolean;
  /** The final record of each task of a run store, or null (with a warning) when the store is missing or unreadable. */
  storeRecords(rel: string): Map<number, EpisodeRecord> | null;
  /** A JSON file of the run directory, or undefined when it is absent. */
  json<T>(rel: string): T | undefined;
  warn(message: string): void;
  columnsOf(bench: string): PaperColumns;
}

/** How a page links into the run directory. */
export interface ExperimentView {
  badges: Badges;
  charts: readonly ReportChart[];
  /** The link to a file of the run directory, relative to the page. */
  href(rel: string): string;
  /** The link to one task's episode in a run store's own report (written beside its episodes). */
  episodeHref(store: string, task: number): string;
}

/** What a page shows in the header. */
export interface PageHeading {
  bench: string;
  subtitle: string;
  sections: readonly (readonly [string, string])[];
}

/**
 * One experiment's page of the HTML report. A page is found by the `kind` in the run's `experiment.json`;
 * a new experiment gets a page by adding one of these to `experiment-pages.ts`: a loader that reads its
 * artifact (`<kind>.json`) and the files behind its numbers, the charts, and the body.
 */
export interface ExperimentPage<M> {
  kind: string;
  load(reader: ExperimentReader): M;
  provenance(model: M): ProvenanceFlags;
  heading(model: M): PageHeading;
  charts(model: M): ChartSpec[];
  /** The run stores (relative folders) whose episodes the page links to; each gets its own report. */
  stores(model: M): string[];
  render(model: M, view: ExperimentView): SafeHtml;
}
