import type { EpisodeRecord } from '../episode/index.js';
import type { SuccessAt2 } from '../evaluation/success-at-2.js';
import type { StrategyName } from '../runtime/strategies/index.js';

/** One line naming the strategy and what it cost: model calls per turn (Self-Refine makes two or three). */
export function describeStrategy(strategy: StrategyName, records: readonly EpisodeRecord[]): string {
  let calls = 0;
  let rounds = 0;
  for (const r of records) {
    calls += r.usage.modelCalls;
    rounds += r.rounds;
  }
  const perTurn = rounds === 0 ? '-' : (calls / rounds).toFixed(2);
  const what = strategy === 'reflection' ? 'first episodes' : 'episodes';
  return `strategy: ${strategy} (${what}: ${calls} model call(s) over ${rounds} turn(s), ${perTurn} per turn)`;
}

/** Reflection's own line: success@2 beside the success@1 of the same first episodes, never merged into it. */
export function renderSuccessAt2(s: SuccessAt2): string {
  const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
  const notes = [`${s.retried} retried`, `${s.rescued} rescued`, ...(s.reflectionErrors > 0 ? [`${s.reflectionErrors} reflection(s) failed`] : []), ...(s.retryInfra > 0 ? [`${s.retryInfra} retry infra failure(s)`] : [])];
  return `reflection: success@2 ${s.success2}/${s.tasks} (${pct(s.successAt2)}) — its own column, not comparable with success@1 rows; success@1 of the same first episodes ${s.success1}/${s.tasks} (${pct(s.successAt1)}); ${notes.join(', ')}`;
}
