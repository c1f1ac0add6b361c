import type { EpisodeRecord } from '../episode/index.js';
import { canonicalJson } from '../evaluation/improve/rerun-cache-key.js';
import { familyOf, hasFamilies, summarizeFamilies } from '../evaluation/summarize-families.js';
import type { ModelTurnHealth } from '../evaluation/model-turn-health.js';
import { summarizeRun } from '../evaluation/summarize-run.js';
import type { ReportChart } from './charts.js';
import { describeStatus } from './describe-status.js';
import { formatPassCount, formatPercent, formatPoints, formatReward, formatSigned } from './format-numbers.js';
import { html, slug, trustedHtml, type HtmlValue, type SafeHtml } from './html.js';
import type { RunArtifacts } from '../run-dir/read-run.js';
import { describeProvenance, type Provenance } from './provenance.js';
import { makeBadges, renderBanners, type Badges } from './badges.js';
import { renderPageShell } from './page-shell.js';
import { renderEpisode, renderHookFirings } from './render-episode.js';
import { modelTurnHealthOf, renderModelTurnBanners, renderModelTurnCounts } from './render-model-turns.js';
import { renderBatchPatch } from './render-patch.js';
import { at2Cells, at2Headings, improveStrategyView } from './improve-at2.js';
import { at2Heading, at2Text, strategyNote } from './strategy-parts.js';
import { buildTaskRows, type TaskChange, type TaskRow } from './task-rows.js';

export interface RenderReportOptions {
  /** When the report was made (ISO time), printed in the footer; left out when not given, so output is reproducible. */
  generatedAt?: string;
}

type ImproveArtifacts = Extract<RunArtifacts, { kind: 'improve' }>;
type PlainRunArtifacts = Extract<RunArtifacts, { kind: 'run' }>;

function card(label: string, value: HtmlValue, metric: string, tone: 'pos' | 'neg' | '' = ''): SafeHtml {
  return html`<div class="card"><div class="label">${label}</div><div class="value ${tone}" data-metric="${metric}">${value}</div></div>`;
}

function tone(x: number): 'pos' | 'neg' | '' {
  return x > 0 ? 'pos' : x < 0 ? 'neg' : '';
}

function renderCharts(charts: readonly ReportChart[], badges: Badges): SafeHtml {
  if (charts.length === 0) return html``;
  return html`<section id="charts"><h2>Charts ${badges.target}</h2><div class="charts">${charts.map(
    (c) => html`<figure id="${c.id}" aria-label="${c.title}">${trustedHtml(c.svg)}<figcaption>${c.caption}</figcaption></figure>`,
  )}</div></section>`;
}

const CHANGE_TEXT: Record<TaskChange, string> = {
  rescued: 'rescued (fail → pass)',
  regressed: 'regressed (pass → fail)',
  still_pass: 'pass → pass',
  still_fail: 'fail → fail',
  excluded: 'excluded (baseline infrastructure failure)',
  not_rerun: 'not rerun',
  missing: 'rerun missing',
  single: '',
};

function outcomeCell(record: EpisodeRecord | null): SafeHtml {
  if (record === null) return html`<span class="muted">—</span>`;
  return html`<code>${record.outcome}</code> (${formatReward(record.reward)})`;
}

function taskAnchor(index: number): string {
  return `task-${index}`;
}

function renderTaskTable(rows: readonly TaskRow[], badges: Badges): SafeHtml {
  return html`<section id="tasks"><h2>Per task: before and after ${badges.target}</h2>
<table class="tasks"><caption>Baseline (no harness) and patched outcome of every task, with the reward in brackets; the hooks listed are those that fired in the patched episode.</caption>
<thead><tr><th class="num">task</th><th>batch</th><th>type</th><th>baseline</th><th>patched</th><th>change</th><th>hooks fired (patched)</th></tr></thead>
<tbody>${rows.map(
    (r) => html`<tr class="${r.change}" data-task="${r.index}"><td class="num"><a href="#${taskAnchor(r.index)}">${r.index}</a></td><td>${r.batchTag ?? ''}</td><td>${r.type ?? ''}</td><td>${outcomeCell(r.baseline)}</td><td>${outcomeCell(r.patched)}</td><td><span class="change ${r.change}">${CHANGE_TEXT[r.change]}</span></td><td>${r.patched ? renderHookFirings(r.patched) : ''}</td></tr>`,
  )}</tbody></table></section>`;
}

/** Plain run: success and mean reward per task family or type, as the environment recorded it. */
function renderFamilies(records: readonly EpisodeRecord[], badges: Badges): SafeHtml {
  const families = summarizeFamilies(records);
  if (!hasFamilies(families)) return html``;
  return html`<section id="families"><h2>Per family ${badges.target}</h2>
<table class="families"><caption>Scored episodes only: infrastructure failures are left out of every rate.</caption>
<thead><tr><th>family / type</th><th class="num">success</th><th class="num">rate</th><th class="num">mean reward</th></tr></thead>
<tbody>${families.map((f) => html`<tr data-family="${f.family}"><td>${f.family || '—'}</td><td class="num">${f.successes}/${f.scored}</td><td class="num">${formatPercent(f.successRate)}</td><td class="num">${f.meanReward.toFixed(3)}</td></tr>`)}</tbody></table></section>`;
}

/** Improve run: per family, passes before and after the patches and the flips, over the tasks that were compared. */
function renderFamilyChanges(rows: readonly TaskRow[], badges: Badges): SafeHtml {
  const compared = rows.filter((r) => r.change === 'rescued' || r.change === 'regressed' || r.change === 'still_pass' || r.change === 'still_fail');
  if (!compared.some((r) => r.type !== null)) return html``;
  const groups = new Map<string, { tasks: number; before: number; after: number; rescued: number; regressed: number }>();
  for (const r of compared) {
    const key = r.type ?? '';
    const g = groups.get(key) ?? { tasks: 0, before: 0, after: 0, rescued: 0, regressed: 0 };
    g.tasks++;
    if (r.change === 'still_pass' || r.change === 'regressed') g.before++;
    if (r.change === 'still_pass' || r.change === 'rescued') g.after++;
    if (r.change === 'rescued') g.rescued++;
    if (r.change === 'regressed') g.regressed++;
    groups.set(key, g);
  }
  const ordered = [...groups.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return html`<section id="families"><h2>Per family ${badges.both}</h2>
<table class="families"><caption>Tasks whose baseline and patched episodes were both scored, by task family (ALFWorld) or type (DBBench).</caption>
<thead><tr><th>family / type</th><th class="num">tasks</th><th class="num">baseline</th><th class="num">patched</th><th class="num">rescued</th><th class="num">regressed</th></tr></thead>
<tbody>${ordered.map(([family, g]) => html`<tr data-family="${family}"><td>${family || '—'}</td><td class="num">${g.tasks}</td><td class="num">${formatPassCount(g.before, g.tasks)}</td><td class="num">${formatPassCount(g.after, g.tasks)}</td><td class="num pos">${g.rescued}</td><td class="num neg">${g.regressed}</td></tr>`)}</tbody></table></section>`;
}

function renderFlips(rows: readonly TaskRow[], badges: Badges): SafeHtml {
  const list = (change: 'rescued' | 'regressed') => {
    const flips = rows.filter((r) => r.change === change);
    if (flips.length === 0) return html`<p class="muted" data-flips="${change}">none</p>`;
    return html`<ul data-flips="${change}">${flips.map(
      (r) => html`<li><a href="#${taskAnchor(r.index)}">task ${r.index}</a> (${r.batchTag ?? ''}${r.type ? `, ${r.type}` : ''}): ${outcomeCell(r.baseline)} → ${outcomeCell(r.patched)}</li>`,
    )}</ul>`;
  };
  const rescued = rows.filter((r) => r.change === 'rescued').length;
  const regressed = rows.filter((r) => r.change === 'regressed').length;
  return html`<section id="flips"><h2>Flips ${badges.target}</h2>
<h3 class="pos">Rescued: failed in the baseline, pass with the patch (${rescued})</h3>${list('rescued')}
<h3 class="neg">Regressed: passed in the baseline, fail with the patch (${regressed})</h3>${list('regressed')}</section>`;
}

function renderEpisodes(rows: readonly TaskRow[], badges: Badges, sources: ReadonlyMap<number, { baseline: string; patched: string | null }>): SafeHtml {
  return html`<section id="episodes"><h2>Episodes and the hooks that fired ${badges.target}</h2>
<div class="toolbar"><button type="button" data-details="open" data-scope="episodes">expand all</button><button type="button" data-details="close" data-scope="episodes">collapse all</button></div>
${rows.map((r) => {
  const source = sources.get(r.index);
  const role = r.change === 'single' ? 'episode' : 'baseline';
  return html`<div class="task" id="${taskAnchor(r.index)}"><h3>Task ${r.index}${r.batchTag ? ` · ${r.batchTag}` : ''}${r.type ? ` · ${r.type}` : ''}${r.change !== 'single' ? html` · <span class="change ${r.change}">${CHANGE_TEXT[r.change]}</span>` : ''}</h3>
${r.baseline ? renderEpisode(r.baseline, { role, id: `${role}-${r.index}`, badges: badges.target, source: source?.baseline ?? '' }) : html`<p class="muted">No baseline episode is stored for this task.</p>`}
${r.patched ? renderEpisode(r.patched, { role: 'patched', id: `patched-${r.index}`, badges: badges.target, source: source?.patched ?? '' }) : ''}</div>`;
})}</section>`;
}

/** The first earlier batch whose installed patch is identical to this batch's, if any. */
function samePatchAs(a: ImproveArtifacts, batch: ImproveArtifacts['batches'][number]): string | undefined {
  if (batch.patch === null) return undefined;
  const key = canonicalJson(batch.patch);
  return a.batches.slice(0, a.batches.indexOf(batch)).find((b) => b.patch !== null && canonicalJson(b.patch) === key)?.tag;
}

function renderImprove(a: ImproveArtifacts, p: Provenance, badges: Badges, charts: readonly ReportChart[], health: ModelTurnHealth): SafeHtml {
  const s = a.summary;
  const t = s.totals;
  const rows = buildTaskRows(a);
  const rescued = rows.filter((r) => r.change === 'rescued').length;
  const regressed = rows.filter((r) => r.change === 'regressed').length;
  const deltaPasses = t.patchedPass - t.baselinePass;
  const sources = new Map<number, { baseline: string; patched: string | null }>();
  for (const b of a.batches) {
    for (const i of b.result.taskIndices) sources.set(i, { baseline: `${a.baseline.dir}/episodes.jsonl`, patched: b.rerun ? `${b.rerun.dir}/episodes.jsonl` : null });
  }
  const statuses = Object.entries(t.byStatus);
  const excluded = a.batches.flatMap((b) => b.result.excludedTasks);
  const strategy = improveStrategyView(a);
  return html`<section id="summary"><h2>Summary ${badges.both}</h2>
<div class="cards">
${card('Baseline passed', formatPassCount(t.baselinePass, t.tasks), 'baseline-pass')}
${card('Patched passed', formatPassCount(t.patchedPass, t.tasks), 'patched-pass')}
${card('Change in passes', html`${formatSigned(deltaPasses, 0)} (${formatPoints(t.tasks === 0 ? 0 : deltaPasses / t.tasks)})`, 'delta-pass', tone(deltaPasses))}
${card(`Mean batch reward (${a.batches[0]?.result.reward.metric ?? 'delta_pass_rate'})`, formatSigned(t.meanScore), 'mean-score', tone(t.meanScore))}
${card('Batches scored', `${t.scored}/${t.batches}`, 'batches-scored')}
${card('Rescued / regressed', html`<span class="pos">${rescued}</span> / <span class="neg">${regressed}</span>`, 'flips')}${strategy.at2 ? html`
${card(`${at2Heading('Baseline')} (Reflection)`, at2Text(strategy.at2.baseline), 'baseline-at2')}` : ''}
</div>${strategy.strategy ? html`
${strategyNote(strategy.strategy, 'the baseline and every rerun')}` : ''}
<p>Statuses: ${statuses.length === 0 ? 'none' : statuses.map(([k, n], i) => html`${i > 0 ? ', ' : ''}<span class="status ${k}">${k}</span> ×${n}`)}.
Target: <code>${p.targetLabel}</code> ${badges.target}. Engineer: <code>${p.engineerLabel ?? ''}</code> ${badges.engineer}.</p>
${renderModelTurnCounts(health)}
${t.missingEvaluations > 0 ? html`<div class="banner warn">${t.missingEvaluations} batch(es) are missing evaluations: their reruns could not be completed for infrastructure reasons. They are not results; resume the run to retry them.</div>` : ''}
${excluded.length > 0 ? html`<p class="muted">Excluded from scoring because their baseline episode failed for infrastructure reasons: task(s) ${excluded.join(', ')}.</p>` : ''}
</section>
${renderCharts(charts, badges)}
<section id="batches"><h2>Per batch ${badges.both}</h2>
<table class="batches"><caption>Passes before and after each batch's patch, the delta it was credited, its flips and the hook effects its rerun applied. Tasks excluded for baseline infrastructure failures are not counted.</caption>
<thead><tr><th>batch</th><th class="num">tasks</th><th class="num">baseline</th><th class="num">patched</th><th class="num">Δ pass rate</th><th class="num">reward</th><th>rescued</th><th>regressed</th><th>status</th><th class="num">hook effects</th><th class="num">hook faults</th>${at2Headings(strategy)}</tr></thead>
<tbody>${a.batches.map((b) => {
    const r = b.result;
    const raw = r.reward.raw;
    const tasks = Object.keys(r.baseline.rewards).length;
    return html`<tr data-batch="${b.tag}"><td><a href="#patch-${slug(b.tag)}">${b.tag}</a></td><td class="num">${tasks}${r.excludedTasks.length > 0 ? html` <span class="muted">(+${r.excludedTasks.length} excl.)</span>` : ''}</td><td class="num">${r.baseline.pass}</td><td class="num">${r.patched ? r.patched.pass : '—'}</td><td class="num ${raw ? tone(raw.deltaPassRate) : ''}">${raw ? formatPoints(raw.deltaPassRate) : '—'}</td><td class="num ${tone(r.reward.score)}">${formatSigned(r.reward.score)}</td><td>${raw && raw.rescued.length > 0 ? raw.rescued.map((i, k) => html`${k > 0 ? ' ' : ''}<a href="#${taskAnchor(i)}">${i}</a>`) : '—'}</td><td>${raw && raw.regressed.length > 0 ? raw.regressed.map((i, k) => html`${k > 0 ? ' ' : ''}<a href="#${taskAnchor(i)}">${i}</a>`) : '—'}</td><td><span class="status ${r.status}" title="${describeStatus(r.status)}">${r.status}</span></td><td class="num">${Object.values(r.hookEffects).reduce((x, y) => x + y, 0)}</td><td class="num">${r.hookFaults}</td>${at2Cells(strategy, b.tag)}</tr>`;
  })}</tbody></table></section>
${renderFamilyChanges(rows, badges)}
${renderFlips(rows, badges)}
${renderTaskTable(rows, badges)}
<section id="patches"><h2>Patches and validation verdicts ${badges.engineer}</h2>
${a.batches.map((b) => renderBatchPatch(b, { engineer: badges.engineer, target: badges.target }, samePatchAs(a, b)))}</section>
${renderEpisodes(rows, badges, sources)}`;
}

function renderPlainRun(a: PlainRunArtifacts, p: Provenance, badges: Badges, charts: readonly ReportChart[], health: ModelTurnHealth): SafeHtml {
  const m = a.run.manifest;
  const records = a.run.records;
  const s = summarizeRun(records);
  const rows = buildTaskRows(a);
  const effects = Object.entries(s.hookEffects);
  const sources = new Map(records.map((r) => [r.task.index, { baseline: 'episodes.jsonl', patched: null }]));
  return html`<section id="summary"><h2>Summary ${badges.target}</h2>
<div class="cards">
${card('Episodes', `${s.episodes}${m.taskIndices.length !== s.episodes ? ` of ${m.taskIndices.length} planned` : ''}`, 'episodes')}
${card('Passed', formatPassCount(s.successes, s.scored), 'success')}
${card('Mean reward', s.meanReward.toFixed(3), 'mean-reward')}
${card('Infrastructure failures', String(s.infraFailures), 'infra-failures', s.infraFailures > 0 ? 'neg' : '')}
${card('Hook effects', String(effects.reduce((x, [, n]) => x + n, 0)), 'hook-effects')}
${card('Hook faults', String(s.hookFaults), 'hook-faults', s.hookFaults > 0 ? 'neg' : '')}
</div>
<p>Target: <code>${p.targetLabel}</code> ${badges.target}. Patch: ${m.patch ? html`<code>${m.patch.file.split(/[\\/]/).pop() ?? ''}</code> (sha256 <code>${m.patch.sha256.slice(0, 12)}</code>)` : 'none (no-harness baseline)'}. Infrastructure failures are reported apart and never counted as target failures.</p>
${renderModelTurnCounts(health)}
</section>
${renderCharts(charts, badges)}
${renderFamilies(records, badges)}
<section id="tasks"><h2>Per task ${badges.target}</h2>
<table class="tasks"><thead><tr><th class="num">task</th><th>type</th><th>outcome</th><th class="num">reward</th><th class="num">rounds</th><th>hooks fired</th></tr></thead>
<tbody>${records.map((r) => html`<tr data-task="${r.task.index}"><td class="num"><a href="#${taskAnchor(r.task.index)}">${r.task.index}</a></td><td>${familyOf(r)}</td><td><code>${r.outcome}</code></td><td class="num">${formatReward(r.reward)}</td><td class="num">${r.rounds}</td><td>${renderHookFirings(r)}</td></tr>`)}</tbody></table></section>
<section id="hooks"><h2>Hooks fired ${badges.target}</h2>
${effects.length === 0 && s.hookFaults === 0 ? html`<p class="muted">No hook fired in this run.</p>` : html`<table><thead><tr><th>hook:effect</th><th class="num">times</th></tr></thead><tbody>${effects.map(([k, n]) => html`<tr><td><code>${k}</code></td><td class="num">${n}</td></tr>`)}</tbody></table><p>Hook faults: ${s.hookFaults}.</p>`}
</section>
${renderEpisodes(rows, badges, sources)}`;
}

/**
 * The report page for a run's stored artifacts: one self-contained HTML document (inline CSS, inline SVG
 * charts, one small inline script, and a Content-Security-Policy that forbids loading anything). Pure: the
 * same artifacts, charts and options give the same string. Every artifact string is escaped.
 */
export function renderReport(artifacts: RunArtifacts, charts: readonly ReportChart[], options: RenderReportOptions = {}): string {
  const p = describeProvenance(artifacts);
  const badges = makeBadges(p);
  const improve = artifacts.kind === 'improve';
  const bench = improve ? `${artifacts.summary.bench}/${artifacts.summary.split}` : `${artifacts.run.manifest.bench}/${artifacts.run.manifest.split}`;
  const title = `harness-r1 report · ${bench} · ${artifacts.name}${p.simulatedTarget ? ' · SIMULATED' : ''}`;
  const subtitle = improve
    ? `improve run ${artifacts.name}: ${artifacts.summary.totals.batches} batch(es), ${artifacts.summary.totals.tasks} scored task(s)`
    : `run ${artifacts.name} (${artifacts.run.manifest.runId})`;
  const sections = improve
    ? [['summary', 'Summary'], ['charts', 'Charts'], ['batches', 'Per batch'], ['families', 'Per family'], ['flips', 'Flips'], ['tasks', 'Per task'], ['patches', 'Patches'], ['episodes', 'Episodes']]
    : [['summary', 'Summary'], ['charts', 'Charts'], ['families', 'Per family'], ['tasks', 'Per task'], ['hooks', 'Hooks fired'], ['episodes', 'Episodes']];
  const health = modelTurnHealthOf(artifacts);
  const body = improve ? renderImprove(artifacts, p, badges, charts, health) : renderPlainRun(artifacts, p, badges, charts, health);
  return renderPageShell({
    title,
    heading: html`harness-r1 report: ${bench} ${badges.both}`,
    subtitle,
    bodyData: [['report-kind', artifacts.kind], ['simulated-target', String(p.simulatedTarget)], ['symbolic-engineer', String(p.symbolicEngineer)]],
    banners: html`${renderBanners(p)}
${artifacts.warnings.map((w) => html`<div class="banner warn">${w}</div>`)}${renderModelTurnBanners(health)}`,
    sections,
    body,
    footer: html`Made by <code>harness-r1 report</code> from the run's stored artifacts only; nothing was replayed.`,
    ...(options.generatedAt ? { generatedAt: options.generatedAt } : {}),
  });
}
