/**
 * The silent-zero alarm. A server set up wrong does not fail: it answers every turn, the agent never acts
 * and every episode ends at the round limit with reward 0, which reads as a weak target. This counts, over
 * stored episode records, the model turns that show such a setup — the tool call written as text in
 * `content` (no tool-call parser), empty turns (a reasoning model that spent the turn thinking), tool-call
 * arguments that do not parse — and the response caps that bit, and turns the counts into warnings that
 * name the likely server setting, as the probe does. Pure: records in, counts and warnings out.
 *
 * A turn is one assistant message after the record's preamble (text protocols start with a fixed
 * exchange that is not the model's). The n-th turn is round n, which is how a cut call recorded in
 * `detail.modelLimits` is matched to its turn. Tool-call counts apply to tool-calling protocols only
 * (records without a preamble); in the text protocols the content is the action channel.
 */
import type { EpisodeRecord } from '../episode/index.js';
import { RESPONSE_LIMIT_NAMES, type ResponseLimitName } from '../models/chat-model.js';
import { BAD_ARGUMENTS_FIXES, EMPTY_TURN_FIXES, isXmlToolCallText, looksLikeToolCallText, toolCallTextFixes } from '../models/turn-diagnosis.js';

/** A symptom warns once it covers at least this share of the turns it is counted over. */
export const MODEL_TURN_WARN_SHARE = 0.1;

export type ModelTurnWarningKind = 'tool_calls_as_text' | 'empty_turns' | 'bad_tool_arguments' | 'response_limits';

export interface ModelTurnWarning {
  kind: ModelTurnWarningKind;
  /** Turns (or, for `response_limits`, cap hits) showing the symptom. */
  count: number;
  /** The turns it is counted over (0 for `response_limits`). */
  of: number;
  /** One sentence: what was seen and what it means. */
  message: string;
  /** What to change, most likely first. */
  fixes: string[];
}

export interface ModelTurnHealth {
  episodes: number;
  /** Assistant turns of all episodes. */
  turns: number;
  /** Turns of tool-calling protocols: what `textToolCalls` and `badToolArguments` are counted over. */
  toolProtocolTurns: number;
  /** Turns without a structured call whose content reads like a tool call (`<tool_call>…`). */
  textToolCalls: number;
  /** Turns with neither content nor a tool call. */
  emptyTurns: number;
  /** Empty turns that carried reasoning: everything went into the reasoning field. */
  reasoningOnlyTurns: number;
  /** Turns with at least one tool call whose arguments are not a JSON object (calls cut by a cap excepted). */
  badToolArguments: number;
  /** How often each response cap bit (`detail.modelLimits`). */
  limits: Record<ResponseLimitName, number>;
  /** Symptoms above {@link MODEL_TURN_WARN_SHARE}, and any cap that bit. */
  warnings: ModelTurnWarning[];
}

export function summarizeModelTurns(records: readonly EpisodeRecord[]): ModelTurnHealth {
  const limits = Object.fromEntries(RESPONSE_LIMIT_NAMES.map((name) => [name, 0])) as Record<ResponseLimitName, number>;
  let turns = 0;
  let toolProtocolTurns = 0;
  let textToolCalls = 0;
  let xmlText = 0;
  let emptyTurns = 0;
  let reasoningOnlyTurns = 0;
  let badToolArguments = 0;
  for (const record of records) {
    const cut = new Set<string>();
    for (const hit of limitHitsOf(record)) {
      limits[hit.limit]++;
      if (hit.limit === 'max_tool_args_chars' && hit.call !== undefined) cut.add(`${hit.round}:${hit.call}`);
    }
    const toolProtocol = record.preamble === undefined;
    let round = 0;
    for (const message of record.messages.slice(record.preamble ?? 0)) {
      if (message.role !== 'assistant') continue;
      round++;
      turns++;
      if (toolProtocol) toolProtocolTurns++;
      const calls = message.toolCalls ?? [];
      const content = message.content ?? '';
      if (calls.length === 0 && content.trim() === '') {
        emptyTurns++;
        if ((message.reasoning ?? '') !== '') reasoningOnlyTurns++;
      }
      if (!toolProtocol) continue;
      if (calls.length === 0 && looksLikeToolCallText(content)) {
        textToolCalls++;
        if (isXmlToolCallText(content)) xmlText++;
      }
      if (calls.some((call, index) => !cut.has(`${round}:${index}`) && !isJsonObject(call.arguments))) badToolArguments++;
    }
  }
  const health: Omit<ModelTurnHealth, 'warnings'> = { episodes: records.length, turns, toolProtocolTurns, textToolCalls, emptyTurns, reasoningOnlyTurns, badToolArguments, limits };
  return { ...health, warnings: warningsOf(health, xmlText > textToolCalls / 2) };
}

/** True when any count is above zero (the CLI prints the counts only then). */
export function hasModelTurnFindings(health: ModelTurnHealth): boolean {
  return health.textToolCalls + health.emptyTurns + health.badToolArguments + Object.values(health.limits).reduce((a, b) => a + b, 0) > 0;
}

function warningsOf(h: Omit<ModelTurnHealth, 'warnings'>, xml: boolean): ModelTurnWarning[] {
  const warnings: ModelTurnWarning[] = [];
  const above = (count: number, of: number) => count > 0 && count >= MODEL_TURN_WARN_SHARE * of;
  if (above(h.textToolCalls, h.toolProtocolTurns)) {
    warnings.push({
      kind: 'tool_calls_as_text',
      count: h.textToolCalls,
      of: h.toolProtocolTurns,
      message:
        `${share(h.textToolCalls, h.toolProtocolTurns)} model turns came back with the tool call written as text in message.content instead of ` +
        "structured tool_calls: the server's tool-call parser is off or does not match the model, and such turns never act (rewards silently 0).",
      fixes: [...toolCallTextFixes(xml), 'Check the server with: harness-r1 probe --model <the target SPEC>.'],
    });
  }
  if (above(h.emptyTurns, h.turns)) {
    const reasoning = h.reasoningOnlyTurns > 0 ? ` (${h.reasoningOnlyTurns} with reasoning only)` : '';
    warnings.push({
      kind: 'empty_turns',
      count: h.emptyTurns,
      of: h.turns,
      message: `${share(h.emptyTurns, h.turns)} model turns were empty, with no content and no tool call${reasoning}: a reasoning model that spends the turn thinking, or a reasoning parser that takes the answer with it.`,
      fixes: [...EMPTY_TURN_FIXES],
    });
  }
  if (above(h.badToolArguments, h.toolProtocolTurns)) {
    warnings.push({
      kind: 'bad_tool_arguments',
      count: h.badToolArguments,
      of: h.toolProtocolTurns,
      message: `${share(h.badToolArguments, h.toolProtocolTurns)} model turns had tool-call arguments that are not a JSON object, so those calls were answered as invalid.`,
      fixes: [...BAD_ARGUMENTS_FIXES],
    });
  }
  const hits = Object.entries(h.limits).filter(([, n]) => n > 0);
  if (hits.length > 0) {
    const total = hits.reduce((a, [, n]) => a + n, 0);
    warnings.push({
      kind: 'response_limits',
      count: total,
      of: 0,
      message: `Response caps bit ${total} time(s) (${hits.map(([name, n]) => `${name} ×${n}`).join(', ')}): those answers were cut or refused; each episode's detail.modelLimits says where.`,
      fixes: ['A sane turn stays far below the default caps: check max_tokens and the server. Raise a cap with its SPEC option (e.g. max_tool_calls=<n>) only if such answers are expected.'],
    });
  }
  return warnings;
}

/** The `detail.modelLimits` entries of a record that are well formed (records are read back from disk). */
function limitHitsOf(record: EpisodeRecord): { limit: ResponseLimitName; round: number; call?: number }[] {
  const raw = record.detail.modelLimits;
  if (!Array.isArray(raw)) return [];
  return raw.filter(
    (hit: unknown): hit is { limit: ResponseLimitName; round: number; call?: number } =>
      typeof hit === 'object' && hit !== null && (RESPONSE_LIMIT_NAMES as readonly unknown[]).includes((hit as { limit?: unknown }).limit) && typeof (hit as { round?: unknown }).round === 'number',
  );
}

function isJsonObject(text: string): boolean {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value);
  } catch {
    return false;
  }
}

function share(count: number, of: number): string {
  return `${count} of ${of} (${of === 0 ? '0.0' : ((100 * count) / of).toFixed(1)}%)`;
}
