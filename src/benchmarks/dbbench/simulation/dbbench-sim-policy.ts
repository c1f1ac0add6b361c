import {
  BAD_ARGUMENTS_REPLY,
  TEXT_ONLY_NUDGE,
  TIPS_HEADER,
  TOOL_HINT_HEADER,
  UNKNOWN_FUNCTION_REPLY,
  XML_TOOL_TEXT_NUDGE,
} from '../../../environments/dbbench/prompts.js';
import { validateDbBenchSimSettings, type DbBenchFault, type DbBenchSimSettings } from './fault-profile.js';
import { faultsNamedByHint } from './hint-keywords.js';
import { simChance } from './sim-rng.js';
import { renderTableRef, repairStatement, type TableRefStyle } from './sql-text.js';
import type { DbBenchTaskIndex, IndexedDbBenchTask } from './task-index.js';
import { buildTaskPlan, type TaskPlan } from './task-plan.js';
import { readWireRequest, type ReadMessage, type ReadToolCall, type SimActionTag, type SimToolCall, type WireTurn } from './wire-messages.js';

/**
 * The simulated DBBench target (SPEC §5): a deterministic policy that knows each task's solution and
 * plays it through the chat protocol, showing the failure modes its fault profile draws and reacting to
 * the harness as an instruction-following model would. It keeps no state between requests: every call
 * re-plays the conversation it is sent (its own earlier turns, the tool replies, the hints) to rebuild
 * where it is, then decides the next turn.
 */
export interface DbBenchSimPolicy {
  readonly settings: DbBenchSimSettings;
  /** The next assistant turn for a chat request (`messages` in the OpenAI wire format; `tools` optional). */
  decideTurn(request: unknown): WireTurn;
}

/** After this many statements broken by table quoting, a model without the fix commits a guess. */
export const MAX_QUOTE_FAILURES = 4;
/** Errors of the main statement (not caused by quoting) after which the target stops retrying it. */
export const MAX_MAIN_ERRORS = 2;
/** Blocks of the main mutation after which the target stops re-sending it. */
export const MAX_MAIN_BLOCKS = 3;

export type SqlReplyKind = 'result' | 'error' | 'block';

const RUNTIME_NOTICES = new Set([TEXT_ONLY_NUDGE, XML_TOOL_TEXT_NUDGE, 'Internal error: No tool calls found despite finish reason.']);

/**
 * How the target reads a tool reply to `execute_sql`, in this order: rows (a Python list repr, possibly
 * truncated, or "No response from database."); a database error in a known shape (the runtime's
 * "Error …" texts, a MySQL `NNNN (XXXXX): …` code, a MySQL/SQLite engine message); a harness block if
 * the text says "block" or "harness"; any other text with an error word ("error", "doesn't exist",
 * "no such", "unknown column") is an error; everything else is a block.
 */
export function classifySqlReply(text: string): SqlReplyKind {
  const t = text.trim();
  if (t.startsWith('[') || t === 'No response from database.' || t.endsWith('[TRUNCATED]')) return 'result';
  if (t === BAD_ARGUMENTS_REPLY || t === UNKNOWN_FUNCTION_REPLY) return 'error';
  if (/^error\b/i.test(t) || /^\d{4} \([0-9A-Z]{5}\)/.test(t)) return 'error';
  if (/^(you have an error in your sql syntax|table '[^']*' doesn't exist|unknown column|no such (table|column)|near ".*": syntax error|sqlite)/i.test(t)) {
    return 'error';
  }
  if (/\bblock|\bharness\b/i.test(t)) return 'block';
  if (/\berror\b|doesn't exist|\bno such\b|unknown column/i.test(t)) return 'error';
  return 'block';
}

/** The harness-written part of a system prompt: everything from the tips or tool-hint header on. */
export function harnessSectionOfSystemPrompt(text: string): string {
  const starts = [text.indexOf(TIPS_HEADER), text.indexOf(TOOL_HINT_HEADER)].filter((i) => i >= 0);
  return starts.length === 0 ? '' : text.slice(Math.min(...starts));
}

export function createDbBenchSimPolicy(options: { index: DbBenchTaskIndex; settings: DbBenchSimSettings }): DbBenchSimPolicy {
  const settings = validateDbBenchSimSettings({
    ...options.settings,
    faults: { ...options.settings.faults },
    splits: [...options.settings.splits],
  });
  const { index } = options;
  // A task's plan is a pure function of the task and the settings: built at its first request, then reused
  // (building it is most of a request's work: the plausible wrong answers scan the table's cells).
  const plans = new Map<string, TaskPlan>();
  const planFor = (entry: IndexedDbBenchTask): TaskPlan => {
    let plan = plans.get(entry.key);
    if (!plan) {
      plan = buildTaskPlan(entry, settings);
      plans.set(entry.key, plan);
    }
    return plan;
  };
  return {
    settings,
    decideTurn(request: unknown): WireTurn {
      const read = readWireRequest(request);
      if (!read.ok) return problemTurn('bad_request', read.message);
      if (read.toolNames !== undefined && !(read.toolNames.includes('execute_sql') && read.toolNames.includes('commit_final_answer'))) {
        return problemTurn('bad_request', 'The simulated DBBench target needs the execute_sql and commit_final_answer tools in the request.');
      }
      const firstUser = read.messages.findIndex((m) => m.role === 'user');
      if (firstUser < 0) return problemTurn('bad_request', 'The request has no user message, so there is no task to play.');
      const entry = index.lookup(read.messages[firstUser]?.text ?? '');
      if (entry === undefined) {
        return problemTurn(
          'unknown_task',
          'Simulated target (sim:dbbench): this question is not in the DBBench task files I was built from, so I cannot play it. ' +
            `Known splits: ${settings.splits.join(', ')}.${index.unreadable ? ` Unreadable: ${index.unreadable.join('; ')}.` : ''}`,
        );
      }
      const plan = planFor(entry);
      const state = replay(plan, settings, read.messages, firstUser);
      const intent = decide(plan, state);
      return { kind: 'tool_calls', toolCalls: [intent.call], content: intent.content, tag: intent.tag, taskKey: plan.taskKey };
    },
  };
}

function problemTurn(code: 'unknown_task' | 'bad_request', message: string): WireTurn {
  return { kind: 'text', content: message, problem: { code, message } };
}

/** Where the target is in its episode, rebuilt from the conversation on every request. */
interface EpisodeState {
  /** Failure modes a followed hint has fixed for the rest of the episode. */
  fixed: Set<DbBenchFault>;
  /** Assistant turns with tool calls so far. */
  turns: number;
  /** The last statement failed and the target has not acted since. */
  errorPending: boolean;
  quoteFailures: number;
  inspectDone: boolean;
  probeDone: boolean;
  mainDone: boolean;
  mainErrors: number;
  mainBlocks: number;
  /** The statement the repeat mode re-sends, once it has returned rows. */
  loopSql: string | undefined;
  loopBroken: boolean;
  spoiledWritten: boolean;
  repaired: boolean;
  verifyPending: boolean;
  emptyCommitBlocked: boolean;
}

interface Intent {
  tag: SimActionTag;
  call: SimToolCall;
  content: string;
  /** The statement writes the table name without backticks. */
  badQuote: boolean;
  /** The statement or answer carries the case/format mistake. */
  spoiled: boolean;
}

function initialState(): EpisodeState {
  return {
    fixed: new Set(),
    turns: 0,
    errorPending: false,
    quoteFailures: 0,
    inspectDone: false,
    probeDone: false,
    mainDone: false,
    mainErrors: 0,
    mainBlocks: 0,
    loopSql: undefined,
    loopBroken: false,
    spoiledWritten: false,
    repaired: false,
    verifyPending: false,
    emptyCommitBlocked: false,
  };
}

function replay(plan: TaskPlan, settings: DbBenchSimSettings, messages: readonly ReadMessage[], firstUser: number): EpisodeState {
  const state = initialState();
  const pending = new Map<string, { intent: Intent | undefined; call: ReadToolCall }>();

  const hear = (position: number, text: string): void => {
    for (const fault of faultsNamedByHint(text)) {
      if (!state.fixed.has(fault) && simChance(settings.seed, plan.taskKey, `comply:${fault}:${position}`, settings.comply)) state.fixed.add(fault);
    }
  };

  messages.forEach((message, position) => {
    switch (message.role) {
      case 'system': {
        const section = harnessSectionOfSystemPrompt(message.text);
        if (section !== '') hear(position, section);
        return;
      }
      case 'user':
        if (position > firstUser && !RUNTIME_NOTICES.has(message.text.trim()) && !message.text.startsWith('[HARNESS_TRACE_V1]')) hear(position, message.text);
        return;
      case 'assistant': {
        if (message.calls.length === 0) return;
        const intent = decide(plan, state);
        message.calls.forEach((call, i) => pending.set(call.id, { intent: i === 0 && sameCall(intent.call, call) ? intent : undefined, call }));
        state.turns++;
        state.errorPending = false;
        return;
      }
      case 'tool': {
        const sent = pending.get(message.callId);
        if (sent === undefined) return;
        pending.delete(message.callId);
        const kind: SqlReplyKind =
          sent.call.name === 'commit_final_answer' ? 'block' : sent.call.name === 'execute_sql' ? classifySqlReply(message.text) : 'error';
        if (kind === 'block') hear(position, message.text);
        observe(plan, state, sent.intent, sent.call, kind);
        return;
      }
    }
  });
  return state;
}

function sameCall(call: SimToolCall, read: ReadToolCall): boolean {
  if (call.name !== read.name || read.args === undefined) return false;
  if ('query' in call.arguments) return read.args.query === call.arguments.query;
  return JSON.stringify(read.args.answers) === JSON.stringify(call.arguments.answers);
}

function sql(tag: SimActionTag, query: string, content: string, extra: { badQuote?: boolean; spoiled?: boolean } = {}): Intent {
  return { tag, call: { name: 'execute_sql', arguments: { query } }, content, badQuote: extra.badQuote ?? false, spoiled: extra.spoiled ?? false };
}

function commit(tag: SimActionTag, answers: string[], content: string, spoiled = false): Intent {
  return { tag, call: { name: 'commit_final_answer', arguments: { answers } }, content, badQuote: false, spoiled };
}

/** The next action for the state reached; the same function produced every earlier turn. */
function decide(plan: TaskPlan, state: EpisodeState): Intent {
  const has = (fault: DbBenchFault): boolean => plan.faults.has(fault) && !state.fixed.has(fault);
  const style: TableRefStyle = has('backticks') ? (state.quoteFailures % 2 === 0 ? 'bare' : 'underscored') : 'backtick';
  const ref = renderTableRef(plan.task.table.name, style);
  const badQuote = style !== 'backtick';
  const retry = state.errorPending ? 'That statement failed, so let me try again. ' : '';

  if (state.turns === 0 && has('early_commit')) {
    return commit('early_commit', plan.mutation ? [] : plan.guessAnswers, 'The question is clear enough; I will commit the answer directly.');
  }
  if (state.errorPending && !state.fixed.has('give_up') && (plan.faults.has('give_up') || state.quoteFailures >= MAX_QUOTE_FAILURES)) {
    return commit('give_up', plan.giveUpAnswers, 'The query keeps failing, so I will commit my best answer now.');
  }
  if (state.loopSql !== undefined && !state.loopBroken && has('repeat')) {
    return sql('repeat', state.loopSql, 'Let me run the query to check the result.');
  }
  if (plan.mutation && state.spoiledWritten && !state.repaired && state.fixed.has('case_format') && plan.valueEdit) {
    const repair = repairStatement(ref, plan.valueEdit);
    if (repair !== undefined) return sql('repair', repair, 'I will correct the value I wrote so that it matches the question exactly.', { badQuote });
  }
  if (state.verifyPending) return sql('verify', plan.verifySql(ref), 'Let me double-check the table before answering.', { badQuote });
  if (!state.inspectDone && plan.inspect !== undefined) return sql('inspect', plan.inspectSql(ref), `${retry}Let me look at the table first.`, { badQuote });
  if (!state.probeDone && plan.faults.has('give_up')) return sql('probe', plan.probeSql(ref), `${retry}Let me select the column I need.`, { badQuote });
  if (!state.mainDone) {
    const spoiled = plan.mutation && has('case_format');
    const content = plan.mutation ? 'I will apply the requested change to the table.' : 'I will query the table for the answer.';
    return sql('main', plan.mainSql({ style, spoiled }), `${retry}${content}`, { badQuote, spoiled });
  }
  if (plan.mutation) return commit('commit', state.emptyCommitBlocked ? ['done'] : [], 'The change is done; committing.');
  const spoiled = has('case_format') && plan.spoiledAnswers !== undefined;
  return commit('commit', spoiled ? (plan.spoiledAnswers ?? plan.goldAnswers) : plan.goldAnswers, 'The result answers the question; committing it.', spoiled);
}

/** Updates the state with what one tool call of an assistant turn got back. */
function observe(plan: TaskPlan, state: EpisodeState, intent: Intent | undefined, call: ReadToolCall, kind: SqlReplyKind): void {
  if (call.name === 'execute_sql') state.errorPending = kind === 'error';
  if (intent === undefined) return;
  if (intent.badQuote && kind !== 'result') {
    state.quoteFailures++;
    return;
  }
  switch (intent.tag) {
    case 'early_commit':
      return;
    case 'give_up':
      // Blocked: the target takes back its surrender and retries.
      state.errorPending = false;
      return;
    case 'commit':
      state.verifyPending = true;
      if ('answers' in intent.call.arguments && intent.call.arguments.answers.length === 0) state.emptyCommitBlocked = true;
      return;
    case 'inspect':
      state.inspectDone = true;
      if (kind === 'result' && plan.mutation && plan.faults.has('repeat') && state.loopSql === undefined) state.loopSql = queryOf(intent);
      return;
    case 'probe':
      state.probeDone = true;
      return;
    case 'main':
      if (kind === 'result') {
        state.mainDone = true;
        if (intent.spoiled) state.spoiledWritten = true;
        if (!plan.mutation && plan.faults.has('repeat') && state.loopSql === undefined) state.loopSql = queryOf(intent);
      } else if (kind === 'error') {
        state.mainErrors++;
        if (state.mainErrors >= MAX_MAIN_ERRORS) state.mainDone = true;
      } else if (!plan.mutation) {
        // A blocked answer query: answer from what the target already knows.
        state.mainDone = true;
      } else {
        state.mainBlocks++;
        if (state.mainBlocks >= MAX_MAIN_BLOCKS) state.mainDone = true;
        else state.verifyPending = true;
      }
      return;
    case 'repeat':
      if (kind !== 'result') state.loopBroken = true;
      return;
    case 'repair':
      state.repaired = true;
      return;
    case 'verify':
      state.verifyPending = false;
      return;
  }
}

function queryOf(intent: Intent): string | undefined {
  return 'query' in intent.call.arguments ? intent.call.arguments.query : undefined;
}
