import type { EpisodeRecord } from '../../../episode/index.js';
import { processAlfworldAction } from '../../../environments/alfworld/alfworld-environment.js';

/**
 * ALFWorld failure signatures, read only from what the target saw and did: the goal line and the
 * AVAILABLE ACTIONS of the observation messages, the actions it sent and the observations it got back.
 * Never `detail`, never the game files.
 */
export const ALFWORLD_SIGNATURE_IDS = [
  'skip_transform',
  'wrong_destination',
  'repeat_failed',
  'transform_loop',
  'forget_second',
  'invalid_action',
] as const;

export type AlfworldSignatureId = (typeof ALFWORLD_SIGNATURE_IDS)[number];

export const ALFWORLD_SIGNATURE_DESCRIPTIONS: Readonly<Record<AlfworldSignatureId, string>> = Object.freeze({
  skip_transform: 'the target object was put somewhere before the heat/cool/clean step the goal asks for',
  wrong_destination: 'the target object was put in/on a receptacle of another type than the goal names',
  repeat_failed: 'the same action was sent again right after it gave "Nothing happens.", or the same output three times in a row',
  transform_loop: 'the same object was heated/cooled/cleaned more than once (transform and place loop)',
  forget_second: 'a pick-two task ended with fewer than two objects placed at the destination',
  invalid_action: 'an action that was not in the AVAILABLE ACTIONS list',
});

export type AlfworldTransform = 'heat' | 'cool' | 'clean' | '';

/** The goal as the first user message states it ("Your task is to: …"). */
export interface AlfworldGoal {
  kind: 'place' | 'transform' | 'two' | 'look' | 'unknown';
  transform: AlfworldTransform;
  target: string;
  destination: string;
}

const TRANSFORM_OF: Readonly<Record<string, AlfworldTransform>> = { hot: 'heat', heated: 'heat', heat: 'heat', cool: 'cool', cold: 'cool', cooled: 'cool', clean: 'clean', cleaned: 'clean' };

/** Reads the goal line; types are the words the goal uses (no instance numbers). */
export function parseAlfworldGoal(text: string): AlfworldGoal {
  const goal = (/Your task is to:\s*([^\n.]*)/.exec(text)?.[1] ?? '').toLowerCase().trim();
  let m = /^(heat|cool|clean) (?:a|an|some|the) (\w+) and put it (?:in|on|in\/on) (?:a |an |the |some )?(\w+)/.exec(goal);
  if (m) return { kind: 'transform', transform: TRANSFORM_OF[m[1]!] ?? '', target: m[2]!, destination: m[3]! };
  m = /^put (?:a|an|some|the) (hot|heated|cool|cold|cooled|clean|cleaned) (\w+) (?:in|on|in\/on) (?:a |an |the |some )?(\w+)/.exec(goal);
  if (m) return { kind: 'transform', transform: TRANSFORM_OF[m[1]!] ?? '', target: m[2]!, destination: m[3]! };
  m = /^(?:put two (\w+) (?:in|on|in\/on)|find two (\w+) and put them (?:in|on|in\/on)) (?:a |an |the |some )?(\w+)/.exec(goal);
  if (m) return { kind: 'two', transform: '', target: m[1] ?? m[2] ?? '', destination: m[3]! };
  m = /^put (?:a|an|some|the) (\w+) (?:in|on|in\/on) (?:a |an |the |some )?(\w+)/.exec(goal);
  if (m) return { kind: 'place', transform: '', target: m[1]!, destination: m[2]! };
  m = /^(?:look at|examine) (?:a |an |the |some )?(\w+) (?:under|with|using) (?:a |an |the )?(\w+)/.exec(goal);
  if (m) return { kind: 'look', transform: '', target: m[1]!, destination: m[2]! };
  return { kind: 'unknown', transform: '', target: '', destination: '' };
}

/** An entity's type: its name without the instance number. */
export function entityType(name: string): string {
  // `.replace(/\s+\d+$/, '')` as a scan: the trailing digits, then the whitespace before them.
  const text = name.trim().toLowerCase();
  let digits = text.length;
  while (digits > 0 && text.charCodeAt(digits - 1) >= 0x30 && text.charCodeAt(digits - 1) <= 0x39) digits--;
  let space = digits;
  while (space > 0 && /\s/.test(text[space - 1]!)) space--;
  return digits < text.length && space < digits ? text.slice(0, space) : text;
}

/**
 * `re.exec(text)` for a pattern `^…(.+)$` without the `m` flag: such a match spans the whole text, so text
 * with a line break never matches, and on one line the lazy groups are tried once per position (linear).
 * On text with line breaks the regex itself rescans the line for every occurrence of its separator.
 */
function execWholeLine(re: RegExp, text: string): RegExpExecArray | null {
  return /[\n\r\u2028\u2029]/.test(text) ? null : re.exec(text);
}

/** One action the target sent, with what it could choose from and what it got back. */
export interface AlfworldEvent {
  /** What the target wrote (lower-cased, trimmed). */
  raw: string;
  /** The command the environment ran: `raw` mapped onto the admissible list as the environment maps it. */
  action: string;
  observation: string;
  admissible: string[];
}

function firstArgument(args: string): string {
  try {
    const parsed: unknown = JSON.parse(args);
    if (parsed !== null && typeof parsed === 'object') {
      const first = Object.values(parsed)[0];
      return typeof first === 'string' ? first : '';
    }
  } catch {
    return '';
  }
  return '';
}

function admissibleOf(content: string): string[] | undefined {
  const at = content.indexOf('AVAILABLE ACTIONS:');
  if (at < 0) return undefined;
  return content
    .slice(at + 'AVAILABLE ACTIONS:'.length)
    .split('\n')
    .map((s) => s.trim().toLowerCase())
    .filter((s) => s !== '');
}

/** The episode's actions in order, from the messages (tool results answer tool calls). */
export function observeAlfworld(record: EpisodeRecord): { goal: AlfworldGoal; events: AlfworldEvent[] } {
  const firstUser = record.messages.find((m) => m.role === 'user');
  const goal = parseAlfworldGoal(firstUser?.content ?? '');
  const events: AlfworldEvent[] = [];
  let admissible: string[] = [];
  let pending: { id: string; raw: string; admissible: string[] } | undefined;
  for (const m of record.messages) {
    if (m.role === 'user') {
      admissible = admissibleOf(m.content) ?? admissible;
    } else if (m.role === 'assistant') {
      const call = m.toolCalls?.[0];
      pending = call ? { id: call.id, raw: firstArgument(call.arguments).trim().toLowerCase(), admissible } : undefined;
    } else if (m.role === 'tool' && pending && m.toolCallId === pending.id) {
      const at = m.content.indexOf(' AVAILABLE ACTIONS:');
      const action = pending.admissible.length > 0 ? processAlfworldAction(pending.raw, pending.admissible) : pending.raw;
      events.push({ raw: pending.raw, action, observation: at >= 0 ? m.content.slice(0, at) : m.content, admissible: pending.admissible });
      admissible = admissibleOf(m.content) ?? admissible;
      pending = undefined;
    }
  }
  return { goal, events };
}

const NOTHING = /nothing happens/i;

export function detectAlfworldSignatures(record: EpisodeRecord): Set<AlfworldSignatureId> {
  const { goal, events } = observeAlfworld(record);
  const found = new Set<AlfworldSignatureId>();
  /** Object → the receptacle type it was transformed with. */
  const transformed = new Map<string, string>();
  const transformCount = new Map<string, number>();
  /** Target objects lying at a destination of the goal's type after each executed command. */
  const atDestination = new Set<string>();
  events.forEach((e, i) => {
    if (e.admissible.length > 0 && !e.admissible.includes(e.raw)) found.add('invalid_action');
    const prev = events[i - 1];
    if (prev && prev.raw === e.raw && NOTHING.test(prev.observation)) found.add('repeat_failed');
    const before = events[i - 2];
    if (prev && before && prev.raw === e.raw && before.raw === e.raw) found.add('repeat_failed');
    const tr = execWholeLine(/^(heat|cool|clean) (.+?) with (.+)$/, e.action);
    if (tr && !NOTHING.test(e.observation)) {
      const obj = tr[2]!;
      transformed.set(obj, entityType(tr[3]!));
      transformCount.set(obj, (transformCount.get(obj) ?? 0) + 1);
      if ((transformCount.get(obj) ?? 0) >= 2) found.add('transform_loop');
    }
    // What the target meant (its own text) and what ran (the mapped command) can differ: judge intent on both.
    for (const text of new Set([e.raw, e.action])) {
      const put = execWholeLine(/^put (.+?) in\/on (.+)$/, text);
      if (!put || goal.target === '' || entityType(put[1]!) !== goal.target) continue;
      const obj = put[1]!;
      const where = entityType(put[2]!);
      if (goal.kind === 'transform' && where === goal.destination && !transformed.has(obj)) found.add('skip_transform');
      if ((goal.kind === 'transform' || goal.kind === 'place' || goal.kind === 'two') && where !== goal.destination) {
        // Putting the object back into the appliance it was transformed with is the transform loop, not a wrong place.
        if (transformed.get(obj) === where) found.add('transform_loop');
        else found.add('wrong_destination');
      }
    }
    if (NOTHING.test(e.observation)) return;
    const placed = execWholeLine(/^put (.+?) in\/on (.+)$/, e.action);
    if (placed && entityType(placed[1]!) === goal.target && entityType(placed[2]!) === goal.destination) atDestination.add(placed[1]!);
    const taken = execWholeLine(/^take (.+?) from (.+)$/, e.action);
    if (taken && entityType(taken[2]!) === goal.destination) atDestination.delete(taken[1]!);
  });
  if (goal.kind === 'two' && atDestination.size < 2 && record.outcome !== 'success') found.add('forget_second');
  return found;
}
