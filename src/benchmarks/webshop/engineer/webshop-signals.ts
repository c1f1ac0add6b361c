/**
 * The "Runtime signals" of one WebShop failure trace (protocol.md §2.4), counted from the episode's tool calls
 * (for the v0.2 text protocol, from the actions its turns name). Values the agent typed are returned raw;
 * the packet renderer sanitizes them with the rest of the text.
 */
import { callsOf, listed, reachedTaskLimit, repeatedValues } from '../../../engineer/trace-signals.js';
import type { EpisodeEvidence } from '../../../engineer/episode-evidence.js';
import { parseWebShopTextAction } from './webshop-text-actions.js';

/** WebShop: actions by kind, text-only turns, repeated searches (else clicks, else any action), task limit. */
export function webShopSignalLines(episode: EpisodeEvidence): string[] {
  const { calls, textOnlyTurns } = callsOf(episode, parseWebShopTextAction);
  const searches = calls.filter((c) => c.name === 'search_action');
  const clicks = calls.filter((c) => c.name === 'click_action');
  const buyNow = clicks.filter((c) => c.value === 'buy now').length;
  const lines = [
    `- actions: ${calls.length} (search ${searches.length}, click ${clicks.length}, buy now ${buyNow})`,
    `- text-only assistant turns: ${textOnlyTurns}`,
  ];
  const repeatedSearches = repeatedValues(searches.map((c) => c.value));
  const repeatedClicks = repeatedValues(clicks.map((c) => c.value));
  if (repeatedSearches.length > 0) lines.push(`- repeated search terms: ${listed(repeatedSearches)}`);
  else if (repeatedClicks.length > 0) lines.push(`- repeated click values: ${listed(repeatedClicks)}`);
  else {
    const repeatedActions = repeatedValues(calls.map((c) => `${c.name} ${c.value}`));
    if (repeatedActions.length > 0) lines.push(`- repeated actions: ${listed(repeatedActions)}`);
  }
  if (reachedTaskLimit(episode)) lines.push('- task_limit_reached: true');
  return lines;
}
