import { processAlfworldAction } from '../../../environments/alfworld/alfworld-environment.js';
import { entityType, splitListedItems } from '../../../environments/alfworld/alfworld-hook-context.js';
import type { AlfworldGameRecord } from '../../../environments/alfworld/load-games.js';
import { stripArrivalPrefix } from '../../../environments/alfworld/render-observation.js';
import { ALFWORLD_FAMILY_OF } from '../../../environments/alfworld/task-families.js';
import { simChance, simIndex } from '../../dbbench/simulation/sim-rng.js';
import type { AlfworldGameIndex } from './alfworld-game-index.js';
import { ConversationStore, type SeenMessage } from './conversation-store.js';
import { faultsNamedBy, type AlfworldFault, type AlfworldSimSettings } from './alfworld-sim-settings.js';

/** Why the target sent an action: the expert plan, a recovery step, or one of the failure modes. */
export type AlfworldSimTag = 'plan' | 'recover' | 'retry' | 'repeat_failed' | 'transform_loop' | 'wrong_destination' | 'done_repeat';

export type AlfworldSimTurn =
  | { kind: 'action'; gameId: string; action: string; tag: AlfworldSimTag; /** v0.2 requests: the reply text. */ text?: string }
  | { kind: 'text'; content: string; problem: { code: 'unknown_task' | 'bad_request'; message: string } };

/** The faults drawn for one game, and the plan facts they act on (indices into the expert walkthrough). */
export interface AlfworldGamePlan {
  game: AlfworldGameRecord;
  active: ReadonlySet<AlfworldFault>;
  /** Index of the heat/cool/clean command, or -1. */
  transformAt: number;
  /** Index of the last put (`move X to Y`), or -1 (look_at_obj). */
  finalPutAt: number;
  /** pick_two: index of the first put, else -1. */
  firstPutAt: number;
  /** repeat_failed: the step whose command is garbled. */
  garbleAt: number;
  wrongReceptacle: string;
}

/** What the target believes, replayed from the conversation (and kept between its requests). */
interface Mind {
  w: number;
  queue: string[];
  fixed: Set<AlfworldFault>;
  skipped: boolean;
  wrongPhase: 0 | 1 | 2;
  wrongPlaced: boolean;
  loopPos: number;
  inAppliance: boolean;
  lastAction: string;
  blocks: number;
  hints: number;
}

type Wording = '2.1.1' | '2.1.2';
type StepResult = 'ok' | 'nothing' | 'blocked';

export interface AlfworldSimPolicy {
  readonly settings: AlfworldSimSettings;
  planFor(game: AlfworldGameRecord, initialObservation: string): AlfworldGamePlan;
  decideTurn(body: unknown): AlfworldSimTurn;
}

interface WireMsg {
  role: string;
  content: string;
  action: string | undefined;
}

/** One candidate game's check against the tool replies: the commands stepped so far, where it resumes. */
interface GameScan {
  /** The commands the game was stepped with, in order (to step a reset instance back to where it was). */
  actions: string[];
  /** The message index the next check starts at. */
  next: number;
  /** The answer of `firstMismatch` once found (then final), else Infinity. */
  mismatchAt: number;
}

/** The replay of the target's own turns for one belief (game, and where the replay started). */
interface MindState {
  gameId: string;
  from: number;
  sim: MindReplay;
  /** The first message not replayed yet (an action still waiting for its reply is not). */
  resumeAt: number;
  /** The target's previous turn: the action it meant and the reply it wrote. */
  previous: { action: string; reply: WireMsg } | undefined;
}

/** What the target keeps of one conversation between requests. */
interface ConversationState {
  scans: Map<string, GameScan>;
  mind: MindState | undefined;
}

/** How many conversations the target remembers by default (the ones used last). */
export const ALFWORLD_SIM_MEMORY = 128;

/**
 * The simulated ALFWorld target: a function of the conversation (each request replays its own past turns
 * against the replies it got), seeded per game, following the expert walkthrough except where a drawn
 * failure mode applies. A block of a faulty action, or a hint naming the fix, corrects that mode with
 * probability `comply`. So that a turn costs the new messages only, the replay's state is remembered per
 * conversation (`memory` conversations, 0: none) and resumed when a request extends what it has seen; the
 * answer is the same either way.
 */
export function createAlfworldSimPolicy(options: { index: AlfworldGameIndex; settings: AlfworldSimSettings; memory?: number }): AlfworldSimPolicy {
  const { index, settings } = options;
  const plans = new Map<string, AlfworldGamePlan>();
  const conversations = new ConversationStore<ConversationState>(options.memory ?? ALFWORLD_SIM_MEMORY);

  function planFor(game: AlfworldGameRecord, initialObservation: string): AlfworldGamePlan {
    const cached = plans.get(game.id);
    if (cached) return cached;
    const w = game.walkthrough;
    const family = ALFWORLD_FAMILY_OF[game.taskType];
    const transformAt = w.findIndex((c) => /^(heat|cool|clean) /.test(c));
    const puts = w.map((c, i) => (c.startsWith('move ') ? i : -1)).filter((i) => i >= 0);
    const finalPutAt = puts.at(-1) ?? -1;
    const firstPutAt = family === 'pick_two_obj' && puts.length >= 2 ? (puts[0] ?? -1) : -1;
    const applicable: Record<AlfworldFault, boolean> = {
      skip_transform: transformAt > 0,
      transform_loop: transformAt > 0,
      wrong_destination: finalPutAt > 0 && (w[finalPutAt - 1] ?? '').startsWith('go to'),
      forget_second: firstPutAt >= 0,
      repeat_failed: w.length > 0,
    };
    const active = new Set<AlfworldFault>();
    for (const f of Object.keys(applicable) as AlfworldFault[]) {
      if (applicable[f] && simChance(settings.seed, game.id, `fault:${f}`, settings.faults[f])) active.add(f);
    }
    const dest = finalPutAt >= 0 ? (/^move .+ to (.+)$/.exec(w[finalPutAt] ?? '')?.[1] ?? '') : '';
    const around = /you see (.*?)\.(?:\n|$)/.exec(initialObservation)?.[1] ?? '';
    const receptacles = splitListedItems(around)
      .map((s) => s.trim().replace(/^(?:a|an)\s+/, ''))
      .filter((r) => /^\w+ \d+$/.test(r) && typeOf(r) !== typeOf(dest));
    const wrongReceptacle = receptacles.length > 0 ? (receptacles[simIndex(settings.seed, game.id, 'wrong_receptacle', receptacles.length)] ?? '') : '';
    if (wrongReceptacle === '') active.delete('wrong_destination');
    const garbleAt = w.length > 0 ? simIndex(settings.seed, game.id, 'garble_step', w.length) : 0;
    const plan = { game, active, transformAt, finalPutAt, firstPutAt, garbleAt, wrongReceptacle };
    plans.set(game.id, plan);
    return plan;
  }

  function decideTurn(body: unknown): AlfworldSimTurn {
    const textMode = !hasTools(body);
    const messages = textMode ? textView(readMessages(body)) : readMessages(body);
    const firstAt = messages.findIndex((m) => m.role === 'user');
    const first = messages[firstAt];
    if (!first) return problem('bad_request', textMode ? 'The request has no "Here is your task." message to read the task from.' : 'The request has no user message to read the task from.');
    const candidates = index.candidates(first.content);
    if (candidates.length === 0) return problem('unknown_task', 'The simulated ALFWorld target does not know this task (no shipped game has this first message).');
    const wording: Wording = messages.some((m) => m.role === 'tool' && (/\nmove .+ to /.test(m.content) || m.content.startsWith('You arrive at '))) ? '2.1.2' : '2.1.1';
    // The first message is read through the candidates only (a v0.2 history reduction cuts it after turn one).
    const key = [textMode ? 'v0.2' : 'fc', wording, firstAt, ...candidates.map((g) => g.id)].join('\u0000');
    const seen = messages.map((m, i) => seenForm(m, i === firstAt));
    const remembered = conversations.find(key, seen) ?? conversations.add(key, { scans: new Map(), mind: undefined });
    try {
      const turn = decideFrom(remembered.state, messages, textMode, firstAt, candidates, wording);
      remembered.seen = seen;
      return turn;
    } catch (error) {
      conversations.remove(remembered);
      throw error;
    }
  }

  function decideFrom(
    state: ConversationState,
    messages: readonly WireMsg[],
    textMode: boolean,
    firstAt: number,
    candidates: readonly AlfworldGameRecord[],
    wording: Wording,
  ): AlfworldSimTurn {
    const first = messages[firstAt]!;
    const { game, from } = chooseGame(index, candidates, messages, wording, state.scans);
    const plan = planFor(game, first.content);
    const start = Math.max(firstAt + 1, from);
    let mind = state.mind;
    if (mind === undefined || mind.gameId !== game.id || mind.from !== from) {
      const executed = from > 0 ? executedBefore(index, game, wording, messages, start) : [];
      mind = { gameId: game.id, from, sim: new MindReplay(plan, settings, wording, executed), resumeAt: start, previous: undefined };
      state.mind = mind;
    }
    const sim = mind.sim;
    let i = mind.resumeAt;
    for (; i < messages.length; i++) {
      const m = messages[i]!;
      if (m.role === 'assistant' && m.action !== undefined) {
        const next = messages[i + 1];
        if (next === undefined) break; // its reply has not come yet: replayed with it
        if (next.role === 'tool') {
          mind.previous = { action: sim.apply(next.content.startsWith('Nothing happens') ? 'nothing' : 'ok'), reply: m };
          i++;
        } else if (next.role === 'user') {
          mind.previous = { action: sim.apply('blocked'), reply: m };
          i++;
        }
      } else if (m.role === 'user') {
        sim.hint(m.content);
      }
    }
    mind.resumeAt = i;
    const previous = mind.previous;
    const { action, tag } = sim.intended();
    if (!textMode) return { kind: 'action', gameId: game.id, action, tag };
    // Sending the same action again repeats the previous reply byte for byte, as a repeated tool call repeats
    // its arguments in FC (a loose form is kept even when the admissible list has changed since).
    if (previous !== undefined && previous.action === action && writesAction(previous.reply, action)) return { kind: 'action', gameId: game.id, action, tag, text: previous.reply.content };
    const admissible = currentAdmissible(messages);
    const text = replyText(settings.seed, game.id, action, tag, admissible);
    return { kind: 'action', gameId: game.id, action, tag, text };
  }

  return { settings, planFor, decideTurn };
}

/**
 * Trials of one scene can share their first message; the target believes the first candidate whose
 * predicted observations match every tool reply so far and, when it had to change its mind, replays
 * only what came after the reply that ruled the previous belief out.
 */
function chooseGame(
  index: AlfworldGameIndex,
  candidates: readonly AlfworldGameRecord[],
  messages: readonly WireMsg[],
  wording: Wording,
  scans: Map<string, GameScan>,
): { game: AlfworldGameRecord; from: number } {
  const only = candidates[0]!;
  if (candidates.length === 1) return { game: only, from: 0 };
  const results = candidates.map((game) => ({ game, mismatchAt: firstMismatch(index, game, messages, wording, scans) }));
  const best = Math.max(...results.map((r) => r.mismatchAt));
  const chosenAt = results.findIndex((r) => r.mismatchAt === best);
  const earlier = results.slice(0, chosenAt).map((r) => r.mismatchAt + 1);
  return { game: results[chosenAt]!.game, from: earlier.length > 0 ? Math.max(...earlier) : 0 };
}

/**
 * The actions that got a real observation before message `end`, in order, as the game executed them: each is
 * mapped as the environment maps it (so a loosely written v0.2 action counts as its command).
 */
function executedBefore(index: AlfworldGameIndex, game: AlfworldGameRecord, wording: Wording, messages: readonly WireMsg[], end: number): string[] {
  const done: string[] = [];
  if (end <= 0) return done;
  const engine = index.freshGame(game, wording);
  for (let i = 0; i + 1 < end; i++) {
    const m = messages[i]!;
    const next = messages[i + 1]!;
    if (m.role !== 'assistant' || m.action === undefined || next.role !== 'tool') continue;
    const action = processAlfworldAction(m.action, engine.admissible());
    engine.step(action);
    if (!next.content.startsWith('Nothing happens')) done.push(action);
  }
  return done;
}

/**
 * Index of the first tool message whose observation the game would not have given (Infinity: none). The check
 * resumes where the conversation's scan of this game stopped, on the game instance as the scan left it (or on
 * a reset one stepped again with the scan's commands when another caller used the instance since).
 */
function firstMismatch(index: AlfworldGameIndex, game: AlfworldGameRecord, messages: readonly WireMsg[], wording: Wording, scans: Map<string, GameScan>): number {
  let scan = scans.get(game.id);
  if (scan === undefined) {
    scan = { actions: [], next: 0, mismatchAt: Number.POSITIVE_INFINITY };
    scans.set(game.id, scan);
  }
  if (scan.mismatchAt !== Number.POSITIVE_INFINITY) return scan.mismatchAt;
  const { engine, fresh } = index.claimGame(game, wording, scan);
  if (fresh) for (const action of scan.actions) engine.step(action);
  for (let i = scan.next; i < messages.length; i++) {
    const m = messages[i]!;
    const next = messages[i + 1];
    if (m.role !== 'assistant' || m.action === undefined || next?.role !== 'tool') continue;
    const action = processAlfworldAction(m.action, engine.admissible());
    scan.actions.push(action);
    const predicted = stripArrivalPrefix(engine.step(action).observation);
    const actual = next.content.split(' AVAILABLE ACTIONS: ')[0] ?? '';
    if (predicted !== actual) {
      scan.mismatchAt = i + 1;
      return scan.mismatchAt;
    }
  }
  // The last message is looked at again next time: an action there may get its reply.
  scan.next = Math.max(scan.next, messages.length - 1);
  return Number.POSITIVE_INFINITY;
}

/**
 * A message in the form the replay reads it: a tool reply up to its AVAILABLE ACTIONS list (a v0.2 history
 * reduction cuts the list once answered); the first user message as nothing (it is read through the game
 * candidates, which are part of the conversation's key); anything else as its text.
 */
function seenForm(m: WireMsg, isFirst: boolean): SeenMessage {
  const text = isFirst ? '' : m.role === 'tool' ? (m.content.split(' AVAILABLE ACTIONS: ')[0] ?? '') : m.content;
  return { role: m.role, action: m.action, text };
}

function problem(code: 'unknown_task' | 'bad_request', message: string): AlfworldSimTurn {
  return { kind: 'text', content: `[simulated target] ${message}`, problem: { code, message } };
}

function typeOf(name: string): string {
  return entityType(name);
}

/** Whether the request offers tools (the FC protocol); v0.2 text requests have none. */
function hasTools(body: unknown): boolean {
  const tools = typeof body === 'object' && body !== null ? (body as { tools?: unknown }).tools : undefined;
  return Array.isArray(tools) && tools.length > 0;
}

/** Where a v0.2 conversation's task starts (the one-shot example and the instruction come before). */
export const ALFWORLD_TEXT_TASK_PREFIX = 'Here is your task.';

/**
 * A v0.2 conversation in the shape of an FC one, so one replay serves both: everything before the
 * "Here is your task." message is dropped (instruction, one-shot example); an assistant reply's action is the
 * text after "ACTION:"; the user message right after an action is the observation when it is one (it holds
 * "AVAILABLE ACTIONS", or ends with the space left by the history reduction: hook texts are whitespace-
 * collapsed, so they never do) and becomes a tool message without the list; otherwise it is a block; all
 * other user messages are hints.
 */
function textView(messages: readonly WireMsg[]): WireMsg[] {
  const start = messages.findIndex((m) => m.role === 'user' && m.content.startsWith(ALFWORLD_TEXT_TASK_PREFIX));
  if (start < 0) return [];
  const out: WireMsg[] = [{ role: 'user', content: messages[start]!.content, action: undefined }];
  let afterAction = false;
  for (const m of messages.slice(start + 1)) {
    if (m.role === 'assistant') {
      const action = /ACTION:([^\n]*)/.exec(m.content)?.[1];
      out.push({ role: 'assistant', content: m.content, action });
      afterAction = action !== undefined;
      continue;
    }
    if (m.role !== 'user') continue;
    // A block can itself mention "AVAILABLE ACTIONS", so the wording is no sign of an observation; the trailing
    // whitespace is: "\n" after the current list, " " where the history reduction cut an answered one.
    const isObservation = /[ \n]$/.test(m.content);
    if (afterAction && isObservation) {
      const cut = m.content.indexOf(' AVAILABLE ACTIONS');
      out.push({ role: 'tool', content: cut >= 0 ? m.content.slice(0, cut) + m.content.slice(cut).replace(/\n$/, '') : m.content.slice(0, -1), action: undefined });
    } else {
      out.push({ role: 'user', content: m.content, action: undefined });
    }
    afterAction = false;
  }
  return out;
}

/** Whether a v0.2 reply is this target's writing of `action` (the action itself or a loose form of it). */
function writesAction(reply: WireMsg, action: string): boolean {
  const written = reply.action?.trim();
  return written !== undefined && (written === action || loosePhrasings(action).includes(written));
}

/** The admissible commands of the latest message that still lists them. */
function currentAdmissible(messages: readonly WireMsg[]): string[] {
  for (let i = messages.length - 1; i >= 0; i--) {
    const at = messages[i]!.content.indexOf(' AVAILABLE ACTIONS: ');
    if (at >= 0) return messages[i]!.content.slice(at + ' AVAILABLE ACTIONS: '.length).replace(/\n$/, '').split('\n');
  }
  return [];
}

/**
 * A command written the way an agent might when it does not copy it: with "the", without the object's number
 * after "put", or "in"/"on" for "in/on". Kept only when the environment's mapping (cleaning, put in/on, BLEU)
 * gives the command back, so the looseness never changes what happens.
 */
function loosePhrasings(command: string): string[] {
  const out: string[] = [];
  let m: RegExpExecArray | null;
  if ((m = /^go to (.+)$/.exec(command))) out.push(`go to the ${m[1]}`);
  if ((m = /^take (.+?) from (.+)$/.exec(command))) out.push(`take the ${m[1]} from the ${m[2]}`);
  if ((m = /^put (.+?) (\d+) in\/on (.+)$/.exec(command))) out.push(`put the ${m[1]} in the ${m[3]}`, `put ${m[1]} ${m[2]} on ${m[3]}`);
  if ((m = /^(heat|cool|clean) (.+?) with (.+)$/.exec(command))) out.push(`${m[1]} the ${m[2]} with the ${m[3]}`);
  if ((m = /^(open|close|examine|use) (.+)$/.exec(command))) out.push(`${m[1]} the ${m[2]}`);
  return out;
}

const THOUGHTS: readonly [RegExp, string][] = [
  [/^go to /, 'I need to look for the object, so I will check the next place.'],
  [/^take /, 'The object I need is here, so I will take it.'],
  [/^(put|move) /, 'I am holding the object and I am at the right place, so I will put it here.'],
  [/^(heat|cool|clean) /, 'The object has to be changed before I place it.'],
  [/^open /, 'It is closed, so I will open it to see inside.'],
  [/^use /, 'Now I can turn on the light.'],
];

/**
 * The v0.2 reply: "THOUGHT: …\nACTION: …" or just "ACTION: …", a function of the seed, the game and the action
 * only, so a repeated action gives a byte-identical reply (as a repeated tool call does in FC). Loose phrasings
 * are used only when they map back to the command on the current admissible list.
 */
function replyText(seed: number, gameId: string, action: string, tag: AlfworldSimTag, admissible: readonly string[]): string {
  let written = action;
  if (tag !== 'repeat_failed' && admissible.length > 0 && simChance(seed, gameId, `loose:${action}`, LOOSE_RATE)) {
    const options = loosePhrasings(action).filter((p) => processAlfworldAction(p, admissible) === action);
    if (options.length > 0) written = options[simIndex(seed, gameId, `loose-form:${action}`, options.length)]!;
  }
  const thought = THOUGHTS.find(([re]) => re.test(action))?.[1];
  if (thought !== undefined && simChance(seed, gameId, `thought:${action}`, THOUGHT_RATE)) return `THOUGHT: ${thought}\nACTION: ${written}`;
  return `ACTION: ${written}`;
}

/** Share of v0.2 replies written loosely (when a loose form maps back), and with a THOUGHT line. */
const LOOSE_RATE = 0.3;
const THOUGHT_RATE = 0.5;

/**
 * What a target writes when it describes an action instead of copying a command (repeat_failed). No word of it
 * occurs in ALFWorld's commands, so the BLEU mapping cannot rescue it and the game answers "Nothing happens.".
 */
export function vagueAction(command: string): string {
  const verb = command.split(' ')[0] ?? '';
  const phrases: Record<string, string> = {
    go: 'head over there',
    take: 'pick it up',
    put: 'set it down here',
    move: 'set it down here',
    open: 'pull at it',
    close: 'shut it',
    heat: 'warm it up',
    cool: 'chill it',
    clean: 'wash it',
    use: 'switch on the light',
    toggle: 'flip the switch',
    examine: 'inspect it',
  };
  return phrases[verb] ?? 'glance around';
}

function readMessages(body: unknown): WireMsg[] {
  const raw = typeof body === 'object' && body !== null ? (body as { messages?: unknown }).messages : undefined;
  if (!Array.isArray(raw)) return [];
  return raw.map((m: unknown): WireMsg => {
    const r = (typeof m === 'object' && m !== null ? m : {}) as { role?: unknown; content?: unknown; tool_calls?: unknown };
    const content = typeof r.content === 'string' ? r.content : '';
    let action: string | undefined;
    if (Array.isArray(r.tool_calls) && r.tool_calls.length > 0) {
      const fn = (r.tool_calls[0] as { function?: { arguments?: unknown } }).function;
      try {
        const args = JSON.parse(String(fn?.arguments ?? '{}')) as Record<string, unknown>;
        action = String(Object.values(args)[0] ?? '');
      } catch {
        action = '';
      }
    }
    return { role: typeof r.role === 'string' ? r.role : '', content, action };
  });
}

/** The target's state machine; `intended()` is what it would send now. */
class MindReplay {
  private readonly m: Mind = {
    w: 0,
    queue: [],
    fixed: new Set(),
    skipped: false,
    wrongPhase: 0,
    wrongPlaced: false,
    loopPos: 0,
    inAppliance: false,
    lastAction: '',
    blocks: 0,
    hints: 0,
  };
  private readonly steps: string[];

  constructor(
    private readonly plan: AlfworldGamePlan,
    private readonly settings: AlfworldSimSettings,
    private readonly wording: Wording,
    executed: readonly string[],
  ) {
    this.steps = plan.game.walkthrough.map((c) => this.say(c));
    // After a change of mind about the game, the plan resumes past the steps already done.
    while (this.m.w < executed.length && executed[this.m.w] === this.steps[this.m.w]) this.m.w++;
    this.m.lastAction = executed.at(-1) ?? '';
    this.settle();
  }

  private say(command: string): string {
    return this.wording === '2.1.2' ? command : command.replace(/^move (.+?) to (.+)$/, 'put $1 in/on $2');
  }

  private isActive(f: AlfworldFault): boolean {
    return this.plan.active.has(f) && !this.m.fixed.has(f);
  }

  private get finalPut(): { obj: string; dest: string } {
    const m = /^move (.+) to (.+)$/.exec(this.plan.game.walkthrough[this.plan.finalPutAt] ?? '');
    return { obj: m?.[1] ?? '', dest: m?.[2] ?? '' };
  }

  private get transform(): { obj: string; appliance: string } {
    const m = /^(?:heat|cool|clean) (.+) with (.+)$/.exec(this.plan.game.walkthrough[this.plan.transformAt] ?? '');
    return { obj: m?.[1] ?? '', appliance: m?.[2] ?? '' };
  }

  /** Where the transform detour starts: the go-to of the appliance when there is one. */
  private get detourStart(): number {
    const t = this.plan.transformAt;
    return (this.plan.game.walkthrough[t - 1] ?? '').startsWith('go to') ? t - 1 : t;
  }

  private settle(): void {
    const m = this.m;
    const t = this.plan.transformAt;
    if (this.isActive('skip_transform') && !m.skipped && m.queue.length === 0 && m.w >= this.detourStart && m.w <= t) {
      m.w = t + 1;
      m.skipped = true;
    }
  }

  intended(): { action: string; tag: AlfworldSimTag } {
    const m = this.m;
    const p = this.plan;
    if (m.queue.length > 0) return { action: m.queue[0]!, tag: 'recover' };
    if (this.isActive('repeat_failed') && m.w === p.garbleAt) return { action: vagueAction(this.steps[m.w] ?? 'look'), tag: 'repeat_failed' };
    if (this.isActive('transform_loop') && !m.skipped && m.w === p.transformAt + 1) {
      const { obj, appliance } = this.transform;
      const cycle = [this.say(`move ${obj} to ${appliance}`), `take ${obj} from ${appliance}`, this.steps[p.transformAt] ?? 'look'];
      return { action: cycle[m.loopPos % cycle.length]!, tag: 'transform_loop' };
    }
    if (this.isActive('wrong_destination') && m.w === p.finalPutAt - 1) {
      if (m.wrongPhase === 0) return { action: `go to ${p.wrongReceptacle}`, tag: 'wrong_destination' };
      if (m.wrongPhase === 1) return { action: this.say(`move ${this.finalPut.obj} to ${p.wrongReceptacle}`), tag: 'wrong_destination' };
      return this.done();
    }
    if (this.isActive('forget_second') && m.w === p.firstPutAt + 1) return this.done();
    const step = this.steps[m.w];
    return step === undefined ? this.done() : { action: step, tag: 'plan' };
  }

  /** Believes the task is done: sends its last action again. */
  private done(): { action: string; tag: AlfworldSimTag } {
    return { action: this.m.lastAction || 'look', tag: 'done_repeat' };
  }

  /** The mode behind what the target would do now, for blocks. */
  private faultBehind(tag: AlfworldSimTag): AlfworldFault | undefined {
    const m = this.m;
    const p = this.plan;
    if (tag === 'repeat_failed' || tag === 'transform_loop' || tag === 'wrong_destination') return tag;
    if (tag === 'done_repeat') {
      if (this.isActive('wrong_destination') && m.wrongPhase === 2) return 'wrong_destination';
      if (this.isActive('forget_second') && m.w === p.firstPutAt + 1) return 'forget_second';
    }
    if (m.skipped && m.w > p.transformAt) return 'skip_transform';
    return undefined;
  }

  /** Replays one turn of the target against the reply it got; returns the action it sent. */
  apply(result: StepResult): string {
    const m = this.m;
    const { action, tag } = this.intended();
    m.lastAction = action;
    this.update(action, tag, result);
    return action;
  }

  private update(action: string, tag: AlfworldSimTag, result: StepResult): void {
    const m = this.m;
    if (result === 'blocked') {
      m.blocks++;
      const fault = this.faultBehind(tag);
      if (fault && this.isActive(fault) && simChance(this.settings.seed, this.plan.game.id, `block:${fault}:${m.blocks}`, this.settings.comply)) this.fix(fault);
      else if (tag === 'plan' && action !== 'look') m.queue.unshift('look');
      else if (tag === 'recover' && action === 'look') m.queue.shift();
      this.settle();
      return;
    }
    const ok = result === 'ok';
    switch (tag) {
      case 'recover':
        m.queue.shift();
        break;
      case 'repeat_failed':
        if (ok) m.fixed.add('repeat_failed');
        break;
      case 'transform_loop':
        if (ok && m.loopPos % 3 === 0) m.inAppliance = true;
        if (ok && m.loopPos % 3 === 1) m.inAppliance = false;
        m.loopPos++;
        break;
      case 'wrong_destination':
        if (m.wrongPhase === 1 && ok) m.wrongPlaced = true;
        m.wrongPhase = m.wrongPhase === 0 ? 1 : 2;
        break;
      case 'plan':
        if (ok) m.w++;
        break;
      case 'done_repeat':
        break;
    }
    this.settle();
  }

  hint(message: string): void {
    const m = this.m;
    m.hints++;
    for (const f of faultsNamedBy(message)) {
      if (this.isActive(f) && simChance(this.settings.seed, this.plan.game.id, `hint:${f}:${m.hints}`, this.settings.comply)) this.fix(f);
    }
    this.settle();
  }

  private fix(fault: AlfworldFault): void {
    const m = this.m;
    const p = this.plan;
    m.fixed.add(fault);
    switch (fault) {
      case 'skip_transform':
        if (m.skipped) {
          m.skipped = false;
          // Take the object back only when the skipped plan had already put it down (a plan may end at the
          // transform, with no put: then there is nothing to take back).
          if (p.finalPutAt >= 0 && m.w > p.finalPutAt) m.queue.push(`take ${this.finalPut.obj} from ${this.finalPut.dest}`);
          m.w = this.detourStart;
        }
        break;
      case 'wrong_destination':
        if (m.wrongPlaced) m.queue.push(`take ${this.finalPut.obj} from ${p.wrongReceptacle}`);
        break;
      case 'transform_loop':
        if (m.inAppliance) m.queue.push(`take ${this.transform.obj} from ${this.transform.appliance}`);
        break;
      case 'forget_second':
      case 'repeat_failed':
        break;
    }
  }
}
