import type { EpisodeRecord } from '../episode/index.js';
import { summarizeModelTurns, type ModelTurnHealth } from '../evaluation/model-turn-health.js';
import { html, type SafeHtml } from './html.js';
import type { RunArtifacts } from '../run-dir/read-run.js';

/**
 * Every episode a run's artifacts hold: a plain run's records, or an improve run's baseline and each
 * rerun once (batches that installed the same patch share a rerun).
 */
export function episodesOf(a: RunArtifacts): EpisodeRecord[] {
  if (a.kind === 'run') return a.run.records;
  const reruns = new Map<string, EpisodeRecord[]>();
  for (const b of a.batches) if (b.rerun) reruns.set(b.rerun.dir, b.rerun.records);
  return [...a.baseline.records, ...[...reruns.values()].flat()];
}

/** The silent-zero alarm over all of a run's episodes (the CLI's improve summary uses it too). */
export function modelTurnHealthOf(a: RunArtifacts): ModelTurnHealth {
  return summarizeModelTurns(episodesOf(a));
}

/** One warning banner per symptom, with what to fix, for the report's header. */
export function renderModelTurnBanners(health: ModelTurnHealth): SafeHtml {
  return html`${health.warnings.map(
    (w) => html`<div class="banner warn" data-model-turns="${w.kind}">WARNING: ${w.message}<ul>${w.fixes.map((fix) => html`<li>${fix}</li>`)}</ul></div>`,
  )}`;
}

/** The counts as one line of the summary section. */
export function renderModelTurnCounts(health: ModelTurnHealth): SafeHtml {
  const capped = Object.entries(health.limits).filter(([, n]) => n > 0);
  return html`<p data-metric="model-turns">Model turns: ${health.turns}; tool calls written as text <span data-count="text-tool-calls">${health.textToolCalls}</span>, empty <span data-count="empty-turns">${health.emptyTurns}</span>${health.reasoningOnlyTurns > 0 ? ` (${health.reasoningOnlyTurns} with reasoning only)` : ''}, unparseable tool arguments <span data-count="bad-tool-arguments">${health.badToolArguments}</span>; response caps hit: ${capped.length === 0 ? 'none' : capped.map(([k, n]) => `${k} ×${n}`).join(', ')}.</p>`;
}
