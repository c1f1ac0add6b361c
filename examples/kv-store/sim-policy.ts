/**
 * The simulated target's policy: it knows each task's reference solution and plays it, one tool call a
 * turn, with the mistakes its fault draws give the task, and it reacts to harness text the way an
 * instruction-following model does. It keeps no state between requests: each request replays the whole
 * conversation (its own turns, the replies, the hints) to find where it is.
 *
 * Faults (each drawn once per task):
 * - `text_only`: it narrates instead of calling tools, every turn, until a hint tells it to call tools;
 * - `repeat`: once its first read returns, it sends that same call again and again, until a block or a hint;
 * - `wrong_tool`: its first call uses a tool name it made up (`read`, `set`, `remove`, `keys`); after three
 *   refusals it gives up and submits;
 * - `early_submit`: its first turn submits a guess without looking at the store.
 *
 * Hints are the tips and tool notes in the system prompt, user messages after the task (not the runtime's
 * nudge) and blocks (tool replies that are not store replies). A hint that names a fault's fix (the
 * keywords below) cures that fault for the rest of the episode with probability `comply`.
 */
import { FINAL_TOOL, isStoreReply } from './store.js';
import { SYSTEM_PROMPT, TEXT_ONLY_NUDGE, taskMessage } from './episode.js';
import { simChance, simHash, type KvFault, type KvSimSettings, KV_FAULTS } from './sim-settings.js';
import type { KvCall, KvTask } from './tasks.js';

export const FIX_KEYWORDS: Readonly<Record<KvFault, RegExp>> = {
  text_only: /every turn must|must be a tool call|(?:answer|reply|respond) with a tool call|plain text|only text|text only/i,
  repeat: /same (?:tool )?call|same arguments|repeat|again|twice|already (?:sent|called|ran)/i,
  wrong_tool: /only the tools|tools you were given|one of these tools|not valid|unknown tool|no such tool/i,
  early_submit: /before (?:you )?(?:submit|answer)|look at the store|read the store|inspect the store/i,
};

const WRONG_NAMES: Readonly<Record<string, string>> = { get: 'read', put: 'set', delete: 'remove', list_keys: 'keys' };
const NARRATION = [
  'Let me think about which keys matter for this task.',
  'I should work out the plan before touching the store.',
  'First I will reason about what the store probably holds.',
];
const GIVE_UP_TRIES = 3;

export type SimTurn = { kind: 'text'; content: string } | { kind: 'call'; tool: string; args: Record<string, unknown>; tag: string };

interface State {
  task: KvTask;
  taskKey: string;
  active: Set<KvFault>;
  turns: number;
  /** The next step of the reference solution. */
  pos: number;
  loop?: KvCall;
  loopBroken: boolean;
  wrongTries: number;
  earlyTried: boolean;
}

/** A task's identity for draws: its instruction and starting store. */
export function kvTaskKey(task: KvTask): string {
  return simHash('kv-task', task.instruction, JSON.stringify(task.store)).slice(0, 16);
}

/** Answers that are surely wrong for the task: what it submits when it guesses or gives up. */
function guess(task: KvTask): string {
  if (task.expect.answer === undefined) return 'done';
  return task.expect.answer === '0' ? '1' : '0';
}

/** The next turn from a state; pure. */
function next(s: State): SimTurn {
  const first = s.task.solution[0]!;
  if (s.active.has('early_submit') && !s.earlyTried) return { kind: 'call', tool: FINAL_TOOL, args: { answer: guess(s.task) }, tag: 'early_submit' };
  if (s.active.has('text_only')) return { kind: 'text', content: NARRATION[s.turns % NARRATION.length]! };
  if (s.wrongTries >= GIVE_UP_TRIES) return { kind: 'call', tool: FINAL_TOOL, args: { answer: guess(s.task) }, tag: 'give_up' };
  if (s.active.has('repeat') && s.loop && !s.loopBroken) return { kind: 'call', tool: s.loop.tool, args: s.loop.args, tag: 'repeat' };
  const step = s.task.solution[Math.min(s.pos, s.task.solution.length - 1)] ?? first;
  const wrong = WRONG_NAMES[step.tool];
  if (s.active.has('wrong_tool') && s.pos === 0 && wrong !== undefined) return { kind: 'call', tool: wrong, args: step.args, tag: 'wrong_tool' };
  return { kind: 'call', tool: step.tool, args: step.args, tag: `step_${s.pos}` };
}

function applyHint(s: State, text: string, position: number, comply: number, seed: number): void {
  for (const fault of KV_FAULTS) {
    if (s.active.has(fault) && FIX_KEYWORDS[fault].test(text) && simChance(seed, s.taskKey, `comply:${fault}:${position}`, comply)) s.active.delete(fault);
  }
}

function applyReply(s: State, turn: SimTurn, reply: string, position: number, settings: KvSimSettings): void {
  if (turn.kind !== 'call') return;
  const blocked = !isStoreReply(reply);
  if (blocked) applyHint(s, reply, position, settings.comply, settings.seed);
  switch (turn.tag) {
    case 'early_submit':
      s.earlyTried = true;
      return;
    case 'wrong_tool':
      s.wrongTries++;
      return;
    case 'repeat':
      if (blocked) s.loopBroken = true;
      return;
    case 'give_up':
      return;
    default: {
      if (turn.tool === FINAL_TOOL && blocked) return; // a blocked final answer is sent again
      const step = s.task.solution[s.pos];
      s.pos++; // a blocked step is skipped, as a model takes a refusal
      if (!blocked && step && (step.tool === 'get' || step.tool === 'list_keys') && s.loop === undefined) s.loop = step;
    }
  }
}

interface WireMessage {
  role?: unknown;
  content?: unknown;
}

/** The task a request plays, found by its task message among the tasks the target knows. */
export function findTask(messages: readonly WireMessage[], tasks: ReadonlyMap<string, KvTask>): { task: KvTask; at: number } | undefined {
  const at = messages.findIndex((m) => m.role === 'user');
  const content = messages[at]?.content;
  const task = typeof content === 'string' ? tasks.get(content) : undefined;
  return task ? { task, at } : undefined;
}

/** Indexes tasks by their task message (the first task listed wins a tie). */
export function indexTasks(lists: readonly (readonly KvTask[])[]): Map<string, KvTask> {
  const index = new Map<string, KvTask>();
  for (const list of lists) for (const t of list) if (!index.has(taskMessage(t))) index.set(taskMessage(t), t);
  return index;
}

/** The next turn of the conversation `messages` on `task`. */
export function decideTurn(task: KvTask, at: number, messages: readonly WireMessage[], settings: KvSimSettings): SimTurn {
  const taskKey = kvTaskKey(task);
  const active = new Set(KV_FAULTS.filter((f) => simChance(settings.seed, taskKey, `fault:${f}`, settings.rates[f])));
  const s: State = { task, taskKey, active, turns: 0, pos: 0, loopBroken: false, wrongTries: 0, earlyTried: false };
  const system = messages[0]?.role === 'system' && typeof messages[0].content === 'string' ? messages[0].content : '';
  // What the harness added to the system prompt (tips, tool notes) is a hint; the base prompt is not.
  if (system.startsWith(SYSTEM_PROMPT) && system.length > SYSTEM_PROMPT.length) applyHint(s, system.slice(SYSTEM_PROMPT.length), 0, settings.comply, settings.seed);
  let last: SimTurn | undefined;
  for (let i = at + 1; i < messages.length; i++) {
    const m = messages[i]!;
    const text = typeof m.content === 'string' ? m.content : '';
    if (m.role === 'assistant') {
      last = next(s);
      s.turns++;
    } else if (m.role === 'tool' && last) {
      applyReply(s, last, text, i, settings);
    } else if (m.role === 'user' && text !== TEXT_ONLY_NUDGE) {
      applyHint(s, text, i, settings.comply, settings.seed);
    }
  }
  return next(s);
}
