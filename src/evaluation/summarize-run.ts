import type { EpisodeRecord, Outcome } from '../episode/index.js';
import { AGENT_OUTCOMES, INFRA_OUTCOMES, isInfraOutcome } from '../episode/index.js';

export interface RunSummary {
  episodes: number;
  /** Episodes that ended for an agent-caused reason: the denominator of every target metric. */
  scored: number;
  successes: number;
  /** Successes / scored episodes; infrastructure failures are reported, never counted as failures. */
  successRate: number;
  meanReward: number;
  byOutcome: Record<Outcome, number>;
  infraFailures: number;
  hookEffects: Record<string, number>;
  hookFaults: number;
  /**
   * Episodes of tasks whose gold cannot earn its own reward (`detail.goldUnreproducible`, e.g. a
   * SQL task whose reference answer its own query does not give). They are scored as the benchmark scores them; this count says how many there were.
   */
  goldUnreproducible: number;
}

export function summarizeRun(records: readonly EpisodeRecord[]): RunSummary {
  const byOutcome = Object.fromEntries([...AGENT_OUTCOMES, ...INFRA_OUTCOMES].map((o) => [o, 0])) as Record<Outcome, number>;
  const hookEffects: Record<string, number> = {};
  let hookFaults = 0;
  let rewardSum = 0;
  let scored = 0;
  let goldUnreproducible = 0;
  for (const r of records) {
    byOutcome[r.outcome]++;
    if (r.detail.goldUnreproducible === true) goldUnreproducible++;
    if (!isInfraOutcome(r.outcome)) {
      scored++;
      rewardSum += r.reward;
    }
    for (const t of r.hookTrace) {
      if (t.fault) hookFaults++;
      if (t.disposition !== 'none') {
        const key = `${t.hook}:${t.effect}${t.disposition === 'ignored' ? ' (ignored)' : ''}`;
        hookEffects[key] = (hookEffects[key] ?? 0) + 1;
      }
    }
  }
  return {
    episodes: records.length,
    scored,
    successes: byOutcome.success,
    successRate: scored === 0 ? 0 : byOutcome.success / scored,
    meanReward: scored === 0 ? 0 : rewardSum / scored,
    byOutcome,
    infraFailures: records.length - scored,
    hookEffects,
    hookFaults,
    goldUnreproducible,
  };
}
