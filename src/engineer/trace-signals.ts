/**
 * Building blocks of the "Runtime signals" of a trace-packet failure trace (protocol.md §2.4), counted from the
 * episode's tool calls and observations only (for the v0.2 text protocols, from the actions the turns
 * name, parsed as the protocol parses them). Values that the agent typed (search terms, click values,
 * actions) are returned raw; the packet renderer sanitizes them with the rest of the text.
 */
import type { ChatMessage } from '../episode/index.js';
import type { EpisodeEvidence } from './episode-evidence.js';
import { collapseWhitespace } from './packet-text.js';
import type { TextActionParser } from './text-actions.js';

/** How many repeated values a signal line lists at most. */
export const MAX_REPEATED_LISTED = 3;
/** Observations are compared on their first 200 normalized characters. */
export const OBSERVATION_KEY_CHARS = 200;

/** The first value of a tool call's JSON arguments as text (the runtimes use the first value, whatever its key). */
export function firstArgumentText(raw: string): string {
  try {
    const parsed: unknown = JSON.parse(raw);
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) {
      const first: unknown = Object.values(parsed)[0];
      if (typeof first === 'string') return first;
      return first === undefined ? '' : JSON.stringify(first);
    }
  } catch {
    // Unparsable arguments: fall back to the raw text.
  }
  return raw;
}

export function normalizeValue(value: string): string {
  return collapseWhitespace(value).toLowerCase();
}

/** Values seen at least twice with their counts: most frequent first, then first seen. */
export function repeatedValues(values: readonly string[]): Array<{ value: string; count: number }> {
  const counts = new Map<string, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  return [...counts.entries()]
    .map(([value, count], order) => ({ value, count, order }))
    .filter((e) => e.count >= 2)
    .sort((a, b) => b.count - a.count || a.order - b.order)
    .map(({ value, count }) => ({ value, count }));
}

export interface Call {
  name: string;
  value: string;
}

/** True for a text-protocol episode (it records a preamble instead of a system message). */
export function isTextProtocol(episode: EpisodeEvidence): boolean {
  return (episode.preamble ?? 0) > 0;
}

/** The messages of the task itself: a text protocol's preamble (instructions, one-shot) left out. */
export function taskMessages(episode: EpisodeEvidence): readonly ChatMessage[] {
  return episode.messages.slice(episode.preamble ?? 0);
}

/**
 * The agent's actions and its turns without one. Tool-calling turns give one action per call; a
 * text-protocol turn gives the action its text names, or counts as text-only when it names none.
 */
export function callsOf(episode: EpisodeEvidence, parseText: TextActionParser): { calls: Call[]; textOnlyTurns: number } {
  const text = isTextProtocol(episode);
  const calls: Call[] = [];
  let textOnlyTurns = 0;
  for (const message of taskMessages(episode)) {
    if (message.role !== 'assistant') continue;
    if (text) {
      const call = parseText(message.content ?? '');
      if (call) calls.push(call);
      else textOnlyTurns++;
      continue;
    }
    const list = message.toolCalls ?? [];
    if (list.length === 0) textOnlyTurns++;
    for (const call of list) calls.push({ name: call.name, value: normalizeValue(firstArgumentText(call.arguments)) });
  }
  return { calls, textOnlyTurns };
}

/** What the environment said after each action: tool messages, or a text protocol's later user messages. */
export function observationsOf(episode: EpisodeEvidence): string[] {
  if (!isTextProtocol(episode)) return episode.messages.filter((m) => m.role === 'tool').map((m) => m.content);
  return taskMessages(episode)
    .filter((m) => m.role === 'user')
    .slice(1)
    .map((m) => m.content);
}

export function listed(entries: ReadonlyArray<{ value: string; count: number }>): string {
  return entries
    .slice(0, MAX_REPEATED_LISTED)
    .map((e) => `"${e.value}" x${e.count}`)
    .join(', ');
}

/** True when the episode ended on the step/round budget (the original's "task limit" status). */
export function reachedTaskLimit(episode: EpisodeEvidence): boolean {
  return episode.outcome === 'round_limit';
}

/**
 * Signals any tool-using benchmark can show: actions by tool, text-only turns, repeated actions and the task
 * limit. Benchmarks with their own signal lines (the built-in trace benchmarks) build them from the helpers above.
 */
export function genericSignalLines(episode: EpisodeEvidence, parseText: TextActionParser = () => undefined): string[] {
  const { calls, textOnlyTurns } = callsOf(episode, parseText);
  const byTool = new Map<string, number>();
  for (const c of calls) byTool.set(c.name, (byTool.get(c.name) ?? 0) + 1);
  const tools = [...byTool.entries()].map(([name, n]) => `${name} ${n}`).join(', ');
  const lines = [`- actions: ${calls.length}${tools === '' ? '' : ` (${tools})`}`, `- text-only assistant turns: ${textOnlyTurns}`];
  const repeated = repeatedValues(calls.map((c) => `${c.name} ${c.value}`));
  if (repeated.length > 0) lines.push(`- repeated actions: ${listed(repeated)}`);
  if (reachedTaskLimit(episode)) lines.push('- task_limit_reached: true');
  return lines;
}
