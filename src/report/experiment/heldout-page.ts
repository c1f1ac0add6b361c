import type { EpisodeRecord } from '../../episode/index.js';
import type { PairedCounts } from '../../experiments/heldout/heldout-summary.js';
import { formatPairedSummary, formatSeedSpread } from '../../statistics/index.js';
import type { ChartSpec } from '../charts.js';
import { formatPassCount, formatReward } from '../format-numbers.js';
import { html, type SafeHtml } from '../html.js';
import { CHART_COLORS, whiskerChart } from './experiment-charts.js';
import type { ExperimentPage, ExperimentView } from './experiment-page.js';
import { loadHeldoutPage, type HeldoutPageModel, type HeldoutSeedFiles, type HeldoutTaskRow } from './heldout-model.js';
import { at2Cell, at2Heading, at2Text, strategyNote } from '../strategy-parts.js';
import { card, chartsSection, filesSection, simulatedSuffix } from './page-parts.js';

function pairedCell(c: PairedCounts, name: string): SafeHtml {
  return html`<td class="num" data-cell="${name}">${formatPairedSummary(c.paired)}</td>`;
}

function storeLink(view: ExperimentView, store: string | null, text: string, cell: string): SafeHtml {
  return html`<td class="num" data-cell="${cell}">${store ? html`<a href="${view.href(`${store}/report.html`)}">${text}</a>` : text}</td>`;
}

function seedRow(m: HeldoutPageModel, files: HeldoutSeedFiles, view: ExperimentView): SafeHtml {
  const s = m.artifact.seeds.find((x) => x.seed === files.seed)!;
  const h = s.heldOut;
  const f = s.fullSplit;
  const patched = (c: PairedCounts) => formatPassCount(s.valid ? c.patchedPass : c.baselinePass, c.tasks);
  const hasScore = h.score !== undefined;
  return html`<tr data-seed="${s.seed}" class="${s.valid ? '' : 'invalid'}">
<td>${s.seed}</td>
<td data-cell="patch">${files.patch ? html`<a href="${view.href(files.patch)}">patch</a>` : html`<span class="muted">none</span>`}${files.verdict ? html` · <a href="${view.href(files.verdict)}">verdict</a>` : ''}${files.packet ? html` · <a href="${view.href(files.packet)}">packet</a>` : ''}</td>
<td data-cell="valid">${s.valid ? html`<span class="verdict valid">valid</span>` : html`<span class="verdict invalid" title="${s.validationError ?? ''}">no intervention</span>`}</td>
<td>${s.hooks.length > 0 ? s.hooks.map((k, i) => html`${i > 0 ? ', ' : ''}<code>${k}</code>`) : '—'}</td>
<td class="num" data-cell="evidence">${files.evidenceStore ? html`<a href="${view.href(`${files.evidenceStore}/report.html`)}">${s.evidenceTaskIds.length}</a>` : s.evidenceTaskIds.length}</td>
${storeLink(view, m.baselineStore, formatPassCount(h.baselinePass, h.tasks), 'heldout-baseline')}
${storeLink(view, files.heldOutStore, patched(h), 'heldout-patched')}
<td class="num pos" data-cell="rescued"><a href="#seed-${s.seed}-tasks">${h.rescued}</a></td>
<td class="num neg" data-cell="regressed"><a href="#seed-${s.seed}-tasks">${h.regressed}</a></td>
${pairedCell(h, 'heldout-delta')}
${hasScore ? html`<td class="num" data-cell="heldout-score">${h.score ? formatPairedSummary(h.score) : '—'}</td>` : ''}
${storeLink(view, m.baselineStore, formatPassCount(f.baselinePass, f.tasks), 'full-baseline')}
<td class="num" data-cell="full-patched">${patched(f)}</td>
${pairedCell(f, 'full-delta')}
${m.strategy === 'reflection' ? at2Cell(files.heldOutAt2, 'heldout-at2', files.heldOutStore ? view.href(`${files.heldOutStore}/report.html`) : undefined) : ''}
</tr>`;
}

function outcomeCell(record: EpisodeRecord | null, href: string | null, fallback: string): SafeHtml {
  if (record === null) return html`<td class="muted">${fallback}</td>`;
  const text = html`<code>${record.outcome}</code> (${formatReward(record.reward)})`;
  return html`<td>${href ? html`<a href="${href}">${text}</a>` : text}</td>`;
}

function change(r: HeldoutTaskRow): string {
  if (!r.baseline || !r.patched) return '';
  const before = r.baseline.outcome === 'success';
  const after = r.patched.outcome === 'success';
  return before === after ? '' : after ? 'rescued' : 'regressed';
}

function seedTasks(m: HeldoutPageModel, files: HeldoutSeedFiles, view: ExperimentView): SafeHtml {
  const valid = m.artifact.seeds.find((x) => x.seed === files.seed)!.valid;
  return html`<details class="seed-tasks" id="seed-${files.seed}-tasks"><summary>Seed ${files.seed}: every task, baseline and patched episode (${files.tasks.length} tasks)</summary>
<table class="tasks"><thead><tr><th class="num">task</th><th>role</th><th>baseline</th><th>patched</th><th>change</th></tr></thead>
<tbody>${files.tasks.map((r) => {
    const c = change(r);
    return html`<tr data-task="${r.task}" data-role="${r.role}" class="${c}"><td class="num">${r.task}</td><td>${r.role}</td>${outcomeCell(r.baseline, view.episodeHref(m.baselineStore, r.task), 'not played')}${outcomeCell(r.patched, r.patchedStore ? view.episodeHref(r.patchedStore, r.task) : null, valid ? 'not rerun' : 'no intervention: baseline kept')}<td>${c ? html`<span class="change ${c}">${c}</span>` : ''}</td></tr>`;
  })}</tbody></table></details>`;
}

function render(m: HeldoutPageModel, view: ExperimentView): SafeHtml {
  const a = m.artifact;
  const b = view.badges;
  const hasScore = a.seeds.some((s) => s.heldOut.score !== undefined);
  const reflection = m.strategy === 'reflection';
  return html`<section id="summary"><h2>Summary ${b.both}</h2>
<div class="cards">
${card('Pooled held-out Δ (mean ± sd over seeds)', formatSeedSpread(a.pooled.deltaRate), 'pooled-heldout')}
${card('Full split Δ (with the evidence tasks)', formatSeedSpread(a.fullSplit.deltaRate), 'pooled-full')}
${card('Valid patches', a.pooled.valid, 'valid')}
${card('Seeds × evidence failures', `${a.seeds.length} × ${a.evidencePerSeed}`, 'seeds')}
${reflection ? card(`${at2Heading('Baseline')} (Reflection)`, m.baselineAt2 ? at2Text(m.baselineAt2) : '—', 'baseline-at2') : ''}
</div>
${strategyNote(m.strategy, 'the baseline and every rerun')}
<p data-metric="headline">${a.pooled.headline}.</p>
<p>Target: <code>${a.target.label}</code> ${b.target}. Engineer: <code>${a.engineer.label}</code> ${b.engineer}. Per seed, ${a.evidencePerSeed} baseline failures were sampled as evidence, one patch was written from them and applied to every other task; a rejected patch is no intervention (Δ 0).</p>
${a.excludedTasks.length > 0 ? html`<p class="muted">Left out of every arm (baseline infrastructure failure): ${a.excludedTasks.map((t, i) => html`${i > 0 ? ', ' : ''}task ${t.task} (<code>${t.outcome}</code>)`)}.</p>` : ''}
</section>
${chartsSection(view.charts, b)}
<section id="seeds"><h2>Per seed: baseline → patched ${b.both}</h2>
<table class="heldout"><caption>Held-out tasks (the split minus the seed's evidence tasks) and the full split beside them. Every delta carries its paired bootstrap 95% interval and the exact McNemar test (b = rescued, c = regressed). Counts link to the run store's episodes; rescued and regressed to the seed's task list.</caption>
<thead><tr><th>seed</th><th>patch</th><th>valid</th><th>hooks</th><th class="num">evidence</th><th class="num">held-out baseline</th><th class="num">held-out patched</th><th class="num">rescued</th><th class="num">regressed</th><th class="num">held-out Δ</th>${hasScore ? html`<th class="num">held-out Δ score</th>` : ''}<th class="num">full-split baseline</th><th class="num">full-split patched</th><th class="num">full-split Δ</th>${reflection ? html`<th class="num at2" title="Reflection: the first or the second episode succeeded; not comparable with the success@1 columns">${at2Heading('held-out patched')}</th>` : ''}</tr></thead>
<tbody>${m.seeds.map((s) => seedRow(m, s, view))}
<tr data-seed="pooled" class="pooled"><td><strong>pooled</strong></td><td></td><td data-cell="valid">${a.pooled.valid}</td><td></td><td></td><td></td><td></td><td class="num">${a.seeds.reduce((x, s) => x + (s.valid ? s.heldOut.rescued : 0), 0)}</td><td class="num">${a.seeds.reduce((x, s) => x + (s.valid ? s.heldOut.regressed : 0), 0)}</td><td class="num" data-cell="heldout-delta">${formatSeedSpread(a.pooled.deltaRate)}</td>${hasScore ? html`<td></td>` : ''}<td></td><td></td><td class="num" data-cell="full-delta">${formatSeedSpread(a.fullSplit.deltaRate)}</td>${reflection ? html`<td></td>` : ''}</tr>
</tbody></table>
<p class="muted">Pooled: mean ± sample sd of the per-seed deltas (invalid patch = no intervention = 0).</p>
</section>
<section id="tasks"><h2>Per seed: every task ${b.target}</h2>
${m.seeds.map((s) => seedTasks(m, s, view))}</section>
${filesSection(view, [
    ['held-out summary (every figure with its statistics)', m.files.summary],
    ...(m.files.results ? [["results file (the original's results.json shape)", m.files.results] as [string, string]] : []),
    ['experiment settings', m.files.identity],
    ['baseline run store', `${m.baselineStore}/report.html`],
    ...m.seeds.flatMap((s) => [
      ...(s.patch ? [[`seed ${s.seed}: patch`, s.patch] as [string, string]] : []),
      ...(s.heldOutStore ? [[`seed ${s.seed}: held-out rerun`, `${s.heldOutStore}/report.html`] as [string, string]] : []),
      ...(s.evidenceStore ? [[`seed ${s.seed}: evidence rerun`, `${s.evidenceStore}/report.html`] as [string, string]] : []),
    ]),
  ])}`;
}

function charts(m: HeldoutPageModel): ChartSpec[] {
  const a = m.artifact;
  const sim = simulatedSuffix(a.target.simulated);
  const bars = (pick: 'heldOut' | 'fullSplit', pooled: typeof a.pooled.deltaRate) => [
    ...a.seeds.map((s) => ({ label: `seed ${s.seed}`, group: s.valid ? 'seed (95% CI)' : 'no intervention', value: s[pick].paired.delta * 100, low: s[pick].paired.ci.low * 100, high: s[pick].paired.ci.high * 100 })),
    { label: 'pooled', group: 'pooled (± sd)', value: pooled.mean * 100, low: (pooled.mean - (pooled.sd ?? 0)) * 100, high: (pooled.mean + (pooled.sd ?? 0)) * 100 },
  ];
  const groups = [{ name: 'seed (95% CI)', color: CHART_COLORS.seed }, { name: 'no intervention', color: CHART_COLORS.invalid }, { name: 'pooled (± sd)', color: CHART_COLORS.pooled }];
  return [
    whiskerChart({
      id: 'chart-heldout', title: `Held-out Δ pass rate per seed${sim}`, yTitle: 'Δ pass rate (pp)', groups, zeroLine: true, bars: bars('heldOut', a.pooled.deltaRate),
      caption: `Patched minus baseline pass rate on each seed's held-out tasks; whiskers are the paired bootstrap 95% interval, and ± one sample sd over seeds for the pooled bar.${sim ? ' SIMULATED target: not a real model’s results.' : ''}`,
    }),
    whiskerChart({
      id: 'chart-full-split', title: `Full split Δ pass rate per seed${sim}`, yTitle: 'Δ pass rate (pp)', groups, zeroLine: true, bars: bars('fullSplit', a.fullSplit.deltaRate),
      caption: `The same with the evidence tasks included (the figure reported beside the held-out one).${sim ? ' SIMULATED target.' : ''}`,
    }),
  ];
}

export const heldoutPage: ExperimentPage<HeldoutPageModel> = {
  kind: 'heldout',
  load: loadHeldoutPage,
  provenance: (m) => ({ simulatedTarget: m.artifact.target.simulated, symbolicEngineer: m.artifact.engineer.symbolic, targetLabel: m.artifact.target.label, engineerLabel: m.artifact.engineer.label }),
  heading: (m) => ({
    bench: `${m.artifact.bench}/${m.artifact.split}`,
    subtitle: `held-out generalization ${m.name}: ${m.artifact.seeds.length} seed(s) × ${m.artifact.evidencePerSeed} evidence failures, one patch per seed (${m.artifact.editor.displayName})`,
    sections: [['summary', 'Summary'], ['charts', 'Charts'], ['seeds', 'Per seed'], ['tasks', 'Per task'], ['files', 'Files']],
  }),
  charts,
  stores: (m) => [m.baselineStore, ...m.seeds.flatMap((s) => [s.heldOutStore, s.evidenceStore].filter((x): x is string => x !== null))],
  render,
};
