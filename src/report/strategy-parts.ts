import type { EpisodeRecord } from '../episode/index.js';
import { successAt2, type SuccessAt2 } from '../evaluation/success-at-2.js';
import { html, type SafeHtml } from './html.js';

/**
 * What a report page shows about the baseline target strategy a run was played with (`--strategy`):
 * its name, and for Reflection its success@2 (a second episode after a failure, with the reflection in
 * context) in columns of their own. success@2 is never the reward, never paired and never ranked against a
 * success@1 figure; a run without a strategy shows none of this.
 */

/** The heading of every success@2 column (`what` says whose episodes it counts). */
export function at2Heading(what = ''): string {
  return `${what ? `${what} ` : ''}success@2 — not ranked`;
}

/** The strategy a run names (`strategy` of its settings or options), or null for the plain target. */
export function strategyOf(settings: Readonly<Record<string, unknown>> | undefined): string | null {
  const s = settings?.strategy;
  return typeof s === 'string' && s !== '' ? s : null;
}

/** success@2 over the final record of every task of a run store (`map.values()`), or null when the store is missing. */
export function recordsAt2(records: Iterable<EpisodeRecord> | null | undefined): SuccessAt2 | null {
  return records ? successAt2([...records]) : null;
}

/** `3/5 (60.0%)` and how many of the second episodes rescued their task. */
export function at2Text(s: SuccessAt2): string {
  const rate = s.tasks === 0 ? '' : ` (${(s.successAt2 * 100).toFixed(1)}%)`;
  return `${s.success2}/${s.tasks}${rate}; ${s.rescued}/${s.retried} rescued`;
}

/** One success@2 table cell (`—` when there is no store behind it), linked to its store's episodes when `href` is given. */
export function at2Cell(s: SuccessAt2 | null, cell: string, href?: string): SafeHtml {
  if (s === null) return html`<td class="num at2 muted" data-cell="${cell}">—</td>`;
  const text = at2Text(s);
  return html`<td class="num at2" data-cell="${cell}">${href ? html`<a href="${href}">${text}</a>` : text}</td>`;
}

/** The paragraph that names the strategy; for Reflection it says how its success@2 columns are to be read. */
export function strategyNote(strategy: string | null, what: string): SafeHtml {
  if (strategy === null) return html``;
  const at2 = strategy === 'reflection'
    ? html` Reflection runs a second episode after a failure, with its reflection in context: that figure, success@2, is shown in the columns headed “${at2Heading()}” — its own figure, not comparable with success@1, never the reward and never paired or ranked with it.`
    : '';
  return html`<p data-metric="strategy">Strategy: <code>${strategy}</code> (${what} played with it; every reward and delta compares success@1 of their first episodes).${at2}</p>`;
}
