import { improveSuccessAt2, type BatchSuccessAt2 } from '../evaluation/improve-success-at-2.js';
import type { SuccessAt2 } from '../evaluation/success-at-2.js';
import type { RunArtifacts } from '../run-dir/read-run.js';
import { html, type SafeHtml } from './html.js';
import { at2Cell, at2Heading, strategyOf } from './strategy-parts.js';

type ImproveArtifacts = Extract<RunArtifacts, { kind: 'improve' }>;

/** The strategy of an improve run (named in its baseline's options) and, for Reflection, its success@2 figures. */
export interface ImproveStrategyView {
  strategy: string | null;
  /** Reflection only: the same figures `improve --json` reports under `strategy.successAt2`. */
  at2: { baseline: SuccessAt2; batches: BatchSuccessAt2[] } | null;
}

/** Reads the strategy and computes Reflection's success@2 from the stored baseline and reruns (the same function improve uses). */
export function improveStrategyView(a: ImproveArtifacts): ImproveStrategyView {
  const strategy = strategyOf(a.baseline.manifest.options);
  if (strategy !== 'reflection') return { strategy, at2: null };
  const at2 = improveSuccessAt2(a.baseline.records, a.batches.map((b) => ({ tag: b.tag, status: b.result.status, tasks: Object.keys(b.result.baseline.rewards).map(Number), rerun: b.rerun ? b.rerun.records : null })));
  return { strategy, at2 };
}

const TITLE = 'Reflection: the first or the second episode succeeded; not comparable with the success@1 columns';

/** The batch table's success@2 headings (none without Reflection). */
export function at2Headings(v: ImproveStrategyView): SafeHtml {
  if (!v.at2) return html``;
  return html`<th class="num at2" title="${TITLE}">${at2Heading('baseline')}</th><th class="num at2" title="${TITLE}">${at2Heading('patched')}</th>`;
}

/** One batch row's success@2 cells, before and with its patch (none without Reflection). */
export function at2Cells(v: ImproveStrategyView, tag: string): SafeHtml {
  if (!v.at2) return html``;
  const b = v.at2.batches.find((x) => x.tag === tag) ?? null;
  return html`${at2Cell(b?.baseline ?? null, 'baseline-at2')}${at2Cell(b?.patched ?? null, 'patched-at2')}`;
}
