/**
 * The "Runtime signals" of one ALFWorld failure trace (protocol.md §2.4), counted from the episode's tool calls
 * and observations (for the v0.2 text protocol, from the actions its turns name).
 */
import { callsOf, listed, normalizeValue, observationsOf, OBSERVATION_KEY_CHARS, reachedTaskLimit, repeatedValues } from '../../../engineer/trace-signals.js';
import type { EpisodeEvidence } from '../../../engineer/episode-evidence.js';
import { parseAlfworldTextAction } from './alfworld-text-actions.js';

/** The part of an ALFWorld observation before its admissible-command list, normalized, first 200 characters. */
function observationKey(text: string): string {
  const cut = text.indexOf('AVAILABLE ACTIONS:');
  return normalizeValue(cut < 0 ? text : text.slice(0, cut)).slice(0, OBSERVATION_KEY_CHARS);
}

/** ALFWorld: actions, "nothing happens", text-only turns, repeated actions and observations, task limit. */
export function alfworldSignalLines(episode: EpisodeEvidence): string[] {
  const { calls, textOnlyTurns } = callsOf(episode, parseAlfworldTextAction);
  const takeActions = calls.filter((c) => c.name === 'take_action');
  const observations = observationsOf(episode);
  const nothingHappens = observations.filter((o) => o.toLowerCase().includes('nothing happens')).length;
  const keys = observations.map(observationKey);
  const lines = [
    `- actions: ${calls.length} (take_action ${takeActions.length})`,
    `- observations with "nothing happens": ${nothingHappens}`,
    `- text-only assistant turns: ${textOnlyTurns}`,
  ];
  const repeatedActions = repeatedValues(takeActions.map((c) => c.value));
  if (repeatedActions.length > 0) lines.push(`- repeated actions: ${listed(repeatedActions)}`);
  lines.push(`- observations total/distinct: ${keys.length}/${new Set(keys).size}`);
  if (reachedTaskLimit(episode)) lines.push('- task_limit_reached: true');
  return lines;
}
