import Table from 'cli-table3';

import type { RewardMetric } from '../episode/index.js';
import type { ImproveSummary } from '../evaluation/improve/improve-run.js';
import type { ModelTurnHealth } from '../evaluation/model-turn-health.js';
import { renderModelTurnHealth } from './render-summary.js';
import { tableStyle } from './colour.js';
import { formatSigned } from './format.js';

const pct = (x: number) => `${x >= 0 ? '+' : ''}${(x * 100).toFixed(1)} pp`;

/** The batch reward in the unit of its metric: percentage points of pass rate, or a mean-reward difference. */
function rewardText(x: number, metric: RewardMetric): string {
  return metric === 'delta_pass_rate' ? pct(x) : formatSigned(x);
}

const METRIC_LABEL: Record<RewardMetric, string> = { delta_pass_rate: 'Δ pass rate', delta_average_reward: 'Δ mean reward' };

/**
 * The closing table of `improve`: baseline vs patched per batch, flips, status, hooks fired; then the
 * silent-zero alarm over the baseline and rerun episodes when `health` is given.
 */
export function renderImproveSummary(s: ImproveSummary, health?: ModelTurnHealth, metric: RewardMetric = 'delta_pass_rate'): string {
  const table = new Table({ head: ['batch', 'tasks', 'baseline pass', 'patched pass', `reward (${METRIC_LABEL[metric]})`, 'rescued', 'regressed', 'status', 'hook effects'], style: tableStyle() });
  for (const b of s.batches) {
    table.push([
      b.tag,
      b.tasks,
      b.baselinePass,
      b.patchedPass ?? '-',
      b.patchedPass === null ? '-' : rewardText(b.score, metric),
      b.rescued.join(' ') || '-',
      b.regressed.join(' ') || '-',
      b.status,
      b.hookEffects,
    ]);
  }
  const t = s.totals;
  const lines = [
    table.toString(),
    `target:   ${s.target.label}${s.target.simulated ? ' — SIMULATED TARGET, not a real model' : ''}`,
    `engineer: ${s.engineer.label}${s.engineer.symbolic ? ' — built-in symbolic engineer, not an LLM' : ''}`,
    s.generateOnly
      ? `generate-only run: ${t.byStatus.generated ?? 0} of ${t.batches} batch(es) generated a valid patch; nothing was rerun and no reward was computed (${t.baselinePass}/${t.tasks} passed in the baseline)`
      : `total: ${t.baselinePass}/${t.tasks} passed before, ${t.patchedPass}/${t.tasks} after; mean batch reward (${METRIC_LABEL[metric]}) ${rewardText(t.meanScore, metric)} over ${t.batches - t.missingEvaluations - (t.byStatus.generated ?? 0)} batch(es)`,
    `statuses: ${Object.entries(t.byStatus).map(([k, n]) => `${k} ${n}`).join(', ')}`,
  ];
  const rt = t.rerunTurns;
  if (rt && rt.replayed > 0) lines.push(`exact replay: ${rt.replayed} of ${rt.turns} rerun model turns answered from the baseline's recorded turns (${Math.round((100 * rt.replayed) / rt.turns)} % of the calls saved)`);
  if (t.missingEvaluations > 0) lines.push(`missing evaluations: ${t.missingEvaluations} batch(es) could not be rerun for infrastructure reasons; they are not results (resume to retry).`);
  if (health) lines.push(...renderModelTurnHealth(health));
  return lines.join('\n');
}
