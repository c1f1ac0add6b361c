/**
 * One kv-store episode, as the generic tool-calling loop plays it (`playToolCalling`): the system prompt
 * (with the tips and tool notes an `on_init` hook returns), the task message, tool execution on the store,
 * the final answer graded by the checker, and the hook context.
 *
 * Hook context: the generic one (`GenericToolContext`, the keys the symbolic engineer's generic templates
 * read) plus `kv` {`reads`, `writes`, `deletes`, `keys`: the store's size}. Effect rules are the loop's:
 * on_init skills and tool hints go into the system prompt, make_pre_hint and on_post_step messages become
 * user messages, an on_before_action block is the tool reply of that call (the call does not run); rewrite
 * and force effects are ignored.
 */
import {
  GenericToolContext,
  parseToolCall,
  type ActResult,
  type EpisodeSource,
  type HookPoint,
  type ParsedCall,
  type TaskRef,
  type ToolCall,
  type ToolEpisode,
} from 'harness-r1';

import { gradeKv } from './grade.js';
import { FINAL_TOOL, KV_TOOLS, KvStore, TOOL_NAMES } from './store.js';
import type { KvTask } from './tasks.js';

export const KV_BENCH = 'kv-store';
export const KV_DEFAULT_MAX_ROUNDS = 20;

export const SYSTEM_PROMPT = [
  'You operate a key-value store through tools. Keys and values are strings.',
  'Use get, put, delete and list_keys to read and change the store, and finish every task with one submit call.',
  'Answer only with tool calls.',
].join('\n');
export const TIPS_HEADER = 'Tips for this task:';
export const TOOL_NOTES_HEADER = 'Tool notes:';
/** The runtime's reply to a turn without a tool call. */
export const TEXT_ONLY_NUDGE = 'No tool was called. Continue the task with a tool call.';
export const BAD_ARGUMENTS_REPLY = 'ERROR the arguments must be a JSON object.';
export const UNKNOWN_TOOL_REPLY = `ERROR there is no such tool; the tools are ${TOOL_NAMES.join(', ')}.`;

export function taskMessage(task: KvTask): string {
  return `Task: ${task.instruction}`;
}

export function systemPromptWith(init: { skills: string[]; toolHints: string[] }): string {
  const parts = [SYSTEM_PROMPT];
  if (init.skills.length > 0) parts.push([TIPS_HEADER, ...init.skills.map((s) => `- ${s}`)].join('\n'));
  if (init.toolHints.length > 0) parts.push([TOOL_NOTES_HEADER, ...init.toolHints.map((s) => `- ${s}`)].join('\n'));
  return parts.join('\n\n');
}

export class KvEpisode implements ToolEpisode {
  readonly tools = KV_TOOLS;
  readonly info: Record<string, unknown>;
  private readonly store: KvStore;
  private readonly context: GenericToolContext;

  constructor(
    readonly task: TaskRef,
    private readonly spec: KvTask,
    readonly maxRounds: number,
  ) {
    this.info = { type: spec.family };
    this.store = new KvStore(spec.store);
    this.context = new GenericToolContext(KV_BENCH, { id: `${task.split}/${spec.id}`, text: spec.instruction, type: spec.family }, TOOL_NAMES, maxRounds);
  }

  systemPrompt(init: { skills: string[]; toolHints: string[] }): string {
    return systemPromptWith(init);
  }

  firstUserMessage(): string {
    return taskMessage(this.spec);
  }

  hookContext(point: HookPoint): Record<string, unknown> {
    const s = this.store;
    return { ...this.context.context(point), kv: { reads: s.reads, writes: s.writes, deletes: s.deletes, keys: Object.keys(s.snapshot()).length } };
  }

  parseCall(call: ToolCall): ParsedCall | undefined {
    const parsed = parseToolCall(call);
    if (!parsed) this.context.noteInvalidCall(call);
    return parsed;
  }

  /** The loop asks this once per parsed call; an unknown tool is counted as an invalid call here. */
  hasTool(name: string): boolean {
    const known = TOOL_NAMES.includes(name);
    if (!known) this.context.noteInvalidCall({ id: '', name, arguments: '' });
    return known;
  }

  act(call: ParsedCall): Promise<ActResult> {
    if (call.tool === FINAL_TOOL) {
      const answer = call.args.answer;
      const text = typeof answer === 'string' || typeof answer === 'number' ? String(answer) : '';
      const finalStore = this.store.snapshot();
      const verdict = gradeKv(this.spec, finalStore, text);
      return Promise.resolve({ kind: 'final', correct: verdict.correct, detail: { answer: text, ...verdict } });
    }
    const reply = this.store.run(call.tool, call.args);
    this.context.noteExecuted(call, reply.text, reply.isError);
    return Promise.resolve({ kind: 'observation', content: reply.text, status: 'executed' });
  }

  noteTextOnlyTurn(): void {
    this.context.noteTextOnlyTurn();
  }

  noteToolTurn(): void {
    this.context.noteToolTurn();
  }

  textOnlyNudge(): string {
    return TEXT_ONLY_NUDGE;
  }

  badArgumentsReply(): string {
    return BAD_ARGUMENTS_REPLY;
  }

  unknownToolReply(): string {
    return UNKNOWN_TOOL_REPLY;
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}

/** The tasks of a split (or task file) as the episodes the loop plays. */
export function kvEpisodes(tasks: readonly KvTask[], split: string, maxRounds: number): EpisodeSource<KvEpisode> {
  return {
    bench: KV_BENCH,
    split,
    size: tasks.length,
    openEpisode(index) {
      const spec = tasks[index];
      if (spec === undefined) return Promise.reject(new RangeError(`kv-store ${split} has no task ${index}`));
      return Promise.resolve(new KvEpisode({ bench: KV_BENCH, split, index }, spec, maxRounds));
    },
    close: () => Promise.resolve(),
  };
}
