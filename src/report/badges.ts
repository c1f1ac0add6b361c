import { html, type SafeHtml } from './html.js';
import type { Provenance } from './provenance.js';

/** What the labels need to know: whether a simulated target played and whether the symbolic engineer wrote the patches. */
export type ProvenanceFlags = Pick<Provenance, 'simulatedTarget' | 'symbolicEngineer' | 'targetLabel' | 'engineerLabel'>;

export interface Badges {
  target: SafeHtml;
  engineer: SafeHtml;
  both: SafeHtml;
}

export function makeBadges(p: ProvenanceFlags): Badges {
  const target = p.simulatedTarget ? html`<span class="badge sim" title="results of the built-in simulated target, not a real model">SIMULATED TARGET</span>` : html``;
  const engineer = p.symbolicEngineer ? html`<span class="badge sym" title="patches written by the built-in symbolic engineer, not an LLM">SYMBOLIC ENGINEER</span>` : html``;
  return { target, engineer, both: html`${target}${engineer}` };
}

export function renderBanners(p: ProvenanceFlags): SafeHtml {
  return html`${p.simulatedTarget ? html`<div class="banner sim" data-provenance="simulated-target">SIMULATED TARGET — every episode in this report was played by the built-in simulated target (<code>${p.targetLabel}</code>), not by a real model. Its numbers exercise the harness; they say nothing about any model.</div>` : ''}
${p.symbolicEngineer ? html`<div class="banner sym" data-provenance="symbolic-engineer">SYMBOLIC ENGINEER — the patches in this report were written by the built-in symbolic engineer (<code>${p.engineerLabel ?? ''}</code>), a rule-based generator, not an LLM.</div>` : ''}`;
}
