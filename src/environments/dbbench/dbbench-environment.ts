import type { TaskRef, ToolCall } from '../../episode/index.js';
import { ConfigError } from '../../episode/index.js';
import { TaskSetupError, type ActResult, type EpisodeSource, type ToolEpisode, type HookPoint, type ParsedCall, parseToolCall } from '../environment.js';
import type { DbBackend, DbSession } from './backend.js';
import type { DbBenchTask } from './dbbench-task.js';
import { DbBenchEpisodeState } from './episode-state.js';
import { formatSqlOutcome } from './format-result.js';
import { replayGold } from './gold-replay.js';
import { gradeMutation, gradeQueryAnswer } from './grade.js';
import { answerList, buildDbBenchHookContext } from './hook-context.js';
import { applyToolEdits, overlayTips, type DbBenchOverlay } from './legacy-overlay.js';
import { loadDbBenchSplit } from './load-tasks.js';
import {
  BAD_ARGUMENTS_REPLY,
  DBBENCH_DEFAULT_MAX_ROUNDS,
  DBBENCH_SQL_TIMEOUT_MS,
  TEXT_ONLY_NUDGE,
  UNKNOWN_FUNCTION_REPLY,
  XML_TOOL_TEXT_NUDGE,
  buildDbBenchSystemPrompt,
  buildDbBenchUserMessage,
  loadDbBenchProtocol,
} from './prompts.js';

export type DbBenchGradingRule = 'fc' | 'v0.2';

export interface DbBenchEnvironmentOptions {
  dataDir: string;
  split: string;
  backend: DbBackend;
  /** Rounds per episode; default 20 as in Harness-R1 (AgentBench's config uses 15). */
  maxRounds?: number;
  /** Query-task grading: the tolerant function-calling rule (default) or the v0.2 exact rule. */
  grading?: DbBenchGradingRule;
  sqlTimeoutMs?: number;
  /** Preloaded tasks (e.g. from a custom file); default: the split's shipped file. */
  tasks?: DbBenchTask[];
  /** Legacy patch actions honoured on DBBench: skills as tips, tool-description edits. */
  overlay?: DbBenchOverlay;
}

/**
 * Whether a mutation task's gold cannot earn its own reward: its gold SQL (`label[0]`), run by the same
 * backend on a fresh copy of the table, leaves a table that the grader does not accept against the
 * stored `answer_md5` (standard #225: the stored hash matches no reachable state). Such tasks are still
 * scored as AgentBench scores them (no answer can pass them); their records carry
 * `detail.goldUnreproducible: true` and run summaries count them. Null when the replay itself could not
 * run (the backend failed, or the table cannot be set up), which flags nothing. Query tasks are graded
 * against their label, which always passes itself, so they are never flagged.
 */
async function goldIsUnreproducible(task: DbBenchTask, backend: DbBackend, sqlTimeoutMs: number): Promise<boolean | null> {
  if (task.kind !== 'mutation') return false;
  const replay = await replayGold(task, backend, sqlTimeoutMs);
  if (replay.infrastructure) return null;
  return !gradeMutation(replay.actual, task.answerMd5 ?? '').correct;
}

/** DBBench over a database backend: one fresh database per episode, graded by answer or table hash. */
export function createDbBenchEnvironment(options: DbBenchEnvironmentOptions): EpisodeSource<DbBenchEpisode> {
  const tasks = options.tasks ?? loadDbBenchSplit(options.dataDir, options.split);
  const base = loadDbBenchProtocol(options.dataDir);
  const protocol = { systemPrompt: base.systemPrompt, tools: applyToolEdits(base.tools, options.overlay) };
  const maxRounds = options.maxRounds ?? DBBENCH_DEFAULT_MAX_ROUNDS;
  if (!Number.isInteger(maxRounds) || maxRounds < 1) {
    throw new ConfigError({ message: `maxRounds must be a positive integer, got ${maxRounds}.`, field: 'maxRounds' });
  }
  const grading = options.grading ?? 'fc';
  const sqlTimeoutMs = options.sqlTimeoutMs ?? DBBENCH_SQL_TIMEOUT_MS;
  // One gold replay per task and environment; a replay that could not run is tried again next time.
  const goldChecks = new Map<number, Promise<boolean | null>>();
  const goldCheck = (index: number, task: DbBenchTask): Promise<boolean | null> => {
    let check = goldChecks.get(index);
    if (!check) {
      check = goldIsUnreproducible(task, options.backend, sqlTimeoutMs);
      goldChecks.set(index, check);
      void check.then((flag) => flag === null && goldChecks.delete(index));
    }
    return check;
  };
  return {
    bench: 'dbbench',
    split: options.split,
    size: tasks.length,
    async openEpisode(index) {
      const task = tasks[index];
      if (!task) throw new ConfigError({ message: `Task index ${index} is outside the split (0..${tasks.length - 1}).`, field: 'tasks' });
      // The gold check runs beside the episode rather than before it: only the record needs its answer.
      const unreproducible = goldCheck(index, task);
      const session = await options.backend.openEpisode(task.table, { sqlTimeoutMs });
      if (session.setupError) {
        // AgentBench ends such a task with TASK_ERROR: the table cannot exist in MySQL, so no agent could solve it.
        await session.dispose();
        throw new TaskSetupError(`task ${index}: the task table cannot be created: ${session.setupError}`);
      }
      const tips = overlayTips(options.overlay, task.type);
      return new DbBenchEpisode({ bench: 'dbbench', split: options.split, index }, task, session, protocol, maxRounds, grading, tips, unreproducible);
    },
    close: () => options.backend.close(),
  };
}

export class DbBenchEpisode implements ToolEpisode {
  readonly tools;
  /** `goldUnreproducible: true` is added by `close()` once the task's gold check has answered. */
  readonly info: Record<string, unknown>;
  private readonly state: DbBenchEpisodeState;

  constructor(
    readonly task: TaskRef,
    private readonly data: DbBenchTask,
    private readonly session: DbSession,
    private readonly protocol: ReturnType<typeof loadDbBenchProtocol>,
    readonly maxRounds: number,
    private readonly grading: DbBenchGradingRule,
    private readonly overlayTips: string[],
    private readonly goldUnreproducible: Promise<boolean | null>,
  ) {
    this.tools = protocol.tools;
    this.info = { type: data.type };
    this.state = new DbBenchEpisodeState(data);
  }

  systemPrompt(init: { skills: string[]; toolHints: string[] }): string {
    return buildDbBenchSystemPrompt(this.protocol.systemPrompt, [...this.overlayTips, ...init.skills], init.toolHints);
  }

  firstUserMessage(): string {
    return buildDbBenchUserMessage(this.data);
  }

  hookContext(point: HookPoint): Record<string, unknown> {
    return buildDbBenchHookContext(point, this.state);
  }

  parseCall(call: ToolCall): ParsedCall | undefined {
    return parseToolCall(call);
  }


  hasTool(name: string): boolean {
    return name === 'execute_sql' || name === 'commit_final_answer';
  }

  async act(call: ParsedCall): Promise<ActResult> {
    if (call.tool === 'execute_sql') {
      const sql = typeof call.firstValue === 'string' ? call.firstValue : String(call.firstValue ?? '');
      const outcome = await this.session.execute(sql);
      const content = formatSqlOutcome(outcome);
      this.state.updateAfterSql(sql, content);
      return { kind: 'observation', content, status: 'executed' };
    }
    const answers = answerList(call.firstValue);
    if (this.data.kind === 'mutation') {
      const actual = await this.session.tableHash();
      const verdict = gradeMutation(actual, this.data.answerMd5 ?? '');
      return { kind: 'final', correct: verdict.correct, detail: { answer: answers, grader: 'table_hash', reason: verdict.reason } };
    }
    const verdict = gradeQueryAnswer(answers, this.data.label, this.grading);
    return { kind: 'final', correct: verdict.correct, detail: { answer: answers, grader: this.grading, reason: verdict.reason } };
  }

  noteTextOnlyTurn(): void {
    this.state.noteTextOnlyTurn();
  }

  noteToolTurn(): void {
    this.state.resetTextOnlyStreak();
  }

  textOnlyNudge(content: string): string {
    return content.includes('<tool_call>') ? XML_TOOL_TEXT_NUDGE : TEXT_ONLY_NUDGE;
  }

  badArgumentsReply(): string {
    return BAD_ARGUMENTS_REPLY;
  }

  unknownToolReply(): string {
    return UNKNOWN_FUNCTION_REPLY;
  }

  /**
   * Ends the episode's database (where the backend allows, without waiting for the database's reply) and
   * completes `info` with the gold check, which ran beside the episode. The record is built after this.
   */
  async close(): Promise<void> {
    if (this.session.disposeInBackground) this.session.disposeInBackground();
    const disposed = this.session.disposeInBackground ? Promise.resolve() : this.session.dispose();
    const [unreproducible] = await Promise.all([this.goldUnreproducible, disposed]);
    if (unreproducible === true) this.info.goldUnreproducible = true;
  }
}
