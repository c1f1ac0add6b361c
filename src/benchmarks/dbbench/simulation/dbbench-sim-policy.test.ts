import { describe, expect, it } from 'vitest';

import { resolveDataDir } from '../../../config/data-dir.js';
import type { DbBenchTask } from '../../../environments/dbbench/dbbench-task.js';
import { loadDbBenchSplit } from '../../../environments/dbbench/load-tasks.js';
import {
  DEFAULT_BLOCK_REPLY,
  TEXT_ONLY_NUDGE,
  buildDbBenchSystemPrompt,
  buildDbBenchUserMessage,
  loadDbBenchProtocol,
} from '../../../environments/dbbench/prompts.js';
import { classifySqlReply, createDbBenchSimPolicy, harnessSectionOfSystemPrompt, type DbBenchSimPolicy } from './dbbench-sim-policy.js';
import { DBBENCH_FAULTS, DEFAULT_DBBENCH_FAULT_RATES, defaultDbBenchSimSettings, parseFaultSpec, type DbBenchFault, type DbBenchSimSettings } from './fault-profile.js';
import { repairStatement, quoteIdent, tableNeedsQuoting } from './sql-text.js';
import { loadDbBenchTaskIndex, type DbBenchTaskIndex } from './task-index.js';
import { buildTaskPlan } from './task-plan.js';
import type { SimActionTag, WireMessage, WireTurn } from './wire-messages.js';

const dataDir = resolveDataDir();
const devTasks = loadDbBenchSplit(dataDir, 'dev');
const protocol = loadDbBenchProtocol(dataDir);
const index = loadDbBenchTaskIndex(dataDir, ['dev', 'standard']);
const wireTools = protocol.tools.map((t) => ({ type: 'function', function: { name: t.name, description: t.description, parameters: t.parameters } }));

function policyWith(overrides: Partial<DbBenchSimSettings> & { faultSpec?: string } = {}, taskIndex: DbBenchTaskIndex = index): DbBenchSimPolicy {
  const settings = { ...defaultDbBenchSimSettings(), ...overrides };
  if (overrides.faultSpec !== undefined) settings.faults = parseFaultSpec(overrides.faultSpec);
  return createDbBenchSimPolicy({ index: taskIndex, settings });
}

// ---------------------------------------------------------------------------------------------------
// A stand-in episode loop and grader, written only for these tests. It mimics the DBBench message flow
// of protocol.md §4.4 (tool replies, nudges, hints as user messages, blocks as tool replies) with a
// fake database: statements that name a space-holding table without backticks fail, an unknown bare
// column fails, DML returns [], SELECTs return a row. Grading: query tasks compare the committed values
// with the label (float-equal or exact, case-sensitive; sets for several values); mutation tasks pass
// when the gold statement ran and any spoiled write was repaired. It is an estimate of the real runtime
// with the real SQLite/MariaDB backend, not a measurement of it.
// ---------------------------------------------------------------------------------------------------

interface Harness {
  skills?: string[];
  toolHints?: string[];
  /** A user message before the model call of round r (1-based), like make_pre_hint. */
  preHint?(round: number, history: readonly WireMessage[]): string | undefined;
  /** A block message for this call, like on_before_action's block_and_prompt. */
  beforeAction?(call: { name: string; args: Record<string, unknown> }, history: readonly WireMessage[]): string | undefined;
  /** A user message after an executed SQL statement, like on_post_step's inject_hint. */
  postStep?(sql: string, reply: string, history: readonly WireMessage[]): string | undefined;
}

interface EpisodeResult {
  success: boolean;
  ending: 'committed' | 'round_limit';
  turns: WireTurn[];
  tags: SimActionTag[];
  messages: WireMessage[];
  committed: string[] | undefined;
}

function fakeExecute(task: DbBenchTask, sql: string): string {
  const name = task.table.name;
  if (tableNeedsQuoting(name) && !sql.includes(quoteIdent(name))) {
    const underscored = name.replace(/[^A-Za-z0-9_$]+/g, '_');
    if (sql.includes(underscored)) return `Error executing query: 1146 (42S02): Table 'dbbench.${underscored}' doesn't exist`;
    return "Error executing query: 1064 (42000): You have an error in your SQL syntax; check the manual that corresponds to your MySQL server version for the right syntax to use";
  }
  const selected = /^SELECT\s+([A-Za-z_][A-Za-z0-9_]*)\s+FROM/i.exec(sql)?.[1];
  if (selected !== undefined && !task.table.columns.some((c) => c.toLowerCase() === selected.toLowerCase())) {
    return `Error executing query: 1054 (42S22): Unknown column '${selected}' in 'field list'`;
  }
  if (/^\s*(INSERT|UPDATE|DELETE)\b/i.test(sql)) return '[]';
  if (/^\s*DESCRIBE\b/i.test(sql)) return `[${task.table.columns.map((c) => `('${c}', 'text', 'YES', '', None, '')`).join(', ')}]`;
  return "[('some value',)]";
}

function answersCorrect(answers: readonly string[], label: readonly string[]): boolean {
  if (answers.length === 1 && label.length === 1) {
    const a = answers[0] ?? '';
    const b = label[0] ?? '';
    const fa = Number(a);
    const fb = Number(b);
    if (a.trim() !== '' && b.trim() !== '' && Number.isFinite(fa) && Number.isFinite(fb)) return fa === fb;
    return a === b;
  }
  const sa = new Set(answers);
  const sb = new Set(label);
  return sa.size === sb.size && [...sa].every((x) => sb.has(x));
}

function playEpisode(policy: DbBenchSimPolicy, task: DbBenchTask, harness: Harness = {}, maxRounds = 20): EpisodeResult {
  const messages: WireMessage[] = [
    { role: 'system', content: buildDbBenchSystemPrompt(protocol.systemPrompt, harness.skills ?? [], harness.toolHints ?? []) },
    { role: 'user', content: buildDbBenchUserMessage(task) },
  ];
  const turns: WireTurn[] = [];
  const tags: SimActionTag[] = [];
  // Mutation state of the fake table: 'clean' | 'gold' | 'spoiled' | 'broken'.
  let table: 'clean' | 'gold' | 'spoiled' | 'broken' = 'clean';
  const plan = buildTaskPlan(index.lookup(buildDbBenchUserMessage(task))!, policy.settings);
  const gold = task.label[0] ?? '';
  const repair = plan.valueEdit ? repairStatement(quoteIdent(task.table.name), plan.valueEdit) : undefined;

  for (let round = 1; round <= maxRounds; round++) {
    const pre = harness.preHint?.(round, messages);
    if (pre !== undefined) messages.push({ role: 'user', content: pre });
    const turn = policy.decideTurn({ messages: structuredClone(messages), tools: wireTools });
    turns.push(turn);
    if (turn.kind === 'text') {
      messages.push({ role: 'assistant', content: turn.content });
      messages.push({ role: 'user', content: TEXT_ONLY_NUDGE });
      continue;
    }
    tags.push(turn.tag);
    const calls = turn.toolCalls.map((call, i) => ({ id: `call_${round}_${i}`, name: call.name, args: call.arguments as Record<string, unknown> }));
    messages.push({
      role: 'assistant',
      content: turn.content ?? null,
      tool_calls: calls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: JSON.stringify(c.args) } })),
    });
    for (const call of calls) {
      const block = harness.beforeAction?.({ name: call.name, args: call.args }, messages);
      if (block !== undefined) {
        messages.push({ role: 'tool', tool_call_id: call.id, content: block });
        continue;
      }
      if (call.name === 'commit_final_answer') {
        const answers = call.args.answers as string[];
        const success = task.kind === 'mutation' ? table === 'gold' : answersCorrect(answers, task.label);
        return { success, ending: 'committed', turns, tags, messages, committed: answers };
      }
      const sql = String(call.args.query);
      const reply = fakeExecute(task, sql);
      if (task.kind === 'mutation' && reply === '[]') {
        if (sql === gold && table === 'clean') table = 'gold';
        else if (plan.valueEdit && sql !== gold && table === 'clean' && sql.includes(`'${plan.valueEdit.altered.replace(/'/g, "''")}'`)) table = 'spoiled';
        else if (table === 'spoiled' && sql === repair) table = 'gold';
        else table = 'broken';
      }
      messages.push({ role: 'tool', tool_call_id: call.id, content: reply });
      const post = harness.postStep?.(sql, reply, messages);
      if (post !== undefined) messages.push({ role: 'user', content: post });
    }
  }
  return { success: false, ending: 'round_limit', turns, tags, messages, committed: undefined };
}

/** Dev tasks on which a fault drawn at rate 1 shows, for a given seed. */
function tasksShowing(fault: DbBenchFault, seed = 0): DbBenchTask[] {
  const settings = { ...defaultDbBenchSimSettings(), seed, faults: parseFaultSpec(`none,${fault}:1`) };
  return devTasks.filter((task) => buildTaskPlan(index.lookup(buildDbBenchUserMessage(task))!, settings).faults.has(fault));
}

function successRate(policy: DbBenchSimPolicy, tasks: readonly DbBenchTask[], harness: Harness = {}): number {
  return tasks.filter((task) => playEpisode(policy, task, harness).success).length / tasks.length;
}

// ---------------------------------------------------------------------------------------------------

describe('one policy over many episodes', () => {
  it('plays each task as a fresh policy would, whichever tasks it played before and in whatever order', () => {
    const tasks = devTasks.slice(0, 24);
    const shared = policyWith();
    const fresh = tasks.map((task) => playEpisode(policyWith(), task).messages);
    expect(tasks.map((task) => playEpisode(shared, task).messages)).toEqual(fresh);
    expect([...tasks].reverse().map((task) => playEpisode(shared, task).messages)).toEqual([...fresh].reverse());
    const otherSeed = policyWith({ seed: 12345 });
    expect(tasks.map((task) => playEpisode(otherSeed, task).messages)).toEqual(tasks.map((task) => playEpisode(policyWith({ seed: 12345 }), task).messages));
  });
});

describe('task lookup', () => {
  it('finds every task of every split from its first user message', () => {
    for (const split of ['dev', 'standard'] as const) {
      for (const task of loadDbBenchSplit(dataDir, split)) {
        const found = index.lookup(buildDbBenchUserMessage(task));
        expect(found?.task.description).toBe(task.description);
      }
    }
  });

  it('knows standard.v0.2 when asked for it, preferring its records on shared questions', () => {
    const v02 = loadDbBenchTaskIndex(dataDir, ['standard.v0.2', 'dev', 'standard']);
    const tasks = loadDbBenchSplit(dataDir, 'standard.v0.2');
    for (const task of tasks) expect(v02.lookup(buildDbBenchUserMessage(task))?.task.label).toEqual(task.label);
    expect(tasks.some((task) => JSON.stringify(index.lookup(buildDbBenchUserMessage(task))?.task.label) !== JSON.stringify(task.label))).toBe(true);
  });

  it('still finds the task when evidence or a schema card is added to the message', () => {
    const task = devTasks[0]!;
    const message = `Evidence about the question: none\nAdditional table information about the question: ${task.addDescription}\nSchema: some card\nQuestion: ${task.description}\n`;
    expect(index.lookup(message)?.task.index).toBe(task.index);
  });

  it('answers an unknown question with a text turn flagged unknown_task', () => {
    const turn = policyWith().decideTurn({
      messages: [
        { role: 'system', content: protocol.systemPrompt },
        { role: 'user', content: 'Additional table information about the question: The name of this table is t.\nQuestion: What is the airspeed of a swallow?\n' },
      ],
      tools: wireTools,
    });
    expect(turn.kind).toBe('text');
    if (turn.kind !== 'text') return;
    expect(turn.problem?.code).toBe('unknown_task');
    expect(turn.content).toMatch(/simulated target .*not in the DBBench task files/i);
  });

  it('flags requests it cannot walk as bad_request', () => {
    const policy = policyWith();
    for (const body of [null, {}, { messages: 'x' }, { messages: [{ role: 'robot', content: 'hi' }] }, { messages: [{ role: 'system', content: 'x' }] }]) {
      const turn = policy.decideTurn(body);
      expect(turn.kind === 'text' && turn.problem?.code).toBe('bad_request');
    }
    const noTools = policy.decideTurn({ messages: [{ role: 'user', content: buildDbBenchUserMessage(devTasks[0]!) }], tools: [] });
    expect(noTools.kind === 'text' && noTools.problem?.code).toBe('bad_request');
  });
});

describe('fault-free play', () => {
  const clean = policyWith({ faultSpec: 'none' });

  it('solves every dev task and commits the gold label on query tasks', () => {
    for (const task of devTasks) {
      const result = playEpisode(clean, task);
      expect(result.success, `task ${task.index}`).toBe(true);
      if (task.kind === 'query') expect(result.committed).toEqual(task.label);
      else expect(result.committed).toEqual([]);
      expect(result.tags.at(-1)).toBe('commit');
      expect(result.tags.length).toBeLessThanOrEqual(3);
    }
  });

  it('runs the gold statement verbatim on mutation tasks', () => {
    for (const task of devTasks.filter((t) => t.kind === 'mutation')) {
      const result = playEpisode(clean, task);
      const sent = result.turns.flatMap((t) => (t.kind === 'tool_calls' ? t.toolCalls : [])).map((c) => ('query' in c.arguments ? c.arguments.query : ''));
      expect(sent).toContain(task.label[0]);
    }
  });

  it('backtick-quotes every identifier it writes itself', () => {
    for (const task of devTasks.filter((t) => t.kind === 'query')) {
      const result = playEpisode(clean, task);
      for (const turn of result.turns) {
        if (turn.kind !== 'tool_calls') continue;
        for (const call of turn.toolCalls) if ('query' in call.arguments) expect(call.arguments.query).toContain(quoteIdent(task.table.name));
      }
    }
  });
});

describe('determinism', () => {
  it('gives identical conversations for the same seed, whatever the order of episodes', () => {
    const a = policyWith({ seed: 7 });
    const b = policyWith({ seed: 7 });
    const forward = devTasks.map((task) => JSON.stringify(playEpisode(a, task).messages));
    const backward = [...devTasks].reverse().map((task) => JSON.stringify(playEpisode(b, task).messages)).reverse();
    expect(backward).toEqual(forward);
  });

  it('re-derives the same turn when asked the same request twice', () => {
    const policy = policyWith({ seed: 3 });
    const result = playEpisode(policy, devTasks[45]!);
    const request = { messages: result.messages.slice(0, 2), tools: wireTools };
    expect(policy.decideTurn(request)).toEqual(policy.decideTurn(structuredClone(request)));
  });

  it('draws different faults for different seeds', () => {
    const showing = (seed: number): string =>
      devTasks
        .map((task) => [...buildTaskPlan(index.lookup(buildDbBenchUserMessage(task))!, { ...defaultDbBenchSimSettings(), seed }).faults].join('+'))
        .join('|');
    expect(showing(1)).not.toBe(showing(2));
    expect(showing(1)).toBe(showing(1));
  });
});

describe('failure modes', () => {
  it('every mode shows on the dev split when its rate is 1', () => {
    for (const fault of DBBENCH_FAULTS) expect(tasksShowing(fault).length, fault).toBeGreaterThan(0);
    expect(tasksShowing('backticks').every((t) => tableNeedsQuoting(t.table.name))).toBe(true);
    expect(tasksShowing('early_commit')).toHaveLength(devTasks.length);
  });

  it('every shown mode makes the episode fail when nothing helps', () => {
    for (const fault of DBBENCH_FAULTS) {
      const policy = policyWith({ faultSpec: `none,${fault}:1` });
      for (const task of tasksShowing(fault)) {
        expect(playEpisode(policy, task).success, `${fault} on task ${task.index}`).toBe(false);
      }
    }
  });

  it('backticks: writes the table name bare, then underscored, and gives up after repeated errors', () => {
    const task = tasksShowing('backticks').find((t) => t.kind === 'query')!;
    const result = playEpisode(policyWith({ faultSpec: 'none,backticks:1' }), task);
    const first = result.turns[0];
    expect(first?.kind === 'tool_calls' && first.toolCalls[0]?.arguments).toMatchObject({ query: expect.stringContaining(`FROM ${task.table.name}`) });
    expect(result.tags.at(-1)).toBe('give_up');
    expect(result.ending).toBe('committed');
  });

  it('early_commit: commits a wrong guess before any SQL', () => {
    const policy = policyWith({ faultSpec: 'none,early_commit:1' });
    for (const task of devTasks) {
      const result = playEpisode(policy, task);
      expect(result.tags).toEqual(['early_commit']);
      expect(result.success).toBe(false);
    }
  });

  it('case_format: spoils a literal of the gold mutation, or the committed answer of a query', () => {
    const policy = policyWith({ faultSpec: 'none,case_format:1' });
    for (const task of tasksShowing('case_format')) {
      const result = playEpisode(policy, task);
      if (task.kind === 'query') {
        expect(result.committed).not.toEqual(task.label);
      } else {
        const sent = result.turns.flatMap((t) => (t.kind === 'tool_calls' ? t.toolCalls : [])).map((c) => ('query' in c.arguments ? c.arguments.query : ''));
        expect(sent).not.toContain(task.label[0]);
        expect(sent.some((s) => /^\s*(INSERT|UPDATE)/i.test(s))).toBe(true);
      }
    }
  });

  it('give_up: commits right after the first error reply', () => {
    const policy = policyWith({ faultSpec: 'none,give_up:1' });
    for (const task of devTasks) {
      const result = playEpisode(policy, task);
      const probeAt = result.tags.indexOf('probe');
      expect(probeAt).toBeGreaterThanOrEqual(0);
      expect(result.tags[probeAt + 1]).toBe('give_up');
      expect(result.success).toBe(false);
    }
  });

  it('repeat: re-sends the same SELECT until the round limit', () => {
    const policy = policyWith({ faultSpec: 'none,repeat:1' });
    for (const task of devTasks.slice(0, 12)) {
      const result = playEpisode(policy, task);
      expect(result.ending).toBe('round_limit');
      expect(result.tags.filter((t) => t === 'repeat').length).toBeGreaterThan(15);
    }
  });
});

describe('reactions to the harness', () => {
  it('a block of the early commit makes it run SQL instead, and it succeeds', () => {
    const policy = policyWith({ faultSpec: 'none,early_commit:1' });
    const harness: Harness = {
      beforeAction: (call, history) =>
        call.name === 'commit_final_answer' && !history.some((m) => m.role === 'tool') ? DEFAULT_BLOCK_REPLY : undefined,
    };
    for (const task of devTasks) {
      const result = playEpisode(policy, task, harness);
      expect(result.tags[0]).toBe('early_commit');
      expect(result.tags[1]).not.toBe('early_commit');
      expect(result.success, `task ${task.index}`).toBe(true);
    }
  });

  it('a system-prompt tip to run SQL before committing prevents most early commits', () => {
    const policy = policyWith({ faultSpec: 'none,early_commit:1' });
    const rate = successRate(policy, devTasks, { skills: ['Always execute at least one SQL query before you commit an answer.'] });
    expect(rate).toBeGreaterThan(0.6);
    expect(rate).toBeLessThan(1);
  });

  it('a backtick hint after the syntax error fixes the quoting with probability comply', () => {
    const tasks = tasksShowing('backticks');
    const harness: Harness = {
      postStep: (_sql, reply) => (classifySqlReply(reply) === 'error' ? 'Table names with spaces must be wrapped in backticks, e.g. `My Table`.' : undefined),
    };
    const always = successRate(policyWith({ faultSpec: 'none,backticks:1', comply: 1 }), tasks, harness);
    const never = successRate(policyWith({ faultSpec: 'none,backticks:1', comply: 0 }), tasks, harness);
    const usual = successRate(policyWith({ faultSpec: 'none,backticks:1' }), tasks, harness);
    expect(always).toBe(1);
    expect(never).toBe(0);
    // Four hints per episode at most (one per failed statement), each followed with p = 0.8.
    expect(usual).toBeGreaterThan(0.9);
  });

  it('a quoting tip in the tool-hint section fixes it before the first statement', () => {
    const task = tasksShowing('backticks')[0]!;
    const result = playEpisode(policyWith({ faultSpec: 'none,backticks:1', comply: 1 }), task, {
      toolHints: ['Quote every table and column name with backticks.'],
    });
    expect(result.success).toBe(true);
    expect(result.messages.filter((m) => m.role === 'tool').every((m) => classifySqlReply(String(m.content)) === 'result')).toBe(true);
  });

  it('a case hint before the write keeps mutation values exact; after the write it repairs them', () => {
    const tasks = tasksShowing('case_format').filter((t) => t.kind === 'mutation');
    expect(tasks.length).toBeGreaterThan(10);
    const policy = policyWith({ faultSpec: 'none,case_format:1', comply: 1 });
    const tip = 'Copy every value exactly as written in the question, keeping its case and format.';
    expect(successRate(policy, tasks, { skills: [tip] })).toBe(1);
    const after = playEpisode(policy, tasks[0]!, { postStep: (sql) => (/^\s*(INSERT|UPDATE)/i.test(sql) ? tip : undefined) });
    expect(after.tags).toContain('repair');
    expect(after.success).toBe(true);
  });

  it('a case hint after the answer query makes it commit the exact value', () => {
    const tasks = tasksShowing('case_format').filter((t) => t.kind === 'query');
    const policy = policyWith({ faultSpec: 'none,case_format:1', comply: 1 });
    const harness: Harness = { postStep: () => 'Commit values exactly as they appear in the database result (same case, no extra words).' };
    expect(successRate(policy, tasks, harness)).toBe(1);
  });

  it('a block of the give-up commit makes it retry; so does a hint not to give up', () => {
    const policy = policyWith({ faultSpec: 'none,give_up:1' });
    const blockAfterError: Harness = {
      beforeAction: (call, history) => {
        const lastTool = [...history].reverse().find((m) => m.role === 'tool');
        return call.name === 'commit_final_answer' && lastTool && classifySqlReply(String(lastTool.content)) === 'error' ? DEFAULT_BLOCK_REPLY : undefined;
      },
    };
    expect(successRate(policy, devTasks, blockAfterError)).toBe(1);
    const hint: Harness = { postStep: (_sql, reply) => (classifySqlReply(reply) === 'error' ? 'The query failed. Fix the error and retry; do not give up.' : undefined) };
    const rate = successRate(policy, devTasks, hint);
    expect(rate).toBeGreaterThan(0.65);
    expect(rate).toBeLessThan(1);
  });

  it('a block of the repeated query breaks the loop; so does a hint naming the repetition', () => {
    const policy = policyWith({ faultSpec: 'none,repeat:1' });
    const blockRepeat: Harness = {
      beforeAction: (call, history) => {
        if (call.name !== 'execute_sql') return undefined;
        const previous = history
          .filter((m) => m.role === 'assistant')
          .slice(0, -1)
          .flatMap((m) => (m.role === 'assistant' ? (m.tool_calls ?? []) : []))
          .map((c) => (JSON.parse(c.function.arguments) as { query?: string }).query);
        return previous.includes(String(call.args.query)) ? 'Blocked: you already ran this exact query.' : undefined;
      },
    };
    expect(successRate(policy, devTasks, blockRepeat)).toBe(1);
    const hint: Harness = { preHint: (round) => (round > 2 ? 'You are repeating the same query; use the result you already have.' : undefined) };
    expect(successRate(policyWith({ faultSpec: 'none,repeat:1', comply: 1 }), devTasks, hint)).toBe(1);
  });

  it('a generic block always makes it choose a different action', () => {
    const policy = policyWith({ seed: 11 });
    for (const task of devTasks.slice(0, 20)) {
      let blocked = 0;
      const result = playEpisode(policy, task, { beforeAction: () => (blocked++ % 3 === 0 ? DEFAULT_BLOCK_REPLY : undefined) });
      const calls = result.turns.flatMap((t) => (t.kind === 'tool_calls' ? [JSON.stringify(t.toolCalls)] : []));
      const blockedAt = result.messages.flatMap((m, i) => (m.role === 'tool' && m.content === DEFAULT_BLOCK_REPLY ? [i] : []));
      expect(blockedAt.length).toBeGreaterThan(0);
      for (let i = 1; i < calls.length; i++) {
        const replyOfPrevious = result.messages.filter((m) => m.role === 'tool')[i - 1];
        if (replyOfPrevious?.content === DEFAULT_BLOCK_REPLY) expect(calls[i]).not.toBe(calls[i - 1]);
      }
    }
  });

  it('ignores the base system prompt and runtime nudges as hints', () => {
    expect(harnessSectionOfSystemPrompt(protocol.systemPrompt)).toBe('');
    const withTips = buildDbBenchSystemPrompt(protocol.systemPrompt, ['Use backticks.'], []);
    expect(harnessSectionOfSystemPrompt(withTips)).toContain('Use backticks.');
  });
});

describe('dev success estimate (stand-in grader, not the real runtime)', () => {
  it('is about 60 % with the default fault profile, averaged over ten seeds', () => {
    const rates = Array.from({ length: 10 }, (_, seed) => successRate(policyWith({ seed }), devTasks));
    const mean = rates.reduce((a, b) => a + b, 0) / rates.length;
    // Expected value from the rates alone: each task survives every mode that can show on it.
    const expected =
      devTasks.reduce((sum, task) => {
        let p = 1;
        const plan = buildTaskPlan(index.lookup(buildDbBenchUserMessage(task))!, { ...defaultDbBenchSimSettings(), faults: parseFaultSpec('all:1') });
        for (const fault of DBBENCH_FAULTS) if (plan.faults.has(fault)) p *= 1 - DEFAULT_DBBENCH_FAULT_RATES[fault];
        return sum + p;
      }, 0) / devTasks.length;
    console.log(
      `[estimate] simulated target, dev split, default faults: mean success ${(mean * 100).toFixed(1)} % over seeds 0-9 ` +
        `(per seed: ${rates.map((r) => (r * 100).toFixed(0)).join(', ')}); expected from rates ${(expected * 100).toFixed(1)} %`,
    );
    expect(mean).toBeGreaterThan(0.52);
    expect(mean).toBeLessThan(0.68);
    expect(Math.abs(mean - expected)).toBeLessThan(0.05);
  });
});
