/**
 * The markdown failure packet of the trace benchmarks (protocol.md §2.4, §2.5):
 * a header (title, scope, instructions with the benchmark's no-leak line), then one section per failed
 * episode (reward, status, turns, runtime signals, the rendered messages), then a footer with the count
 * and the approximate size. Built from `EpisodeEvidence` only; everything the model typed or saw passes the
 * `paths_and_product_ids` sanitizer.
 *
 * Rendering rules:
 * - cases: scored failures with messages, lowest reward first, then task order (the original's
 *   `round_robin` with a single batch), at most `maxTraces`; task indices are never printed;
 * - system messages are dropped; user messages survive only at message position 0–2 (counted with the
 *   system message) or when they carry "Evaluation metadata", so later nudges and harness text are gone;
 * - each tool call is one `ASSISTANT_TOOL: <name> <args>` line (arguments whitespace-collapsed, cut at
 *   `maxAssistantChars`); an assistant turn without calls is an `ASSISTANT_TEXT:` block cut at
 *   `maxAssistantChars`; tool results are `OBSERVATION:` blocks cut in the middle at `maxObservationChars`;
 * - budget: approximate tokens are characters / 4 (rounded up); traces are added while the text stays
 *   within `maxApproxTokens`, and the first trace is always added.
 */
import { byRewardThenIndex, countExcluded, noFailureTraceLine, type BatchSelection, type EpisodeEvidence } from './episode-evidence.js';
import { clipHead, clipMiddle, collapseWhitespace, tidyLines } from './packet-text.js';
import { sanitizeEvidenceText, type SanitizeMode } from './sanitize-evidence.js';
import { isTextProtocol, taskMessages } from './trace-signals.js';
import type { PacketRenderer } from './engineer.js';

export const TRACE_PACKET_TITLE = '# Harness-R1 Direct Failure Trace Packet';
export const TRACE_PACKET_SANITIZE_MODE: SanitizeMode = 'paths_and_product_ids';
/** User messages at these positions (system message included) are the task; later ones are dropped. */
export const KEPT_USER_POSITIONS = 3;
/** A kept user message (the task and first observation) is cut at this many characters. */
export const MAX_TASK_MESSAGE_CHARS = 4000;

/** Budgets of the markdown trace packet (`harness_r1_trace_packet.py`, protocol.md §2.5). */
export type TracePacketLimits = {
  maxTraces: number;
  maxObservationChars: number;
  maxAssistantChars: number;
  /** Characters / 4. The first trace is always included. */
  maxApproxTokens: number;
};

/** What a benchmark that uses the trace packet supplies: its names, its no-leak line and its runtime signals. */
export interface TraceStyle {
  /** The benchmark's name, printed in the scope section. */
  bench: string;
  /** How the instructions name it (its title). */
  name: string;
  /** The benchmark's "keep the patch free of …" sentence. */
  noLeak: string;
  /** The "Runtime signals" lines of one trace (raw values; the renderer sanitizes them). */
  signals: (episode: EpisodeEvidence) => string[];
  /** A fresh masker per trace, applied after the sanitizer to everything shown (e.g. letters for a text world's numbered instances). */
  masker?: () => (text: string) => string;
}

export function approxTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

function isKeptUser(content: string, position: number): boolean {
  return position < KEPT_USER_POSITIONS || content.includes('Evaluation metadata');
}

/**
 * The message lines of one trace. `mask` is applied after the sanitizer to everything shown. A text
 * protocol's preamble (instructions, one-shot example) is left out like a system message; its first task
 * message is the task, and its later user messages are what the environment answered.
 */
export function renderTraceMessages(episode: EpisodeEvidence, limits: TracePacketLimits, mask: (text: string) => string = (t) => t): string {
  const clean = (text: string): string => mask(sanitizeEvidenceText(text, TRACE_PACKET_SANITIZE_MODE));
  const task = (content: string): string => `USER:\n${clipHead(clean(tidyLines(content)), MAX_TASK_MESSAGE_CHARS)}`;
  const observation = (content: string): string => `OBSERVATION:\n${clipMiddle(clean(tidyLines(content)), limits.maxObservationChars)}`;
  const assistantText = (content: string | null | undefined): string => {
    const text = tidyLines(content ?? '');
    return `ASSISTANT_TEXT:\n${text === '' ? '(empty)' : clipHead(clean(text), limits.maxAssistantChars)}`;
  };
  const blocks: string[] = [];
  if (isTextProtocol(episode)) {
    let seenTask = false;
    for (const message of taskMessages(episode)) {
      if (message.role === 'assistant') blocks.push(assistantText(message.content));
      else if (message.role === 'user') {
        blocks.push(seenTask ? observation(message.content) : task(message.content));
        seenTask = true;
      }
    }
    return blocks.join('\n');
  }
  episode.messages.forEach((message, position) => {
    switch (message.role) {
      case 'system':
        break;
      case 'user':
        if (isKeptUser(message.content, position)) blocks.push(task(message.content));
        break;
      case 'tool':
        blocks.push(observation(message.content));
        break;
      case 'assistant': {
        const calls = message.toolCalls ?? [];
        if (calls.length === 0) blocks.push(assistantText(message.content));
        for (const call of calls) {
          blocks.push(`ASSISTANT_TOOL: ${collapseWhitespace(call.name)} ${clipHead(clean(collapseWhitespace(call.arguments)), limits.maxAssistantChars)}`);
        }
        break;
      }
    }
  });
  return blocks.join('\n');
}

/** One trace section; `ordinal` is its 1-based place in the packet (never the task index). */
export function renderTraceSection(style: TraceStyle, episode: EpisodeEvidence, ordinal: number, limits: TracePacketLimits): string {
  const mask = style.masker ? style.masker() : (text: string) => text;
  // Messages first, so instance letters follow the order in which the trace shows them.
  const messages = renderTraceMessages(episode, limits, mask);
  const signals = style.signals(episode).map((line) => mask(sanitizeEvidenceText(line, TRACE_PACKET_SANITIZE_MODE)));
  return [
    `## Failure trace ${ordinal}`,
    '',
    `- final_reward: ${episode.reward.toFixed(4)}`,
    `- status: ${episode.outcome}`,
    `- turns: ${episode.messages.length}`,
    '',
    '### Runtime signals',
    '',
    ...signals,
    '',
    '### Messages',
    '',
    messages,
  ].join('\n');
}

function renderHeader(style: TraceStyle, selection: BatchSelection, candidates: number, included: number): string {
  const lines = [
    TRACE_PACKET_TITLE,
    '',
    'Each section below is a deterministic extract of one failed no-harness rollout. No debugger model has read or labelled these traces.',
    '',
    '## Scope',
    '',
    `- benchmark: ${style.bench}`,
    `- source run: ${sanitizeEvidenceText(`${selection.batchTag} (split ${selection.split})`, TRACE_PACKET_SANITIZE_MODE)}`,
    `- failures below reward ${selection.passThreshold.toFixed(4)}: ${candidates}`,
    `- traces included: ${included}`,
    '- order: lowest reward first, then task order (round_robin over one batch)',
  ];
  if (selection.excluded.length > 0) {
    const parts = countExcluded(selection.excluded)
      .map(([outcome, n]) => `${outcome} ${n}`)
      .join(', ');
    lines.push(`- infrastructure failures left out: ${selection.excluded.length} (${parts}); they say nothing about the agent`);
  }
  if (selection.missing.length > 0) lines.push(`- tasks without an episode: ${selection.missing.length}`);
  lines.push(
    '',
    '## How to use this packet',
    '',
    `- Look for failure modes of the ${style.name} agent that recur across several traces and would recur on unseen tasks; explain those before anything else.`,
    `- ${style.noLeak}`,
    '- Prefer typed patch actions whose effect a reviewer can check.',
    '- Block an action only when the condition behind the block can be observed for certain; otherwise give a hint.',
  );
  return lines.join('\n');
}

function renderFooter(included: number, candidates: number, tokens: number): string {
  return `---\nTraces included: ${included} of ${candidates}. Approximate size: ${tokens} tokens (characters / 4).`;
}

/** Renders the whole packet of one batch within `limits`. */
export function renderTracePacket(
  style: TraceStyle,
  selection: BatchSelection,
  limits: TracePacketLimits,
): { text: string; included: number; truncated: boolean } {
  const ordered = [...selection.failures].sort(byRewardThenIndex);
  const candidates = ordered.slice(0, Math.max(0, limits.maxTraces));
  const sections = candidates.map((episode, i) => renderTraceSection(style, episode, i + 1, limits));
  // The header names the included count, so the budget loop measures with the final count's width.
  const measure = (count: number): string => [renderHeader(style, selection, ordered.length, count), ...sections.slice(0, count)].join('\n\n');
  let count = 0;
  for (let next = 1; next <= sections.length; next++) {
    if (next > 1 && approxTokens(measure(next)) > limits.maxApproxTokens) break;
    count = next;
  }
  const body = sections.length === 0 ? `${measure(0)}\n\n${noFailureTraceLine(selection)}` : measure(count);
  const text = `${body}\n\n${renderFooter(count, ordered.length, approxTokens(body))}`;
  return { text, included: count, truncated: count < ordered.length };
}

/** The trace packet as a benchmark's packet renderer (`<bench>-trace-packet-v1`). */
export function tracePacketRenderer(style: TraceStyle, defaultLimits: Readonly<TracePacketLimits>): PacketRenderer<TracePacketLimits> {
  return {
    format: `${style.bench}-trace-packet-v1`,
    defaultLimits,
    sanitize: TRACE_PACKET_SANITIZE_MODE,
    render: (selection, limits) => renderTracePacket(style, selection, limits),
  };
}
