/**
 * The report of a set of GRPO groups (`sample-group` results): per group the reward distribution, mean,
 * std, valid rate and statuses; over the set the share of zero-variance groups, from which GRPO learns
 * nothing (every advantage is 0). The view is built by the groups reader; this file only renders it.
 */
import type { EvalStatus } from '../episode/eval-status.js';
import { describeStatus } from './describe-status.js';
import { formatPercent, formatReward } from './format-numbers.js';
import { html, slug, trustedHtml, type SafeHtml } from './html.js';
import { renderPageShell } from './page-shell.js';

export interface GroupReportRow {
  file: string;
  benchmark: string;
  batchTag: string;
  k: number;
  rewards: readonly number[];
  mean: number;
  std: number;
  min: number;
  max: number;
  zeroVariance: boolean;
  validRate: number;
  distinctPatches: number;
  statuses: Readonly<Record<string, number>>;
  sampling: { temperature: number; topP: number; seed: number };
}

export interface GroupReportView {
  name: string;
  groups: readonly GroupReportRow[];
  zeroVarianceGroups: number;
  zeroVarianceShare: number;
  validRate: number;
  samples: number;
  statuses: Readonly<Record<string, number>>;
  byBenchmark: Readonly<Record<string, { groups: number; zeroVariance: number; meanReward: number }>>;
  engineerSymbolic: boolean;
  targetSimulated: boolean;
}

const stat = (x: number): string => x.toFixed(3);

/** `0 ×5, 0.111 ×2, 1 ×1`: each distinct reward and how many samples got it, in reward order. */
export function rewardDistribution(rewards: readonly number[]): string {
  const counts = new Map<number, number>();
  for (const r of rewards) counts.set(r, (counts.get(r) ?? 0) + 1);
  return [...counts.entries()].sort(([a], [b]) => a - b).map(([r, n]) => `${formatReward(r)} ×${n}`).join(', ');
}

/** One bar per sample, its height the reward over the set's range: the group's spread at a glance. */
function rewardStrip(rewards: readonly number[], lo: number, hi: number): SafeHtml {
  const w = 8;
  const h = 24;
  const span = hi - lo || 1;
  const bars = rewards.map((r, i) => {
    const bh = Math.max(1, Math.round(((r - lo) / span) * h));
    return `<rect x="${i * (w + 2)}" y="${h - bh}" width="${w}" height="${bh}" fill="#4a7bd0"><title>sample ${i}: ${formatReward(r)}</title></rect>`;
  });
  return trustedHtml(`<svg role="img" aria-label="rewards per sample" width="${rewards.length * (w + 2)}" height="${h}" viewBox="0 0 ${rewards.length * (w + 2)} ${h}">${bars.join('')}</svg>`);
}

function statusText(statuses: Readonly<Record<string, number>>): string {
  return Object.entries(statuses).sort(([a], [b]) => a.localeCompare(b)).map(([s, n]) => `${s} ${n}`).join(', ');
}

function card(label: string, value: string, metric: string): SafeHtml {
  return html`<div class="card"><div class="label">${label}</div><div class="value" data-metric="${metric}">${value}</div></div>`;
}

/** The whole page. */
export function renderGroupsReport(view: GroupReportView, options: { generatedAt?: string } = {}): string {
  const all = view.groups.flatMap((g) => g.rewards);
  const lo = Math.min(0, ...all);
  const hi = Math.max(0, ...all);
  const badges = html`${view.targetSimulated ? html`<span class="badge sim">SIMULATED TARGET</span>` : ''}${view.engineerSymbolic ? html`<span class="badge sym">SYMBOLIC ENGINEER</span>` : ''}`;
  return renderPageShell({
    title: `harness-r1 GRPO groups: ${view.name}`,
    heading: html`harness-r1 GRPO groups: ${view.name} ${badges}`,
    subtitle: `${view.groups.length} group(s), ${view.samples} engineer sample(s), each rerun through the reward path of improve`,
    bodyData: [['report-kind', 'groups'], ['simulated-target', String(view.targetSimulated)], ['symbolic-engineer', String(view.engineerSymbolic)]],
    banners: html`${view.targetSimulated ? html`<div class="banner sim" data-provenance="simulated-target">SIMULATED TARGET — the rewards come from reruns of the built-in simulated target, not a real model.</div>` : ''}
${view.engineerSymbolic ? html`<div class="banner sym" data-provenance="symbolic-engineer">SYMBOLIC ENGINEER — the samples were drawn from the built-in symbolic engineer, not an LLM.</div>` : ''}`,
    sections: [['summary', 'Summary'], ['groups', 'Per group']],
    body: html`<section id="summary"><h2>Summary</h2>
<div class="cards">
${card('groups', String(view.groups.length), 'groups')}
${card('zero-variance groups', `${view.zeroVarianceGroups} (${formatPercent(view.zeroVarianceShare)})`, 'zero-variance')}
${card('valid rate', formatPercent(view.validRate), 'valid-rate')}
${card('samples', String(view.samples), 'samples')}
</div>
<p>A zero-variance group (every sample the same reward) gives every sample an advantage of 0: GRPO learns nothing from it.</p>
<p data-metric="statuses">Statuses over all samples: ${statusText(view.statuses)}.</p>
<table><thead><tr><th>benchmark</th><th>groups</th><th>zero-variance</th><th>mean reward</th></tr></thead><tbody>
${Object.entries(view.byBenchmark).sort(([a], [b]) => a.localeCompare(b)).map(([b, c]) => html`<tr data-benchmark="${b}"><td>${b}</td><td>${c.groups}</td><td>${c.zeroVariance}</td><td>${stat(c.meanReward)}</td></tr>`)}
</tbody></table>
</section>
<section id="groups"><h2>Per group</h2>
<table><thead><tr><th>group</th><th>benchmark</th><th>k</th><th>rewards</th><th>distribution</th><th>mean</th><th>std</th><th>min</th><th>max</th><th>zero variance</th><th>valid rate</th><th>distinct patches</th><th>statuses</th><th>T / top-p</th></tr></thead><tbody>
${view.groups.map((g) => html`<tr id="group-${slug(g.file)}" data-group="${g.file}">
<td><code>${g.file}</code><br>${g.batchTag}</td><td>${g.benchmark}</td><td>${g.k}</td><td>${rewardStrip(g.rewards, lo, hi)}</td>
<td data-metric="distribution">${rewardDistribution(g.rewards)}</td><td data-metric="mean">${stat(g.mean)}</td><td data-metric="std">${stat(g.std)}</td>
<td>${formatReward(g.min)}</td><td>${formatReward(g.max)}</td><td data-metric="zero-variance">${g.zeroVariance ? 'yes' : 'no'}</td>
<td data-metric="valid-rate">${formatPercent(g.validRate)}</td><td>${g.distinctPatches}</td>
<td data-metric="statuses">${Object.entries(g.statuses).sort(([a], [b]) => a.localeCompare(b)).map(([s, n]) => html`<span title="${describeStatus(s as EvalStatus) ?? ''}">${s} ${n}</span> `)}</td>
<td>${g.sampling.temperature} / ${g.sampling.topP}</td></tr>`)}
</tbody></table>
</section>`,
    footer: html`Made by <code>harness-r1 report</code> from the stored group.json files only; nothing was replayed.`,
    ...(options.generatedAt ? { generatedAt: options.generatedAt } : {}),
  });
}
