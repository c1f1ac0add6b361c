/**
 * The generic hook context: the `ctx` any tool-calling benchmark can give its hooks without designing its
 * own, and the one the symbolic engineer's generic templates read. The built-in benchmarks keep the
 * original's contexts (protocol.md §4.2–4.4); a benchmark added as a plugin may use this one.
 *
 * Keys (snake_case, as the original contexts):
 * - `benchmark`, `task` {`id`, `text`, `type`}, `tools` (the tool names), `step`, `max_steps`, `remaining_steps`;
 * - `action` {`tool`, `value` (the first argument as text), `args`} at on_before_action and on_post_step;
 * - `observation`: what the last executed call returned (on_post_step: this call's result);
 * - `state` {`calls`, `invalid_calls`, `text_only_streak`, `last_invalid`, `repeated_action_count` (earlier
 *   calls identical to the current one, tool and arguments), `last_tool`, `last_value`, `last_error`}.
 */
import type { ToolCall } from '../episode/index.js';
import type { HookPoint, ParsedCall } from '../environments/environment.js';

export interface GenericTask {
  /** A stable id of the task, e.g. `unit-conversion/dev/3` (never an answer). */
  id: string;
  /** The task as the agent reads it. */
  text: string;
  /** A family or type, when the benchmark has one. */
  type?: string;
}

/** Tracks what the generic context reports; the benchmark's episode feeds it as the loop runs. */
export class GenericToolContext {
  private calls = 0;
  private invalidCalls = 0;
  private textOnlyStreak = 0;
  private lastInvalid = false;
  private lastTool = '';
  private lastValue = '';
  private lastError = false;
  private lastObservation = '';
  private readonly seen = new Map<string, number>();

  constructor(
    readonly bench: string,
    readonly task: GenericTask,
    readonly tools: readonly string[],
    readonly maxSteps: number,
  ) {}

  /** A turn with no tool call. */
  noteTextOnlyTurn(): void {
    this.textOnlyStreak++;
  }

  /** A turn with tool calls. */
  noteToolTurn(): void {
    this.textOnlyStreak = 0;
  }

  /** A call that could not run: arguments that did not parse, or a tool the benchmark does not have. */
  noteInvalidCall(raw: ToolCall): void {
    this.calls++;
    this.invalidCalls++;
    this.lastInvalid = true;
    this.lastTool = raw.name;
    this.lastValue = '';
  }

  /** A call that ran, with what it returned and whether that was an error. */
  noteExecuted(call: ParsedCall, observation: string, isError: boolean): void {
    this.calls++;
    this.lastInvalid = false;
    this.lastTool = call.tool;
    this.lastValue = valueText(call.firstValue);
    this.lastError = isError;
    this.lastObservation = observation;
    const key = callKey(call);
    this.seen.set(key, (this.seen.get(key) ?? 0) + 1);
  }

  /** The ctx of a hook call site. */
  context(point: HookPoint): Record<string, unknown> {
    const call = point.hook === 'on_before_action' || point.hook === 'on_post_step' ? point.call : undefined;
    const repeated = call ? (this.seen.get(callKey(call)) ?? 0) - (point.hook === 'on_post_step' ? 1 : 0) : 0;
    return {
      benchmark: this.bench,
      task: { id: this.task.id, text: this.task.text, type: this.task.type ?? '' },
      tools: [...this.tools],
      step: point.round,
      max_steps: this.maxSteps,
      remaining_steps: point.remaining,
      ...(call ? { action: { tool: call.tool, value: valueText(call.firstValue), args: call.args } } : {}),
      observation: point.hook === 'on_post_step' ? point.observation : this.lastObservation,
      state: {
        calls: this.calls,
        invalid_calls: this.invalidCalls,
        text_only_streak: this.textOnlyStreak,
        last_invalid: this.lastInvalid,
        repeated_action_count: Math.max(0, repeated),
        last_tool: this.lastTool,
        last_value: this.lastValue,
        last_error: this.lastError,
      },
    };
  }
}

function valueText(value: unknown): string {
  if (typeof value === 'string') return value;
  return value === undefined ? '' : JSON.stringify(value);
}

/** Tool and arguments, with keys sorted, as one comparable text. */
function callKey(call: ParsedCall): string {
  const sorted = Object.keys(call.args)
    .sort()
    .map((k) => [k, call.args[k]]);
  return `${call.tool}\u0000${JSON.stringify(sorted)}`;
}
