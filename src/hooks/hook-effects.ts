import type { HookName } from '../episode/index.js';

/** on_init: tips for the system prompt and a tool-use hint. */
export interface InitEffect {
  kind: 'init';
  skills: string[];
  toolHint: string;
}

/** make_pre_hint: a user message before the model call. */
export interface PreHintEffect {
  kind: 'hint';
  message: string;
}

/** on_before_action: block the call with a message, or replace the action (rewrite and force are the same). */
export type BeforeActionEffect =
  | { kind: 'block_and_prompt'; message: string }
  | { kind: 'rewrite_action' | 'force_action'; action: string; message?: string };

/** on_post_step: a hint after the observation, or a forced next action. */
export type PostStepEffect = { kind: 'inject_hint'; message: string } | { kind: 'force_action'; action: string; message?: string };

export interface HookEffectByName {
  on_init: InitEffect;
  make_pre_hint: PreHintEffect;
  on_before_action: BeforeActionEffect;
  on_post_step: PostStepEffect;
}

export type HookEffect = HookEffectByName[HookName];
