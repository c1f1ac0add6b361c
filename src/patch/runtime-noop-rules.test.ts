import { describe, expect, it } from 'vitest';

import { BUILTIN_PATCH_RULES } from '../testing/builtin-patch-rules.js';
import type { PatchRules } from './patch-rules.js';

const rulesOf = (bench: string): PatchRules => BUILTIN_PATCH_RULES(bench)!;

import { PATCH_SCHEMA_VERSION, type Benchmark, type HarnessPatch, type PatchAction } from './patch-types.js';
import { findNeverEvaluatedRules, findRuntimeNoop, rejectRuntimeNoop } from './runtime-noop.js';

// The static runtime no-op check on normalized patches, rule by rule: what each benchmark's runtime never
// executes (a patch made only of such actions is `runtime_noop_patch_treated_as_no_patch`).

const patch = (...actions: PatchAction[]): HarnessPatch => ({ schema_version: PATCH_SCHEMA_VERSION, benchmark: 'webshop', description: '', actions });
const guard = (trigger: string, kind: string) => ({ type: 'add_guard_rule', rule_id: 'g', trigger, condition: { always: true }, effect: { kind, message: 'm' } }) as unknown as PatchAction;
const recovery = (trigger: string, kind: string) => ({ type: 'add_recovery_rule', rule_id: 'r', trigger, condition: { always: true }, effect: { kind, message: 'm' } }) as unknown as PatchAction;
const hook = (name: string) => ({ type: 'add_code_hook', hook: name, code: 'def hook(ctx, nb):\n    return None\n' }) as unknown as PatchAction;
const skill = { type: 'add_or_edit_skill', skill_id: 's', task_types: ['*'], keywords: [], text: 't' } as unknown as PatchAction;

describe('findRuntimeNoop', () => {
  it.each<[string, Benchmark, PatchAction, { field: string; message: string } | undefined]>([
    ['a WebShop guard that blocks', 'webshop', guard('before_action', 'block_and_prompt'), undefined],
    ['a WebShop guard that forces', 'webshop', guard('before_action', 'force_action'), undefined],
    ['an ALFWorld guard that rewrites', 'alfworld', guard('before_action', 'rewrite_action'), undefined],
    ['a guard on another trigger', 'webshop', guard('post_step', 'block_and_prompt'), { field: 'actions[0].trigger', message: "action 0 guard trigger 'post_step' is not executed by WebShop overlay guards" }],
    ['a guard that only hints', 'alfworld', guard('before_action', 'inject_hint'), { field: 'actions[0].effect.kind', message: "action 0 guard effect 'inject_hint' is not executed by ALFWorld overlay guards" }],
    ['a recovery rule that hints', 'webshop', recovery('post_step', 'inject_hint'), undefined],
    ['a recovery rule that forces', 'alfworld', recovery('post_step', 'force_action'), undefined],
    ['a recovery rule on budget_check', 'webshop', recovery('budget_check', 'inject_hint'), { field: 'actions[0].trigger', message: "action 0 recovery trigger 'budget_check' is not executed by WebShop overlay recovery" }],
    ['a recovery rule that blocks', 'alfworld', recovery('post_step', 'block_and_prompt'), { field: 'actions[0].effect.kind', message: "action 0 recovery effect 'block_and_prompt' is not executed by ALFWorld overlay recovery" }],
    ['a known code hook', 'webshop', hook('make_pre_hint'), undefined],
    ['an unknown code hook', 'alfworld', hook('on_episode_end'), { field: 'actions[0].hook', message: "action 0 code hook 'on_episode_end' is not executed by ALFWorld code hooks" }],
    ['a DBBench code hook', 'dbbench', hook('on_init'), undefined],
    ['a DBBench skill', 'dbbench', skill, { field: 'actions[0].type', message: "action 0 'add_or_edit_skill' is not active in DBBench code-hook RL" }],
    ['a skill elsewhere', 'webshop', skill, undefined],
  ])('%s on %s', (_name, bench, action, finding) => {
    expect(findRuntimeNoop(patch(action), rulesOf(bench))).toEqual(finding);
  });

  it('names a missing trigger or effect kind None, as the original prints repr(None)', () => {
    const { trigger: _t, ...noTrigger } = guard('before_action', 'block_and_prompt') as unknown as Record<string, unknown>;
    expect(findRuntimeNoop(patch(noTrigger as unknown as PatchAction), rulesOf('webshop'))).toEqual({
      field: 'actions[0].trigger',
      message: 'action 0 guard trigger None is not executed by WebShop overlay guards',
    });
    const noKind = { ...recovery('post_step', 'inject_hint'), effect: { message: 'm' } } as unknown as PatchAction;
    expect(findRuntimeNoop(patch(noKind), rulesOf('alfworld'))).toEqual({
      field: 'actions[0].effect.kind',
      message: 'action 0 recovery effect None is not executed by ALFWorld overlay recovery',
    });
  });

  it('reports the first such action, by its position', () => {
    expect(findRuntimeNoop(patch(hook('on_init'), guard('before_action', 'inject_hint')), rulesOf('webshop'))?.field).toBe('actions[1].effect.kind');
  });

  it('rejects as a runtime no-op with the bare message, or passes the patch through', () => {
    const bad = patch(skill);
    expect(rejectRuntimeNoop(bad, rulesOf('dbbench'))).toEqual({
      ok: false,
      rejection: { rule: 'runtime_noop', field: 'actions[0].type', message: "action 0 'add_or_edit_skill' is not active in DBBench code-hook RL", stage: 'runtime_noop', exception: null },
    });
    expect(rejectRuntimeNoop(bad, rulesOf('webshop'))).toEqual({ ok: true, value: bad });
  });
});

describe('findNeverEvaluatedRules', () => {
  it('lists every DBBench guard and recovery rule, and elsewhere only the rules no runtime runs', () => {
    expect(findNeverEvaluatedRules(patch(skill, guard('before_action', 'block_and_prompt'), recovery('post_step', 'inject_hint')), rulesOf('dbbench'))).toEqual([
      { field: 'actions[1].type', message: 'action 1: the DBBench runtime never evaluates guard rules' },
      { field: 'actions[2].type', message: 'action 2: the DBBench runtime never evaluates recovery rules' },
    ]);
    expect(findNeverEvaluatedRules(patch(hook('nope'), guard('before_action', 'block_and_prompt'), recovery('budget_check', 'inject_hint')), rulesOf('webshop'))).toEqual([
      { field: 'actions[2].trigger', message: "action 2 recovery trigger 'budget_check' is not executed by WebShop overlay recovery" },
    ]);
  });
});
