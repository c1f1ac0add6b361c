import type { EpisodeRecord } from '../../episode/index.js';
import type { AblationArtifact, AblationRow } from '../../experiments/ablation/ablation-summary.js';
import { formatPairedSummary, type SeedSpread } from '../../statistics/index.js';
import type { ChartSpec } from '../charts.js';
import { formatReward } from '../format-numbers.js';
import { html, type SafeHtml } from '../html.js';
import { RunArtifactError } from '../../run-dir/read-run.js';
import { CHART_COLORS, whiskerChart } from './experiment-charts.js';
import type { ExperimentPage, ExperimentReader, ExperimentView, PaperColumns } from './experiment-page.js';
import { at2Heading, at2Text, recordsAt2, strategyNote, strategyOf } from '../strategy-parts.js';
import { card, chartsSection, filesSection, simulatedSuffix } from './page-parts.js';

export interface AblationPageModel {
  name: string;
  artifact: AblationArtifact;
  columns: PaperColumns;
  /** `patch.json`: the ablated patch as the run stored it; null for runs made before it was stored. */
  patch: string | null;
  /** Per repeat (1-based), per arm: the run store and its final records. */
  stores: Map<string, Map<number, EpisodeRecord> | null>;
  /** The baseline target strategy every arm was played with (`--strategy`), null for the plain target. */
  strategy: string | null;
}

function load(reader: ExperimentReader): AblationPageModel {
  const raw = reader.json<AblationArtifact>('ablation.json');
  if (raw === undefined) throw new RunArtifactError({ file: 'ablation.json', problem: 'missing', message: 'is missing: the ablation has not finished; run the same command again to resume it.' });
  if (raw.schemaVersion !== 1 || raw.kind !== 'ablation' || !Array.isArray(raw.rows) || raw.rows[0]?.arm !== 'full') {
    throw new RunArtifactError({ file: 'ablation.json', problem: 'invalid_shape', message: 'expected an ablation summary (schemaVersion 1, kind ablation, rows starting with full)' });
  }
  const stores = new Map<string, Map<number, EpisodeRecord> | null>();
  for (const dir of new Set(raw.rows.flatMap((r) => r.runs))) stores.set(dir, reader.has(dir) ? reader.storeRecords(dir) : null);
  for (const [dir, records] of stores) if (records === null) reader.warn(`${dir}: the arm's run store is missing.`);
  return { name: reader.run.root.split(/[\\/]/).pop() ?? '', artifact: raw, columns: reader.columnsOf(raw.bench), patch: reader.has('patch.json') ? 'patch.json' : null, stores, strategy: strategyOf(reader.identity.settings) };
}

const pct = (x: number) => (x * 100).toFixed(1);
const signedPct = (x: number) => {
  const r = Number((x * 100).toFixed(1));
  return `${r >= 0 ? '+' : '−'}${Math.abs(r).toFixed(1)}`;
};

/** `75.0 ± 35.4 (−62.5)`: mean ± sample sd over repeats in %, the drop vs the full patch in brackets (pp). */
export function ablationCell(value: SeedSpread, drop: number | null): string {
  return `${pct(value.mean)}${value.sd === null ? '' : ` ± ${pct(value.sd)}`}${drop === null ? '' : ` (${signedPct(drop)})`}`;
}

function rowHtml(m: AblationPageModel, row: AblationRow, view: ExperimentView): SafeHtml {
  const full = m.artifact.rows[0]!;
  const isFull = row.arm === 'full';
  const hasScore = full.score !== undefined;
  const scoreDrop = row.score && full.score && !isFull ? row.score.mean - full.score.mean : null;
  return html`<tr data-arm="${row.arm}" class="${isFull ? 'full' : ''}">
<td>${row.label}${row.sameAsFull ? html` <span class="muted">= full (no hook there)</span>` : ''}</td>
<td class="num" data-cell="success">${ablationCell(row.success, isFull ? null : row.dropVsFull.mean)}</td>
${hasScore ? html`<td class="num" data-cell="score">${row.score ? ablationCell(row.score, scoreDrop) : '—'}</td>` : ''}
<td class="num" data-cell="avg">${ablationCell(row.success, isFull ? null : row.dropVsFull.mean)}</td>
<td class="num" data-cell="paired">${row.paired ? formatPairedSummary(row.paired) : '—'}${row.pairedScore ? html`<br><span class="muted">score ${formatPairedSummary(row.pairedScore)}</span>` : ''}</td>
<td data-cell="runs">${row.runs.map((dir, i) => html`${i > 0 ? ' ' : ''}<a href="${view.href(`${dir}/report.html`)}">r${i + 1}</a>`)}</td>
${m.strategy === 'reflection' ? at2Runs(m, row, view) : ''}
</tr>`;
}

/** Reflection only: success@2 of each repeat's run store of the arm (its own figure; the success columns stay success@1). */
function at2Runs(m: AblationPageModel, row: AblationRow, view: ExperimentView): SafeHtml {
  if (row.sameAsFull) return html`<td class="num at2 muted" data-cell="at2">= full</td>`;
  return html`<td class="num at2" data-cell="at2">${row.runs.map((dir, i) => {
    const s = recordsAt2(m.stores.get(dir)?.values());
    return html`${i > 0 ? html`<br>` : ''}<a href="${view.href(`${dir}/report.html`)}">r${i + 1}</a> ${s ? at2Text(s) : '—'}`;
  })}</td>`;
}

function taskMatrix(m: AblationPageModel, view: ExperimentView): SafeHtml {
  const a = m.artifact;
  const tasks = [...new Set([...(m.stores.get(a.rows[0]!.runs[0]!)?.keys() ?? [])])].filter((t) => !a.excludedTasks.some((x) => x.task === t)).sort((x, y) => x - y);
  return html`${a.rows[0]!.runs.map((_, r) => html`<details class="repeat-tasks" id="repeat-${r + 1}-tasks"><summary>Repeat ${r + 1} (${a.repeatTargets[r] ?? ''}): every task in every arm</summary>
<table class="tasks"><thead><tr><th class="num">task</th>${a.rows.map((row) => html`<th class="num">${row.arm}</th>`)}</tr></thead>
<tbody>${tasks.map((t) => html`<tr data-task="${t}"><td class="num">${t}</td>${a.rows.map((row) => {
    const dir = row.runs[r]!;
    const record = m.stores.get(dir)?.get(t);
    return html`<td class="num">${record ? html`<a href="${view.episodeHref(dir, t)}" title="${record.outcome}">${formatReward(record.reward)}</a>` : '—'}</td>`;
  })}</tr>`)}</tbody></table></details>`)}`;
}

function render(m: AblationPageModel, view: ExperimentView): SafeHtml {
  const a = m.artifact;
  const b = view.badges;
  const hasScore = a.rows[0]!.score !== undefined;
  const full = a.rows[0]!;
  return html`<section id="summary"><h2>Summary ${b.target}</h2>
<div class="cards">
${card('Full patch success', ablationCell(full.success, null), 'full-success')}
${card('No intervention', ablationCell(a.rows.find((r) => r.arm === 'none')!.success, a.rows.find((r) => r.arm === 'none')!.dropVsFull.mean), 'none-success')}
${card('Tasks × repeats', `${a.tasks} × ${a.repeats}`, 'tasks-repeats')}
</div>
<p>Patch: ${m.patch ? html`<a href="${view.href(m.patch)}">${m.patch}</a> (from <code>${a.patchSource}</code>)` : html`<code>${a.patchSource}</code>`}; hooks: ${a.patchHooks.map((h, i) => html`${i > 0 ? ', ' : ''}<code>${h}</code>`)}. Target per repeat: ${a.repeatTargets.map((t, i) => html`${i > 0 ? '; ' : ''}<code>${t}</code>`)} ${b.target}.</p>
${strategyNote(m.strategy, 'every arm of every repeat')}
${a.excludedTasks.length > 0 ? html`<p class="muted">Left out of every arm (infrastructure failure after retries): ${a.excludedTasks.map((t, i) => html`${i > 0 ? ', ' : ''}task ${t.task} (${t.where})`)}.</p>` : ''}
</section>
${chartsSection(view.charts, b)}
<section id="table"><h2>Lifecycle ablation (Table 13.1 layout) ${b.target}</h2>
<table class="ablation"><caption>Success in %, mean ± sample sd over repeats; the drop vs the full patch in brackets (pp). Avg. is the equal-weight mean of the benchmark columns. The last columns pair each arm with the full patch over tasks × repeats (bootstrap 95% interval, exact McNemar test) and link each repeat's run store.</caption>
<thead><tr><th>Arm</th><th class="num">${m.columns.success}</th>${hasScore ? html`<th class="num">${m.columns.score ?? `${a.bench} Score`}</th>` : ''}<th class="num">Avg.</th><th class="num">vs full (paired)</th><th>runs</th>${m.strategy === 'reflection' ? html`<th class="num at2" title="Reflection: the first or the second episode succeeded; not comparable with the success@1 columns">${at2Heading()}</th>` : ''}</tr></thead>
<tbody>${a.rows.map((row) => rowHtml(m, row, view))}</tbody></table></section>
<section id="tasks"><h2>Per task and arm ${b.target}</h2>
<p class="muted">Each cell is the task's reward in that arm; it links to the episode.</p>
${taskMatrix(m, view)}</section>
${filesSection(view, [
    ['ablation summary (every figure with its statistics)', 'ablation.json'],
    ['experiment settings', 'experiment.json'],
    ...(m.patch ? [['the ablated patch', m.patch] as [string, string]] : []),
    ...[...m.stores.keys()].filter((d) => m.stores.get(d) !== null).map((d) => [`run store ${d}`, `${d}/report.html`] as [string, string]),
  ])}`;
}

function charts(m: AblationPageModel): ChartSpec[] {
  const a = m.artifact;
  const sim = simulatedSuffix(a.target.simulated);
  const group = (r: AblationRow) => (r.arm === 'full' ? 'full patch' : r.arm === 'none' ? 'no intervention' : 'position disabled');
  const groups = [{ name: 'full patch', color: CHART_COLORS.full }, { name: 'no intervention', color: CHART_COLORS.none }, { name: 'position disabled', color: CHART_COLORS.arm }];
  const short = (r: AblationRow) => (r.arm === 'full' ? 'full' : r.arm === 'none' ? 'none' : r.arm.replace(/^no_/, 'w/o '));
  return [
    whiskerChart({
      id: 'chart-ablation', title: `Success per arm${sim}`, yTitle: 'success (%)', groups, labelAngle: -30,
      bars: a.rows.map((r) => ({ label: short(r), group: group(r), value: r.success.mean * 100, low: (r.success.mean - (r.success.sd ?? 0)) * 100, high: (r.success.mean + (r.success.sd ?? 0)) * 100 })),
      caption: `Pass rate of every arm, mean over repeats with ± one sample sd.${sim ? ' SIMULATED target: not a real model’s results.' : ''}`,
    }),
    whiskerChart({
      id: 'chart-ablation-drop', title: `Drop vs the full patch${sim}`, yTitle: 'Δ success vs full (pp)', groups, zeroLine: true, labelAngle: -30,
      bars: a.rows.filter((r) => r.paired).map((r) => ({ label: short(r), group: group(r), value: r.paired!.delta * 100, low: r.paired!.ci.low * 100, high: r.paired!.ci.high * 100 })),
      caption: `Each arm minus the full patch, paired over tasks × repeats; whiskers are the paired bootstrap 95% interval.${sim ? ' SIMULATED target.' : ''}`,
    }),
  ];
}

export const ablationPage: ExperimentPage<AblationPageModel> = {
  kind: 'ablation',
  load,
  provenance: (m) => ({ simulatedTarget: m.artifact.target.simulated, symbolicEngineer: false, targetLabel: m.artifact.target.label, engineerLabel: null }),
  heading: (m) => ({
    bench: `${m.artifact.bench}/${m.artifact.split}`,
    subtitle: `lifecycle ablation ${m.name}: ${m.artifact.rows.length} arms × ${m.artifact.repeats} repeat(s) on ${m.artifact.tasks} task(s)`,
    sections: [['summary', 'Summary'], ['charts', 'Charts'], ['table', 'Table'], ['tasks', 'Per task'], ['files', 'Files']],
  }),
  charts,
  stores: (m) => [...m.stores.keys()].filter((d) => m.stores.get(d) !== null),
  render,
};
