import { existsSync } from 'node:fs';
import path from 'node:path';

import type { EpisodeRecord } from '../../episode/index.js';
import { readJsonArtifact, writeArtifact } from '../../run-dir/artifact-file.js';
import { EXPERIMENT_LAYOUT, ExperimentRunDir, type ExperimentIdentity } from '../../run-dir/experiment-run-dir.js';
import { loadRunArtifacts, RunArtifactError } from '../../run-dir/read-run.js';
import { makeBadges, renderBanners } from '../badges.js';
import { renderVegaLiteSvg, type ReportChart } from '../charts.js';
import { html } from '../html.js';
import { renderPageShell } from '../page-shell.js';
import { writeReport, REPORT_FILE_NAME } from '../write-report.js';
import { experimentPageOf } from './experiment-pages.js';
import type { ExperimentReader, ExperimentView, PaperColumns } from './experiment-page.js';

/** True when the directory is an experiment's run directory (it holds `experiment.json`). */
export function holdsExperimentRun(dir: string): boolean {
  return existsSync(path.join(path.resolve(dir), EXPERIMENT_LAYOUT.identity));
}

export interface WriteExperimentReportOptions {
  runDir: string;
  /** The HTML file to write (default `<runDir>/report.html`); links into the run directory are relative to it. */
  out?: string;
  now?: () => Date;
  /** A benchmark's column headings in the paper's tables (default `<bench> Succ.` / `<bench> Score`). */
  columnsOf?: (bench: string) => PaperColumns | undefined;
}

export interface WriteExperimentReportResult {
  file: string;
  kind: string;
  labels: string[];
  warnings: string[];
  /** The run stores that got their own report (relative to the run directory). */
  storeReports: string[];
  bytes: number;
}

const posix = (p: string) => p.split(path.sep).join('/');

/**
 * The report of an experiment run directory: its page (found by the experiment's kind), and a report of
 * every run store the page links to (`<store>/report.html`, one section per episode), so that every
 * number links to the episodes behind it. Reads only stored artifacts; nothing is replayed.
 */
export async function writeExperimentReport(options: WriteExperimentReportOptions): Promise<WriteExperimentReportResult> {
  const run = new ExperimentRunDir(options.runDir);
  const identity = readJsonArtifact<ExperimentIdentity>(run.experimentIdentityFile);
  if (!identity || typeof identity.kind !== 'string') throw new RunArtifactError({ file: EXPERIMENT_LAYOUT.identity, problem: 'invalid_shape', message: 'expected the experiment identity (kind, settings)' });
  const page = experimentPageOf(identity.kind);
  const warnings: string[] = [];
  const reader: ExperimentReader = {
    run,
    identity,
    has: (rel) => existsSync(path.join(run.root, rel)),
    json: <T>(rel: string) => readJsonArtifact<T>(path.join(run.root, rel)),
    warn: (message) => warnings.push(message),
    storeRecords: (rel) => {
      try {
        const a = loadRunArtifacts(path.join(run.root, rel));
        if (a.kind !== 'run') return null;
        warnings.push(...a.warnings.map((w) => `${rel}: ${w}`));
        return new Map<number, EpisodeRecord>(a.run.records.map((r) => [r.task.index, r]));
      } catch (error) {
        warnings.push(`${rel}: ${error instanceof Error ? error.message : String(error)}`);
        return null;
      }
    },
    columnsOf: (bench) => options.columnsOf?.(bench) ?? { success: `${bench} Succ.`, score: `${bench} Score` },
  };
  const model = page.load(reader);
  const now = (options.now ?? (() => new Date()))();

  const storeReports: string[] = [];
  for (const store of page.stores(model)) {
    await writeReport({ runDir: path.join(run.root, store), now: () => now });
    storeReports.push(store);
  }

  const file = path.resolve(options.out ?? path.join(run.root, REPORT_FILE_NAME));
  const prefix = posix(path.relative(path.dirname(file), run.root));
  const href = (rel: string) => (prefix === '' ? rel : `${prefix}/${rel}`);
  const charts: ReportChart[] = [];
  for (const { spec, ...rest } of page.charts(model)) charts.push({ ...rest, svg: await renderVegaLiteSvg(spec) });
  const p = page.provenance(model);
  const badges = makeBadges(p);
  const view: ExperimentView = { badges, charts, href, episodeHref: (store, task) => href(`${store}/${REPORT_FILE_NAME}#task-${task}`) };
  const heading = page.heading(model);
  const body = page.render(model, view);
  const labels = [p.simulatedTarget ? 'SIMULATED TARGET' : null, p.symbolicEngineer ? 'SYMBOLIC ENGINEER' : null].filter((x): x is string => x !== null);
  const text = renderPageShell({
    title: `harness-r1 report · ${identity.kind} · ${heading.bench} · ${path.basename(run.root)}${p.simulatedTarget ? ' · SIMULATED' : ''}`,
    heading: html`harness-r1 ${identity.kind} experiment: ${heading.bench} ${badges.both}`,
    subtitle: heading.subtitle,
    bodyData: [['report-kind', 'experiment'], ['experiment', identity.kind], ['simulated-target', String(p.simulatedTarget)], ['symbolic-engineer', String(p.symbolicEngineer)]],
    banners: html`${renderBanners(p)}
${warnings.map((w) => html`<div class="banner warn">${w}</div>`)}`,
    sections: heading.sections,
    body,
    footer: html`Made by <code>harness-r1 report</code> from the experiment's stored artifacts only; nothing was replayed.`,
    generatedAt: now.toISOString(),
  });
  writeArtifact(file, text);
  return { file, kind: identity.kind, labels, warnings, storeReports, bytes: Buffer.byteLength(text) };
}

