import type { PatchAction, PatchNote, PatchVerdict } from '../patch/index.js';
import { describeStatus } from './describe-status.js';
import { formatPoints, formatSigned } from './format-numbers.js';
import { html, slug, truncateText, type SafeHtml } from './html.js';
import type { BatchArtifacts } from '../run-dir/read-run.js';

/** The engineer's raw text and prompt can be long; the full files stay in the batch directory. */
const RAW_TEXT_CHARS = 20_000;

export interface PatchSectionBadges {
  /** Shown next to the engineer when the patch came from the symbolic engineer. */
  engineer: SafeHtml;
  /** Shown next to rerun results when they came from a simulated target. */
  target: SafeHtml;
}

function renderNotes(notes: readonly PatchNote[]): SafeHtml {
  if (notes.length === 0) return html``;
  return html`<ul class="notes">${notes.map((n) => html`<li><code>${n.kind}</code> at <code>${n.field}</code>: ${n.message}</li>`)}</ul>`;
}

function renderVerdict(batch: BatchArtifacts): SafeHtml {
  const verdict: PatchVerdict | null = batch.verdict;
  if (verdict === null) {
    return html`<p>Validation: <span class="muted">not run — ${describeStatus(batch.result.status)}.</span></p>`;
  }
  if (verdict.kind === 'valid') {
    return html`<p>Validation verdict: <span class="verdict valid">VALID</span>${verdict.notes.length > 0 ? html` with ${verdict.notes.length} note(s):` : ''}</p>${renderNotes(verdict.notes)}`;
  }
  const r = verdict.rejection;
  return html`<p>Validation verdict: <span class="verdict invalid">INVALID</span> — rule <code>${r.rule}</code> at stage <code>${r.stage}</code>, field <code>${r.field}</code>: ${r.message}${r.exception ? html` (<code>${r.exception}</code>)` : ''}</p>${renderNotes(verdict.notes)}`;
}

function renderAction(action: PatchAction, i: number): SafeHtml {
  if (action.type === 'add_code_hook') {
    return html`<div class="action"><h5>actions[${i}]: <code>add_code_hook</code> → <code>${action.hook}</code></h5><pre class="code"><code>${action.code}</code></pre></div>`;
  }
  const { type, ...rest } = action;
  return html`<div class="action"><h5>actions[${i}]: <code>${type}</code></h5><pre class="code"><code>${JSON.stringify(rest, null, 2)}</code></pre></div>`;
}

function renderPatchBody(batch: BatchArtifacts, sameAs: string | undefined): SafeHtml {
  const patch = batch.patch ?? (batch.verdict?.kind === 'valid' ? batch.verdict.patch : null);
  if (patch) {
    const actions = html`${patch.actions.map(renderAction)}`;
    return html`<p>Patch (normalized, as installed): ${patch.description}</p>${
      sameAs === undefined ? actions : html`<details><summary>The same patch as <a href="#patch-${slug(sameAs)}">${sameAs}</a> (${patch.actions.length} action(s))</summary>${actions}</details>`
    }`;
  }
  const proposal = batch.engineer?.status === 'ok' ? batch.engineer.proposal : null;
  if (proposal?.kind === 'patch' && proposal.patch !== null) {
    return html`<p>Proposed patch (not installed):</p><pre class="code"><code>${truncateText(JSON.stringify(proposal.patch, null, 2) ?? '', RAW_TEXT_CHARS)}</code></pre>`;
  }
  if (proposal?.kind === 'response' && batch.rawResponse === null) {
    return html`<p>Engineer response (not installed):</p><pre>${truncateText(proposal.text, RAW_TEXT_CHARS)}</pre>`;
  }
  return batch.rawResponse === null ? html`<p class="muted">No patch was proposed.</p>` : html``;
}

function renderEngineer(batch: BatchArtifacts, badges: PatchSectionBadges): SafeHtml {
  const e = batch.engineer;
  const state =
    e === null
      ? html`<span class="muted">not asked</span>`
      : e.status === 'ok'
        ? html`answered with ${e.proposal.kind === 'patch' ? 'a patch object' : html`a text response (protocol <code>${e.proposal.protocol}</code>)`}`
        : html`<span class="neg">request failed</span>: ${e.detail}`;
  const notes = batch.result.notes;
  return html`<p>Engineer: <code>${batch.result.engineer.label}</code> ${batch.result.engineer.symbolic ? badges.engineer : ''} — ${state}</p>
${notes.length > 0 ? html`<ul class="notes">${notes.map((n) => html`<li>${n}</li>`)}</ul>` : ''}`;
}

function renderRerun(batch: BatchArtifacts, badges: PatchSectionBadges): SafeHtml {
  const r = batch.result;
  if (r.rerun === null) return html``;
  const raw = r.reward.raw;
  const effects = Object.entries(r.hookEffects);
  return html`<p>Rerun <code>reruns/${r.rerun.cacheKey}</code> ${badges.target}: ${r.rerun.cacheHit ? 'reused from the cache' : `${r.rerun.attempts} attempt(s)`}, ${r.rerun.infraFailures} infrastructure failure(s).
${raw ? html` Baseline ${raw.baselinePass}/${raw.batchSize} → patched ${raw.patchedPass}/${raw.batchSize}; Δ pass rate ${formatPoints(raw.deltaPassRate)}, Δ mean reward ${formatSigned(raw.deltaAverageReward)}; credited reward ${formatSigned(r.reward.score)} (${r.reward.metric}).` : ''}</p>
<p>Hook effects applied: ${effects.length === 0 ? html`<span class="muted">none</span>` : effects.map(([k, n], i) => html`${i > 0 ? ', ' : ''}<code>${k}</code> ×${n}`)}; hook faults ${r.hookFaults}.</p>`;
}

/**
 * One batch's engineer answer, validation verdict, patch code and rerun facts. `sameAs` names an earlier
 * batch with the identical patch, whose code is then folded away.
 */
export function renderBatchPatch(batch: BatchArtifacts, badges: PatchSectionBadges, sameAs?: string): SafeHtml {
  const r = batch.result;
  return html`<section class="batch" id="patch-${slug(batch.tag)}">
<h3>${batch.tag} <span class="status ${r.status}">${r.status}</span></h3>
<p class="muted">${describeStatus(r.status)}.${r.rejection ? html` Rejection: <code>${r.rejection}</code>.` : ''}</p>
${renderEngineer(batch, badges)}
${renderVerdict(batch)}
${renderPatchBody(batch, sameAs)}
${renderRerun(batch, badges)}
${batch.rawResponse !== null ? html`<details><summary>Engineer raw response (${batch.rawResponse.length} characters)</summary><pre>${truncateText(batch.rawResponse, RAW_TEXT_CHARS)}</pre></details>` : ''}
${batch.prompt !== null ? html`<details><summary>Engineer prompt (${batch.prompt.length} messages)</summary>${batch.prompt.map((m) => html`<div><strong>${m.role}</strong><pre>${truncateText(m.content ?? '', RAW_TEXT_CHARS)}</pre></div>`)}</details>` : ''}
</section>`;
}
