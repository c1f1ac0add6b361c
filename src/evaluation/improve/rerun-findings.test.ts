import { describe, expect, it } from 'vitest';

import type { EpisodeRecord, HookTraceEntry, Outcome } from '../../episode/index.js';
import { rerunFindings } from './rerun-findings.js';

// Just the fields rerunFindings reads: the task, the outcome, the reward and the hook trace.
function rec(index: number, outcome: Outcome, reward: number, trace: Partial<HookTraceEntry>[] = []): EpisodeRecord {
  const hookTrace = trace.map((t) => ({ round: 1, hook: 'on_init', hookIndex: 0, effect: 'none', disposition: 'none', ...t }) as HookTraceEntry);
  return { task: { index }, outcome, reward, hookTrace } as unknown as EpisodeRecord;
}

describe('rerunFindings: what a rerun\'s records say', () => {
  it('counts applied effects by hook and effect, and every fault; ignored effects apply nothing', () => {
    const f = rerunFindings([
      rec(0, 'success', 1, [{ effect: 'init', disposition: 'applied' }, { hook: 'make_pre_hint', effect: 'hint', disposition: 'applied', round: 2 }]),
      rec(1, 'wrong_answer', 0, [{ effect: 'init', disposition: 'applied' }, { hook: 'on_before_action', effect: 'rewrite', disposition: 'ignored' }]),
      rec(2, 'wrong_answer', 0, [{ fault: { kind: 'timeout', message: 'over 50 ms' } }, { hookIndex: 1, fault: { kind: 'exception', message: 'KeyError' } }]),
    ]);
    expect(f.hookEffects).toEqual({ 'on_init:init': 2, 'make_pre_hint:hint': 1 });
    expect(f.appliedEffects).toBe(3);
    expect(f.hookFaults).toBe(2);
    expect(f.sandboxNotes).toEqual([]);
  });

  it('an inert rerun: no effect applied anywhere is 0 applied effects, whatever the rewards did', () => {
    const f = rerunFindings([rec(0, 'success', 1, [{ effect: 'none' }]), rec(1, 'success', 1, [{ effect: 'hint', disposition: 'ignored' }])]);
    expect(f.appliedEffects).toBe(0);
    expect(f.hookEffects).toEqual({});
    expect([...f.patchedRewards]).toEqual([[0, 1], [1, 1]]);
  });

  it('leaves infrastructure failures out of the rewards and lists them apart', () => {
    const f = rerunFindings([rec(0, 'success', 1), rec(1, 'model_error', 0), rec(2, 'wrong_answer', 0.25), rec(3, 'env_error', 0)]);
    expect(f.infra.map((r) => [r.task.index, r.outcome])).toEqual([[1, 'model_error'], [3, 'env_error']]);
    expect([...f.patchedRewards]).toEqual([[0, 1], [2, 0.25]]);
  });

  it('names each hook the sandbox switched off, once per task and hook, in one note', () => {
    const off = { kind: 'disabled', message: 'switched off after 3 worker kills' };
    const f = rerunFindings([
      rec(4, 'wrong_answer', 0, [{ hook: 'on_post_step', hookIndex: 1, fault: off, round: 2 }, { hook: 'on_post_step', hookIndex: 1, fault: off, round: 3 }]),
      rec(7, 'wrong_answer', 0, [{ hook: 'on_post_step', hookIndex: 1, fault: off }, { hook: 'on_init', fault: { kind: 'memory', message: 'MemoryError' } }]),
    ]);
    expect(f.sandboxNotes).toEqual(['2 hook(s) switched off after repeated sandbox worker kills: #4 on_post_step[1], #7 on_post_step[1]']);
    expect(f.hookFaults).toBe(4);
  });
});
