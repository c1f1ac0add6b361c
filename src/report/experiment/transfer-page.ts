import { formatPairedSummary, formatSeedSpread } from '../../statistics/index.js';
import type { ChartSpec } from '../charts.js';
import { formatPoints, formatReward } from '../format-numbers.js';
import { html, type SafeHtml } from '../html.js';
import type { EpisodeRecord } from '../../episode/index.js';
import type { ExperimentPage, ExperimentView } from './experiment-page.js';
import { heatColor, heatTextColor } from './heat-color.js';
import { at2Cell, at2Heading, strategyNote } from '../strategy-parts.js';
import { card, costTable, filesSection } from './page-parts.js';
import { loadTransferPage, type TransferCellFiles, type TransferPageModel } from './transfer-model.js';

const cellId = (c: TransferCellFiles) => `cell-${c.cell.bench}-${c.cell.dir.split(/[\\/]/).pop()}`;

function heatCell(c: TransferCellFiles, maxAbs: number): SafeHtml {
  const k = c.cell.counts;
  const d = k.paired.delta;
  return html`<td class="heat num" data-bench="${c.cell.bench}" data-cell="delta" data-direction="${c.cell.direction}" style="background:${heatColor(d, maxAbs)};color:${heatTextColor(d, maxAbs)};text-align:center" title="${formatPairedSummary(k.paired)}">
<a href="#${cellId(c)}" style="color:inherit"><strong>${formatPoints(d)}</strong></a><br>${k.baselinePass}→${k.patchedPass}/${k.tasks}<br><small>${formatPairedSummary(k.paired)}</small></td>`;
}

function heatmap(m: TransferPageModel, view: ExperimentView): SafeHtml {
  const a = m.artifact;
  const maxAbs = Math.max(0, ...a.cells.map((c) => Math.abs(c.counts.paired.delta)));
  const of = (t: string, b: string) => m.cells.find((c) => c.cell.target === t && c.cell.bench === b)!;
  return html`<section id="heatmap"><h2>Target × benchmark: pass-rate Δ (Figure 3 layout) ${view.badges.both}</h2>
<table class="transfer-heatmap"><caption>Each target's own patches vs its own baseline on the same matched tasks. Colour: red below 0, grey at 0, green above (full colour at ±${(Math.max(0.1, maxAbs) * 100).toFixed(1)} pp). Each cell: Δ, baseline→patched passes, the paired bootstrap 95% interval and the exact McNemar test (b = rescued, c = regressed); it links to the cell's patches and episodes.</caption>
<thead><tr><th>target</th>${a.benches.map((b) => html`<th class="num">${b.column}</th>`)}<th class="num">Avg.</th></tr></thead>
<tbody>${a.targets.map((t) => html`<tr data-target="${t.spec}"><td><code title="${t.label}">${t.spec}</code>${t.simulated ? html` <span class="badge sim">SIMULATED</span>` : ''}</td>${a.benches.map((b) => heatCell(of(t.spec, b.name), maxAbs))}<td class="num" data-cell="avg">${formatSeedSpread(a.byTarget.find((x) => x.target === t.spec)!.deltaRate)}</td></tr>`)}
<tr data-target="avg" class="pooled"><td><strong>Avg.</strong></td>${a.benches.map((b) => html`<td class="num" data-cell="avg-${b.name}">${formatSeedSpread(a.byBench.find((x) => x.bench === b.name)!.deltaRate)}</td>`)}<td class="num" data-cell="avg">${formatSeedSpread(a.overall.deltaRate)}</td></tr>
</tbody></table></section>`;
}

/** Reflection only: each cell's success@2 in a table of its own, apart from the heatmap (which stays success@1). */
function at2Table(m: TransferPageModel, view: ExperimentView): SafeHtml {
  const cells = m.cells.filter((c) => c.cell.successAt2);
  if (cells.length === 0) return html``;
  return html`<section id="at2"><h2>Reflection: success@2 per cell ${view.badges.both}</h2>
<table class="transfer-at2"><caption>Reflection runs a second episode after a failure, with its reflection in context; success@2 counts a task passed by the first or the second episode, over the cell's matched tasks. Its own figure: not comparable with the success@1 deltas of the heatmap, never paired, averaged into them or ranked against them.</caption>
<thead><tr><th>target</th><th>benchmark</th><th class="num at2">${at2Heading('baseline')}</th><th class="num at2">${at2Heading('patched')}</th></tr></thead>
<tbody>${cells.map((c) => {
    const s = c.cell.successAt2!;
    return html`<tr data-at2="${cellId(c)}"><td><a href="#${cellId(c)}"><code>${c.cell.target}</code></a></td><td>${c.cell.bench}</td>${at2Cell(s.baseline, 'baseline-at2', c.baselineStore ? view.href(`${c.baselineStore}/report.html`) : undefined)}${at2Cell(s.patched, 'patched-at2')}</tr>`;
  })}</tbody></table></section>`;
}

function episodeCell(record: EpisodeRecord | null, href: string | null, fallback: string): SafeHtml {
  if (record === null) return html`<td class="muted">${fallback}</td>`;
  const text = html`<code>${record.outcome}</code> (${formatReward(record.reward)})`;
  return html`<td>${href ? html`<a href="${href}">${text}</a>` : text}</td>`;
}

function cellDetails(c: TransferCellFiles, view: ExperimentView): SafeHtml {
  const k = c.cell.counts;
  return html`<details class="transfer-cell" id="${cellId(c)}"><summary><code>${c.cell.target}</code> × ${c.cell.bench}: ${formatPairedSummary(k.paired)}; ${c.cell.direction}${k.score ? html`; score ${formatPairedSummary(k.score)}` : ''}</summary>
<p>Baseline: ${c.baselineStore ? html`<a href="${view.href(`${c.baselineStore}/report.html`)}">${c.baselineStore}</a>` : html`<span class="muted">missing</span>`}. Batches: ${c.batches.map((b, i) => html`${i > 0 ? '; ' : ''}<code>${b.tag}</code> ${b.validPatch ? '' : html`<span class="muted">(no intervention)</span> `}${b.patch ? html`<a href="${view.href(b.patch)}">patch</a>` : ''}${b.verdict ? html` · <a href="${view.href(b.verdict)}">verdict</a>` : ''}${b.rerunStore ? html` · <a href="${view.href(`${b.rerunStore}/report.html`)}">rerun</a>` : ''}`)}.</p>
<table class="tasks"><thead><tr><th class="num">task</th><th>baseline</th><th>patched</th></tr></thead>
<tbody>${c.tasks.map((r) => html`<tr data-task="${r.task}"><td class="num">${r.task}</td>${episodeCell(r.baseline, c.baselineStore ? view.episodeHref(c.baselineStore, r.task) : null, 'not played')}${episodeCell(r.patched, r.patchedStore ? view.episodeHref(r.patchedStore, r.task) : null, 'no intervention: baseline kept')}</tr>`)}</tbody></table></details>`;
}

function render(m: TransferPageModel, view: ExperimentView): SafeHtml {
  const a = m.artifact;
  const o = a.overall;
  const b = view.badges;
  return html`<section id="summary"><h2>Summary ${b.both}</h2>
<div class="cards">
${card('Average Δ over cells (mean ± sd)', formatSeedSpread(o.deltaRate), 'average')}
${card('Improved / unchanged / regressed', `${o.improved} / ${o.unchanged} / ${o.regressed}`, 'directions')}
${card('Significant (95% CI excludes 0)', `${o.significantImproved} improved, ${o.significantRegressed} regressed`, 'significant')}
${card('Targets × benchmarks', `${a.targets.length} × ${a.benches.length}`, 'cells')}
</div>
<p>Engineer: <code>${a.engineer.label}</code> ${b.engineer}; batches of ${a.batchSize} tasks. Targets: ${a.targets.map((t, i) => html`${i > 0 ? ', ' : ''}<code>${t.label}</code>`)} ${b.target}.</p>
<p data-metric="excluded">${a.excludedTasks.length > 0 ? html`Left out of a benchmark's column for every target (infrastructure failure at some target's baseline): ${a.excludedTasks.map((t, i) => html`${i > 0 ? ', ' : ''}${t.bench} task ${t.task} (${t.where})`)}.` : 'No task was left out for an infrastructure failure.'}</p>
${strategyNote(m.strategy, 'every cell\'s baseline and reruns')}
</section>
${heatmap(m, view)}
${at2Table(m, view)}
<section id="cells"><h2>Per cell: patches and episodes ${b.both}</h2>
${m.cells.map((c) => cellDetails(c, view))}</section>
<section id="cost"><h2>Cost per role</h2>${costTable(a.cost, a.engineer.symbolic)}</section>
${filesSection(view, [
    ['transfer summary (every figure with its statistics)', 'transfer.json'],
    ['experiment settings', 'experiment.json'],
    ...m.cells.flatMap((c) => [
      ...(c.baselineStore ? [[`${c.cell.target} × ${c.cell.bench}: baseline`, `${c.baselineStore}/report.html`] as [string, string]] : []),
      ...c.batches.flatMap((x) => [
        ...(x.patch ? [[`${c.cell.target} × ${c.cell.bench}: ${x.tag} patch`, x.patch] as [string, string]] : []),
        ...(x.rerunStore ? [[`${c.cell.target} × ${c.cell.bench}: ${x.tag} rerun`, `${x.rerunStore}/report.html`] as [string, string]] : []),
      ]),
    ]),
  ])}`;
}

export const transferPage: ExperimentPage<TransferPageModel> = {
  kind: 'transfer',
  load: loadTransferPage,
  provenance: (m) => ({ simulatedTarget: m.artifact.targets.some((t) => t.simulated), symbolicEngineer: m.artifact.engineer.symbolic, targetLabel: m.artifact.targets.map((t) => t.label).join(', '), engineerLabel: m.artifact.engineer.label }),
  heading: (m) => ({
    bench: m.artifact.benches.map((b) => `${b.name}/${b.split}`).join(', '),
    subtitle: `cross-target transfer ${m.name}: ${m.artifact.targets.length} target(s) × ${m.artifact.benches.length} benchmark(s), each target's own baseline and patches`,
    sections: [['summary', 'Summary'], ['heatmap', 'Heatmap'], ...(m.cells.some((c) => c.cell.successAt2) ? [['at2', 'success@2'] as const] : []), ['cells', 'Per cell'], ['cost', 'Cost'], ['files', 'Files']],
  }),
  charts: (): ChartSpec[] => [],
  stores: (m) => [...new Set(m.cells.flatMap((c) => [c.baselineStore, ...c.batches.map((b) => b.rerunStore)].filter((x): x is string => x !== null)))],
  render,
};
