import { describe, expect, it } from 'vitest';

import { EPISODE_RECORD_VERSION, type EpisodeRecord, type HookTraceEntry, type Outcome } from '../episode/index.js';
import { summarizeRun } from './summarize-run.js';

let next = 0;
function record(outcome: Outcome, reward: number, extra: { detail?: Record<string, unknown>; hookTrace?: HookTraceEntry[] } = {}): EpisodeRecord {
  return {
    schemaVersion: EPISODE_RECORD_VERSION,
    task: { bench: 'dbbench', split: 'dev', index: next++ },
    attempt: 1,
    outcome,
    reward,
    rounds: 1,
    detail: extra.detail ?? {},
    steps: [],
    hookTrace: extra.hookTrace ?? [],
    messages: [],
    usage: { promptTokens: 0, completionTokens: 0, modelCalls: 1 },
  };
}

const trace = (hook: HookTraceEntry['hook'], effect: string, disposition: HookTraceEntry['disposition'], fault?: HookTraceEntry['fault']): HookTraceEntry => ({
  round: 1, hook, hookIndex: 0, effect, disposition, ...(fault ? { fault } : {}),
});

describe('summarizeRun', () => {
  it('scores only agent outcomes: infrastructure failures are counted apart, never as failures or zero rewards', () => {
    const s = summarizeRun([
      record('success', 1),
      record('wrong_answer', 0.25),
      record('round_limit', 0),
      record('invalid_action', 0),
      record('model_error', 0),
      record('env_error', 0.9), // an infrastructure record's reward is not averaged in, whatever it says
      record('hook_fault', 0),
    ]);
    expect(s.episodes).toBe(7);
    expect(s.scored).toBe(4);
    expect(s.infraFailures).toBe(3);
    expect(s.successes).toBe(1);
    expect(s.successRate).toBe(1 / 4);
    expect(s.meanReward).toBe((1 + 0.25) / 4);
    expect(s.byOutcome).toEqual({ success: 1, wrong_answer: 1, round_limit: 1, invalid_action: 1, model_error: 1, env_error: 1, hook_fault: 1 });
  });

  it('gives 0 (not NaN) when nothing was scored, and every outcome a zero count', () => {
    const empty = summarizeRun([]);
    expect(empty).toEqual({
      episodes: 0, scored: 0, successes: 0, successRate: 0, meanReward: 0, infraFailures: 0, hookEffects: {}, hookFaults: 0, goldUnreproducible: 0,
      byOutcome: { success: 0, wrong_answer: 0, round_limit: 0, invalid_action: 0, model_error: 0, env_error: 0, hook_fault: 0 },
    });
    const onlyInfra = summarizeRun([record('model_error', 0), record('env_error', 0)]);
    expect(onlyInfra.successRate).toBe(0);
    expect(onlyInfra.meanReward).toBe(0);
    expect(onlyInfra.infraFailures).toBe(2);
  });

  it('counts tasks whose gold is unreproducible only when the flag is exactly true, and still scores them', () => {
    const s = summarizeRun([
      record('wrong_answer', 0, { detail: { goldUnreproducible: true } }),
      record('success', 1, { detail: { goldUnreproducible: true } }),
      record('round_limit', 0, { detail: { goldUnreproducible: true } }),
      record('success', 1, { detail: { goldUnreproducible: 'yes' } }),
      record('success', 1, { detail: { goldUnreproducible: false } }),
    ]);
    expect(s.goldUnreproducible).toBe(3);
    expect(s.scored).toBe(5);
    expect(s.successRate).toBe(3 / 5);
  });

  it('counts hook effects by hook and kind, marks ignored ones, skips none, and counts faults whatever the disposition', () => {
    const s = summarizeRun([
      record('success', 1, { hookTrace: [trace('on_init', 'init', 'applied'), trace('on_before_action', 'block_and_prompt', 'applied'), trace('on_post_step', 'none', 'none')] }),
      record('wrong_answer', 0, {
        hookTrace: [
          trace('on_before_action', 'block_and_prompt', 'applied'),
          trace('on_before_action', 'rewrite', 'ignored'),
          trace('on_post_step', 'none', 'none', { kind: 'timeout', message: 'hook exceeded its budget' }),
          trace('on_init', 'init', 'applied', { kind: 'exception', message: 'partial' }),
        ],
      }),
      // Effects of infrastructure-failed episodes still count: they fired.
      record('model_error', 0, { hookTrace: [trace('on_init', 'init', 'applied')] }),
    ]);
    expect(s.hookEffects).toEqual({
      'on_init:init': 3,
      'on_before_action:block_and_prompt': 2,
      'on_before_action:rewrite (ignored)': 1,
    });
    expect(s.hookFaults).toBe(2);
  });
});
