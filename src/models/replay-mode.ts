import type { ModelSpec } from './model-spec.js';

/**
 * Exact replay of recorded model turns in reruns: `exact` answers a request from the baseline's recording
 * while it is exactly the recorded request, `off` always calls the model.
 */
export const REPLAY_MODES = ['exact', 'off'] as const;
export type ReplayMode = (typeof REPLAY_MODES)[number];

/**
 * The replay a target gets when `--replay` is not given, and why. Replay is exact only when the target's
 * answer is a function of the request: a simulated target, or an `openai:` server declared deterministic
 * (`deterministic=true`; the loops ask at temperature 0). A `scripted:` file plays its turns by position,
 * not by request, so a replayed turn would shift every later one: off. Any other server: off.
 */
export function defaultReplay(spec: ModelSpec): { mode: ReplayMode; reason: string } {
  switch (spec.kind) {
    case 'sim':
      return { mode: 'exact', reason: 'a simulated target answers from the request alone' };
    case 'openai':
      return spec.deterministic === true
        ? { mode: 'exact', reason: 'the server is declared deterministic (deterministic=true) and is asked at temperature 0' }
        : { mode: 'off', reason: 'the server is not declared deterministic (add deterministic=true to its SPEC if it is)' };
    case 'scripted':
      return { mode: 'off', reason: 'a scripted file plays its turns in order, whatever the request' };
    case 'symbolic':
      return { mode: 'off', reason: 'not a target' };
  }
}
