import type { ExperimentCost, RoleCost } from '../../experiments/shared/experiment-cost.js';
import type { Badges } from '../badges.js';
import type { ReportChart } from '../charts.js';
import { html, trustedHtml, type HtmlValue, type SafeHtml } from '../html.js';
import type { ExperimentView } from './experiment-page.js';

/** Pieces every experiment page uses: summary cards, the charts row, the list of files behind the numbers. */

export function card(label: string, value: HtmlValue, metric: string): SafeHtml {
  return html`<div class="card"><div class="label">${label}</div><div class="value" data-metric="${metric}">${value}</div></div>`;
}

export function simulatedSuffix(simulated: boolean): string {
  return simulated ? ' (SIMULATED target)' : '';
}

export function chartsSection(charts: readonly ReportChart[], badges: Badges): SafeHtml {
  if (charts.length === 0) return html``;
  return html`<section id="charts"><h2>Charts ${badges.target}</h2><div class="charts pair">${charts.map(
    (c) => html`<figure id="${c.id}" aria-label="${c.title}">${trustedHtml(c.svg)}<figcaption>${c.caption}</figcaption></figure>`,
  )}</div></section>`;
}

export function fileLink(view: ExperimentView, rel: string, text: string = rel): SafeHtml {
  return html`<a href="${view.href(rel)}">${text}</a>`;
}

/** Every file behind the page's numbers, as links relative to the page. */
export function filesSection(view: ExperimentView, files: readonly (readonly [string, string])[]): SafeHtml {
  return html`<section id="files"><h2>Files</h2>
<p class="muted">Every figure above comes from these files of the run directory (run stores open as their own report).</p>
<ul class="files">${files.map(([what, rel]) => html`<li>${what}: ${fileLink(view, rel, rel)}</li>`)}</ul></section>`;
}

/** Model calls and tokens per role (target, engineer), as an experiment's cost reports them. */
export function costTable(cost: ExperimentCost, symbolicEngineer: boolean): SafeHtml {
  const n = (x: number) => x.toLocaleString('en-US');
  const row = (role: string, c: RoleCost, items: string) => html`<tr data-role="${role}"><td>${role}</td><td class="num" data-cell="calls">${n(c.modelCalls)}</td><td class="num" data-cell="prompt">${n(c.promptTokens)}</td><td class="num" data-cell="completion">${n(c.completionTokens)}</td><td class="num" data-cell="items">${n(c.items)} ${items}</td></tr>`;
  return html`<table class="cost"><caption>Model calls and the tokens the servers reported, per role.${symbolicEngineer ? ' The symbolic engineer calls no model.' : ''}</caption>
<thead><tr><th>role</th><th class="num">model calls</th><th class="num">prompt tokens</th><th class="num">completion tokens</th><th class="num">behind them</th></tr></thead>
<tbody>${row('target', cost.target, 'episodes')}${row('engineer', cost.engineer, 'answers')}</tbody></table>`;
}
