import type { ExperimentCost } from '../../experiments/shared/experiment-cost.js';
import type { MainBench, MainBenchCell, MainRow } from '../../experiments/main-table/main-summary.js';
import { formatPairedSummary } from '../../statistics/index.js';
import type { ChartSpec } from '../charts.js';
import { html, type SafeHtml } from '../html.js';
import type { ExperimentPage, ExperimentView } from './experiment-page.js';
import { loadMainPage, type MainCellFiles, type MainPageModel } from './main-model.js';
import { card, costTable, filesSection } from './page-parts.js';

/** `50.0`: a rate (or a mean reward) in % with one decimal, as the paper's Table 1 prints them. */
export const mainPct = (x: number) => (x * 100).toFixed(1);
/** `+12.5` / `−5.0`: a delta in points. */
export const mainSigned = (x: number) => {
  const r = Number((x * 100).toFixed(1));
  return `${r >= 0 ? '+' : '−'}${Math.abs(r).toFixed(1)}`;
};

/** What kind of row it is, for its class and its label: the first row is the default harness. */
function rowKind(m: MainPageModel, row: MainRow): string {
  if (row.strategy !== undefined) return 'strategy';
  if (row.engineer !== undefined) return 'engineer';
  return row.row === m.artifact.rows[0]!.row ? 'default' : 'other';
}

const hasScore = (m: MainPageModel, b: MainBench) => m.artifact.rows.some((r) => r.cells.some((c) => c.bench === b.name && c.score !== undefined));

function valueCell(name: string, value: number, delta: number | null, stat: string | null): SafeHtml {
  return html`<td class="num" data-cell="${name}"><span class="v">${mainPct(value)}</span>${delta === null ? '' : html` <span class="d">(${mainSigned(delta)})</span>`}${stat ? html`<br><small class="muted">${stat}</small>` : ''}</td>`;
}

function benchCells(m: MainPageModel, b: MainBench, cell: MainBenchCell | undefined, base: MainBenchCell | undefined): SafeHtml {
  const families = m.families.get(b.name) ?? [];
  const n = (hasScore(m, b) ? 1 : 0) + families.length + 1;
  if (!cell) return html`${Array.from({ length: n }, () => html`<td class="num muted">—</td>`)}`;
  const v = cell.vsDefault;
  const score = hasScore(m, b) ? (cell.score === undefined ? html`<td class="num muted">—</td>` : valueCell(`${b.name}-score`, cell.score, v && base?.score !== undefined ? cell.score - base.score : null, v?.score ? formatPairedSummary(v.score) : null)) : html``;
  const fams = families.map((f) => {
    const mine = cell.families.find((x) => x.family === f);
    const theirs = base?.families.find((x) => x.family === f);
    return mine ? valueCell(`${b.name}-${f}`, mine.success, v && theirs ? mine.success - theirs.success : null, null) : html`<td class="num muted">—</td>`;
  });
  return html`${score}${fams}${valueCell(`${b.name}-success`, cell.success, v ? v.success.delta : null, v ? `${formatPairedSummary(v.success)}; rescued ${v.rescued}, regressed ${v.regressed}` : null)}`;
}

function sumCost(cells: readonly MainBenchCell[]): ExperimentCost | null {
  if (cells.some((c) => !c.cost)) return null;
  const z = () => ({ modelCalls: 0, promptTokens: 0, completionTokens: 0, items: 0 });
  const out: ExperimentCost = { target: z(), engineer: z() };
  for (const c of cells) for (const role of ['target', 'engineer'] as const) for (const k of ['modelCalls', 'promptTokens', 'completionTokens', 'items'] as const) out[role][k] += c.cost![role][k];
  return out;
}

function runLinks(view: ExperimentView, m: MainPageModel, files: MainCellFiles[]): SafeHtml {
  return html`${m.artifact.benches.map((b, i) => html`<div>${b.name}: ${files[i]!.stores.map((s, j) => html`${j > 0 ? ' · ' : ''}<a href="${view.href(`${s.dir}/report.html`)}">${s.label}</a>`)}${files[i]!.patches.map((p) => html` · <a href="${view.href(p.file)}">${p.label} patch</a>`)}</div>`)}`;
}

function rowHtml(m: MainPageModel, row: MainRow, index: number, view: ExperimentView): SafeHtml {
  const a = m.artifact;
  const base = a.rows.find((r) => r.target === row.target && r.row === a.rows[0]!.row);
  const kind = rowKind(m, row);
  const target = a.targets.find((t) => t.spec === row.target);
  const cost = sumCost(row.cells);
  const n = (x: number) => x.toLocaleString('en-US');
  const at2 = row.cells.filter((c) => c.successAt2);
  return html`<tr data-row="${row.target}|${row.row}" data-kind="${kind}" class="${kind}">
<td><code title="${target?.label ?? ''}">${row.target}</code>${target?.simulated ? html` <span class="badge sim">SIMULATED</span>` : ''}</td>
<td>${row.label}${row.engineer && a.engineers.find((e) => e.spec === row.engineer)?.symbolic ? html` <span class="badge sym">SYMBOLIC ENGINEER</span>` : ''}</td>
${a.benches.map((b) => benchCells(m, b, row.cells.find((c) => c.bench === b.name), base?.cells.find((c) => c.bench === b.name)))}
${valueCell('avg', row.avg, row.avgDelta ?? null, null)}
<td class="num at2" data-cell="at2">${row.avgAt2 === undefined ? html`<span class="muted">—</span>` : html`<span class="v">${mainPct(row.avgAt2)}</span><br><small class="muted">${at2.map((c, i) => html`${i > 0 ? '; ' : ''}${c.bench} ${c.successAt2!.success2}/${c.successAt2!.tasks} (${c.successAt2!.rescued}/${c.successAt2!.retried} rescued)`)}</small>`}</td>
<td class="num" data-cell="cost">${cost ? html`target ${n(cost.target.modelCalls)} calls, ${n(cost.target.promptTokens + cost.target.completionTokens)} tok<br>engineer ${n(cost.engineer.modelCalls)} calls, ${n(cost.engineer.promptTokens + cost.engineer.completionTokens)} tok` : '—'}</td>
<td data-cell="runs">${runLinks(view, m, m.files[index]!)}</td>
</tr>`;
}

function render(m: MainPageModel, view: ExperimentView): SafeHtml {
  const a = m.artifact;
  const b = view.badges;
  const heads = a.benches.flatMap((x) => [
    ...(hasScore(m, x) ? [x.columns.score ?? `${x.name} Score`] : []),
    ...(m.families.get(x.name) ?? []).map((f) => `${x.columns.success.split(' ')[0]} ${f}`),
    x.columns.success,
  ]);
  const excluded = a.rows[0]?.cells.filter((c) => c.excludedTasks.length > 0) ?? [];
  return html`<section id="summary"><h2>Summary ${b.both}</h2>
<div class="cards">
${card('Rows', `${a.rows.length} (${a.targets.length} target(s))`, 'rows')}
${card('Benchmarks', a.benches.map((x) => `${x.name}/${x.split}`).join(', '), 'benches')}
${card('Tasks per benchmark', a.rows[0]?.cells.map((c) => `${c.bench} ${c.tasks}`).join(', ') ?? '—', 'tasks')}
</div>
<p>Engineers: ${a.engineers.map((e, i) => html`${i > 0 ? ', ' : ''}<code>${e.label}</code>${e.symbolic ? html` ${b.engineer}` : ''}`)}; batches of ${a.batchSize} tasks. Targets: ${a.targets.map((t, i) => html`${i > 0 ? ', ' : ''}<code>${t.label}</code>`)} ${b.target}.</p>
<p data-metric="excluded">${excluded.length > 0 ? html`Left out (infrastructure failure at the default harness's episode): ${excluded.map((c, i) => html`${i > 0 ? '; ' : ''}${c.bench} task(s) ${c.excludedTasks.join(', ')}`)}.` : 'No task was left out for an infrastructure failure.'}</p>
</section>
<section id="table"><h2>Main results (Table 1 layout) ${b.both}</h2>
<table class="main-table"><caption>Success (and Score) in %, the change vs the default harness of the same target in brackets (pp), and beneath it the paired bootstrap 95% interval and the exact McNemar test on the same tasks. Avg. is the equal-weight mean of the benchmarks' success columns (success@1 for every row). Reflection's success@2 (a second episode after a failure) is in its own column and is never compared with success@1.</caption>
<thead><tr><th>target</th><th>row</th>${heads.map((h) => html`<th class="num">${h}</th>`)}<th class="num">Avg.</th><th class="num">success@2 (Reflection only, not ranked)</th><th class="num">cost</th><th>runs</th></tr></thead>
<tbody>${a.rows.map((row, i) => rowHtml(m, row, i, view))}</tbody></table></section>
<section id="cost"><h2>Cost per role</h2>${costTable(a.cost, a.engineers.length > 0 && a.engineers.every((e) => e.symbolic))}</section>
${filesSection(view, [
    ['main-table summary (every figure with its statistics)', 'main.json'],
    ['experiment settings', 'experiment.json'],
    ...[...new Set(m.files.flat().flatMap((f) => f.stores.map((s) => s.dir)))].map((d) => [`run store ${d}`, `${d}/report.html`] as [string, string]),
    ...m.files.flat().flatMap((f) => f.patches.map((p) => [`patch ${p.file}`, p.file] as [string, string])),
  ])}`;
}

export const mainPage: ExperimentPage<MainPageModel> = {
  kind: 'main',
  load: loadMainPage,
  provenance: (m) => ({ simulatedTarget: m.artifact.targets.some((t) => t.simulated), symbolicEngineer: m.artifact.engineers.some((e) => e.symbolic), targetLabel: m.artifact.targets.map((t) => t.label).join(', '), engineerLabel: m.artifact.engineers.filter((e) => e.symbolic).map((e) => e.label).join(', ') || null }),
  heading: (m) => ({
    bench: m.artifact.benches.map((b) => `${b.name}/${b.split}`).join(', '),
    subtitle: `main table ${m.name}: ${m.artifact.rows.length} row(s) over ${m.artifact.targets.length} target(s)`,
    sections: [['summary', 'Summary'], ['table', 'Table'], ['cost', 'Cost'], ['files', 'Files']],
  }),
  charts: (): ChartSpec[] => [],
  stores: (m) => [...new Set(m.files.flat().flatMap((f) => f.stores.map((s) => s.dir)))],
  render,
};
