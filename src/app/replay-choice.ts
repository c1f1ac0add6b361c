import { defaultReplay, type ReplayMode } from '../models/replay-mode.js';
import { parseModelSpec } from '../models/model-spec.js';

/**
 * The replay a command plays its reruns with: `--replay` when given, else the target's default (exact for
 * targets whose answer is a function of the request), with the reason to show.
 */
export function chooseReplay(targetSpec: string, given: ReplayMode | undefined): { mode: ReplayMode; reason: string } {
  if (given !== undefined) return { mode: given, reason: `--replay ${given}` };
  return defaultReplay(parseModelSpec(targetSpec, { field: 'target' }));
}

/** The `--replay` help text. */
export const REPLAY_HELP =
  "reruns reuse the baseline's recorded model turns while the request is exactly the baseline's: exact or off " +
  '(default: exact for sim: targets and openai: servers declared deterministic=true, off otherwise)';
