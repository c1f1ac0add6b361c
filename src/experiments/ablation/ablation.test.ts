import { describe, expect, it } from 'vitest';

import { mcnemarExact } from '../../statistics/index.js';
import { ablationArms, targetSpecForRepeat } from './ablation-arms.js';
import { summarizeAblation, type ArmRepeat } from './ablation-summary.js';
import { renderAblationTable } from './render-ablation.js';

describe('ablation arms', () => {
  it('are full, none and one per lifecycle position in call order', () => {
    expect(ablationArms().map((a) => [a.id, a.disabled])).toEqual([
      ['full', []], ['none', []], ['no_on_init', ['on_init']], ['no_make_pre_hint', ['make_pre_hint']], ['no_on_before_action', ['on_before_action']], ['no_on_post_step', ['on_post_step']],
    ]);
  });

  it('vary a simulated target\'s seed per repeat and leave other targets alone', () => {
    expect([0, 1, 2].map((r) => targetSpecForRepeat('sim:dbbench', r))).toEqual(['sim:dbbench?seed=0', 'sim:dbbench?seed=1', 'sim:dbbench?seed=2']);
    expect(targetSpecForRepeat('sim:webshop?faults=timeout&seed=7', 2)).toBe('sim:webshop?faults=timeout&seed=9');
    expect(targetSpecForRepeat('openai:http://127.0.0.1:8000/v1#m?seed=3', 1)).toBe('openai:http://127.0.0.1:8000/v1#m?seed=3');
  });
});

describe('summarizeAblation', () => {
  // Four tasks, two repeats. Full passes 3/4 then 4/4; without pre-action 1/4 then 2/4; none 1/4 both times.
  const rewards = (values: number[]) => new Map(values.map((v, i) => [i, v]));
  const arm = (id: string, repeat: number, values: number[], sameAsFull = false): ArmRepeat => ({ arm: id, repeat, target: `t${repeat}`, rewards: rewards(values), sameAsFull, dir: `arms/r${repeat}-${id}` });
  const full1 = [1, 1, 1, 0];
  const full2 = [1, 1, 1, 1];
  const played = [
    arm('full', 1, full1), arm('none', 1, [1, 0, 0, 0]), arm('no_on_init', 1, full1, true), arm('no_make_pre_hint', 1, full1), arm('no_on_before_action', 1, [1, 0, 0, 0]), arm('no_on_post_step', 1, [1, 1, 0, 1]),
    arm('full', 2, full2), arm('none', 2, [0, 0, 0, 1]), arm('no_on_init', 2, full2, true), arm('no_make_pre_hint', 2, full2), arm('no_on_before_action', 2, [1, 1, 0, 0]), arm('no_on_post_step', 2, full2),
  ];
  const a = summarizeAblation({
    bench: 'dbbench', split: 'dev', threshold: 1, metric: 'delta_pass_rate', target: { label: 'sim', simulated: true }, patchSource: 'p.json', patchHooks: ['make_pre_hint', 'on_before_action', 'on_post_step'],
    tasks: [0, 1, 2, 3], excludedTasks: [], arms: ablationArms(), played, bootstrap: { resamples: 300 },
  });
  const row = (id: string) => a.rows.find((r) => r.arm === id)!;

  it('gives mean ± sample sd over repeats, the drop vs full per repeat, and paired statistics against full', () => {
    expect(row('full').success.values).toEqual([0.75, 1]);
    expect(row('full').paired).toBeUndefined();
    expect(row('no_on_before_action').success.values).toEqual([0.25, 0.5]);
    expect(row('no_on_before_action').dropVsFull.values).toEqual([-0.5, -0.5]);
    expect(row('no_on_before_action').dropVsFull.sd).toBe(0);
    // Over tasks × repeats: full passes 7 of 8, the arm 3; 4 regressed, none rescued.
    expect(row('no_on_before_action').paired!.mcnemar).toEqual(mcnemarExact(0, 4));
    expect(row('none').paired!.mcnemar).toEqual(mcnemarExact(0, 5));
    expect(row('no_on_init').sameAsFull).toBe(true);
    expect(a.labels).toEqual(['simulated target']);
  });

  it('renders the table with the drop in brackets and the simulated label', () => {
    const text = renderAblationTable(a);
    expect(text).toMatch(/SIMULATED TARGET/);
    expect(text).toMatch(/Full patch +87\.5 ± 17\.7 +87\.5 ± 17\.7 +—/);
    expect(text).toMatch(/w\/o pre-action \(on_before_action\) +37\.5 ± 17\.7 \(−50\.0\)/);
    expect(text).toMatch(/w\/o init \(on_init\) = full \(no hook there\)/);
    expect(text).toMatch(/McNemar p=0\.125 \(b=0, c=4\)/);
    expect(text).toContain(`${a.bench} Succ.`);
  });

  it('heads the success column as the benchmark definition says the paper does', () => {
    expect(renderAblationTable(a, { success: 'ALFWorld All' })).toMatch(/^Arm +ALFWorld All +Avg\./m);
  });
});
