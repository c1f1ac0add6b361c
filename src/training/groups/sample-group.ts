import { createHash } from 'node:crypto';

import type { EngineerInput, Engineer } from '../../engineer/engineer.js';
import type { EpisodeRecord } from '../../episode/index.js';
import type { EvalStatus } from '../../episode/eval-status.js';
import { decideReward } from '../../evaluation/improve/decide-reward.js';
import { judgeProposal, type RewardPathContext } from '../../evaluation/improve/judge-proposal.js';
import { canonicalJson } from '../../evaluation/improve/rerun-cache-key.js';
import type { RlRow } from '../rows/rl-row.js';
import { groupStats, type GroupStats } from './group-stats.js';

export const SAMPLE_GROUP_VERSION = 'harness-r1-sample-group-v1' as const;

export interface GroupSample {
  sample: number;
  engineer: string;
  status: EvalStatus;
  validPatch: boolean;
  reward: number;
  /** SHA-256 of the normalized patch's canonical JSON (null when there is none). */
  patchSha256: string | null;
  /** The rerun this sample's reward comes from; a repeated patch reuses its first rerun. */
  rerun: { cacheKey: string; cacheHit: boolean } | null;
  rejection: string | null;
  notes: string[];
}

export interface SampleGroup extends GroupStats {
  schemaVersion: typeof SAMPLE_GROUP_VERSION;
  benchmark: string;
  batchTag: string;
  k: number;
  sampling: { temperature: number; topP: number; seed: number };
  engineerSymbolic: boolean;
  targetSimulated: boolean;
  samples: GroupSample[];
  statuses: Partial<Record<EvalStatus, number>>;
  /** Share of samples whose patch validated. */
  validRate: number;
  /** Distinct patches among valid samples (each rerun once). */
  distinctPatches: number;
}

/**
 * K engineer answers on one RL row, each through the reward path of `improve` (`judgeProposal`:
 * validation, install, rerun against the row's frozen baseline, `decideReward`); identical patches share
 * one rerun through the rerun cache. Returns the group's rewards with GRPO's statistics.
 */
export async function sampleGroup(o: {
  row: RlRow;
  input: EngineerInput;
  /** The row's baseline episodes (infrastructure failures included, for the benchmark's rerun checks). */
  episodes: readonly EpisodeRecord[];
  ctx: RewardPathContext;
  engineers: readonly Engineer[];
  sampling: { temperature: number; topP: number; seed: number };
  onSample?: (sample: GroupSample) => void;
}): Promise<SampleGroup> {
  const m = o.row.metadata;
  const baseline = new Map(Object.entries(m.baseline_rewards).map(([k, v]) => [Number(k), v]));
  const evidence = { baseline, threshold: m.reward_threshold, metric: o.ctx.metric };
  const untouched = decideReward(evidence);
  const samples: GroupSample[] = [];
  for (const [k, engineer] of o.engineers.entries()) {
    const base = { sample: k, engineer: engineer.label };
    if (untouched) {
      samples.push({ ...base, status: untouched.status, validPatch: false, reward: 0, patchSha256: null, rerun: null, rejection: null, notes: [] });
      continue;
    }
    const proposal = await engineer.propose(o.input);
    const judged = await judgeProposal(o.ctx, { tag: m.batch_tag, episodes: o.episodes, evidence }, proposal);
    const sample: GroupSample = {
      ...base,
      status: judged.decision.status,
      validPatch: judged.decision.validPatch,
      reward: judged.decision.score,
      patchSha256: judged.patch ? createHash('sha256').update(canonicalJson(judged.patch)).digest('hex') : null,
      rerun: judged.rerun ? { cacheKey: judged.rerun.cacheKey, cacheHit: judged.rerun.cacheHit } : null,
      rejection: judged.rejection,
      notes: judged.notes,
    };
    samples.push(sample);
    o.onSample?.(sample);
  }
  const stats = groupStats(samples.map((s) => s.reward));
  const statuses: Partial<Record<EvalStatus, number>> = {};
  for (const s of samples) statuses[s.status] = (statuses[s.status] ?? 0) + 1;
  return {
    schemaVersion: SAMPLE_GROUP_VERSION,
    benchmark: m.benchmark,
    batchTag: m.batch_tag,
    k: samples.length,
    sampling: o.sampling,
    engineerSymbolic: o.engineers.some((e) => e.kind === 'symbolic'),
    targetSimulated: o.ctx.target.simulated,
    ...stats,
    samples,
    statuses,
    validRate: samples.length === 0 ? 0 : samples.filter((s) => s.validPatch).length / samples.length,
    distinctPatches: new Set(samples.filter((s) => s.patchSha256).map((s) => s.patchSha256)).size,
  };
}
