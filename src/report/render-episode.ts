import type { ChatMessage, EpisodeRecord, HookTraceEntry } from '../episode/index.js';
import { formatReward } from './format-numbers.js';
import { html, truncateText, type SafeHtml } from './html.js';
import { summarizeHookFirings } from './task-rows.js';

/** Long observations and messages are cut in the page; the full text stays in the run's episodes.jsonl. */
const OBSERVATION_CHARS = 1500;
const MESSAGE_CHARS = 4000;

export interface EpisodeView {
  /** `baseline`, `patched` or `episode` (plain runs). */
  role: 'baseline' | 'patched' | 'episode';
  id: string;
  /** Badges said next to the episode (e.g. the simulated-target label). */
  badges: SafeHtml;
  /** Where the record is stored, relative to the run directory. */
  source: string;
}

function formatInput(input: unknown): string {
  if (typeof input === 'string') return input;
  return JSON.stringify(input) ?? String(input);
}

function fired(t: HookTraceEntry): boolean {
  return t.disposition !== 'none' || t.fault !== undefined;
}

/** The comma-separated "hooks fired" list of an episode: `on_init:init ×1, make_pre_hint:hint ×3`. */
export function renderHookFirings(record: EpisodeRecord): SafeHtml {
  const firings = summarizeHookFirings(record);
  if (firings.length === 0) return html`<span class="muted">none</span>`;
  return html`${firings.map((f, i) => html`${i > 0 ? ', ' : ''}<code>${f.key}</code> ×${f.count}`)}`;
}

function renderHookTrace(record: EpisodeRecord): SafeHtml {
  const entries = record.hookTrace.filter(fired);
  if (record.hookTrace.length === 0) return html`<p class="muted">No hook was installed or called in this episode.</p>`;
  if (entries.length === 0) return html`<p class="muted">Hooks were called ${record.hookTrace.length} time(s) but none returned an effect.</p>`;
  return html`<table class="hook-trace">
<caption>Hooks that fired (${entries.length} of ${record.hookTrace.length} hook calls); round 0 is before the first model turn.</caption>
<thead><tr><th class="num">round</th><th>hook</th><th>effect</th><th>disposition</th><th>tool</th><th>what it did</th></tr></thead>
<tbody>${entries.map(
    (t) => html`<tr><td class="num">${t.round}</td><td><code>${t.hook}</code>${t.hookIndex > 0 ? html` #${t.hookIndex}` : ''}</td><td><code>${t.effect}</code></td><td>${t.fault ? html`<span class="neg">fault: ${t.fault.kind}</span>` : t.disposition}</td><td>${t.tool ?? ''}</td><td>${t.fault ? t.fault.message : (t.detail ?? '')}</td></tr>`,
  )}</tbody></table>`;
}

function renderSteps(record: EpisodeRecord): SafeHtml {
  if (record.steps.length === 0) return html`<p class="muted">No environment step was taken.</p>`;
  const byRound = new Map<number, HookTraceEntry[]>();
  for (const t of record.hookTrace.filter(fired)) byRound.set(t.round, [...(byRound.get(t.round) ?? []), t]);
  return html`<table class="steps">
<thead><tr><th class="num">round</th><th>tool</th><th>input</th><th>status</th><th>observation</th><th>hooks this round</th></tr></thead>
<tbody>${record.steps.map(
    (s) => html`<tr><td class="num">${s.round}</td><td><code>${s.tool}</code></td><td><pre>${formatInput(s.input)}</pre></td><td>${s.status === 'executed' ? s.status : html`<span class="neg">${s.status}</span>`}</td><td>${s.observation === '' ? html`<span class="muted">(empty)</span>` : html`<pre>${truncateText(s.observation, OBSERVATION_CHARS)}</pre>`}</td><td>${(byRound.get(s.round) ?? []).map((t) => html`<div><code>${t.hook}:${t.effect}</code>${t.fault ? html` <span class="neg">(${t.fault.kind})</span>` : ''}</div>`)}</td></tr>`,
  )}</tbody></table>`;
}

function renderMessage(m: ChatMessage): SafeHtml {
  switch (m.role) {
    case 'system':
    case 'user':
      return html`<div class="message"><strong>${m.role}</strong><pre>${truncateText(m.content, MESSAGE_CHARS)}</pre></div>`;
    case 'assistant':
      return html`<div class="message"><strong>assistant</strong>${m.reasoning ? html`<details><summary>reasoning</summary><pre>${truncateText(m.reasoning, MESSAGE_CHARS)}</pre></details>` : ''}<pre>${truncateText(m.content ?? '', MESSAGE_CHARS)}</pre>${(m.toolCalls ?? []).map((c) => html`<div>tool call <code>${c.name}</code>: <code>${truncateText(c.arguments, MESSAGE_CHARS)}</code></div>`)}</div>`;
    case 'tool':
      return html`<div class="message"><strong>tool result</strong><pre>${truncateText(m.content, MESSAGE_CHARS)}</pre></div>`;
  }
}

function endingDetail(record: EpisodeRecord): string | null {
  const { reason, error } = record.detail;
  if (typeof error === 'string') return error;
  if (typeof reason === 'string') return reason;
  return null;
}

/** One episode as an expandable block: outcome, the hooks that fired, the steps and the conversation. */
export function renderEpisode(record: EpisodeRecord, view: EpisodeView): SafeHtml {
  const ending = endingDetail(record);
  return html`<details class="episode ${view.role}" id="${view.id}">
<summary><strong>${view.role}</strong> · <code>${record.outcome}</code> · reward ${formatReward(record.reward)} · ${record.rounds} round(s) · hooks fired: ${renderHookFirings(record)} ${view.badges}</summary>
${ending !== null ? html`<p>Ending: ${ending}</p>` : ''}
<h4>Hooks fired</h4>
${renderHookTrace(record)}
<h4>Steps</h4>
${renderSteps(record)}
<details><summary>Conversation (${record.messages.length} messages)</summary>${record.messages.map(renderMessage)}</details>
<p class="muted">Stored in <code>${view.source}</code>; ${record.usage.modelCalls} model call(s), ${record.usage.promptTokens} prompt and ${record.usage.completionTokens} completion tokens.</p>
</details>`;
}
