/**
 * An in-process ChatModel that replays a fixed script of assistant turns, for tests of the runtime,
 * hooks and evaluation without any server. It records every request it receives and throws a
 * {@link ScriptExhaustedError} when asked for more turns than the script holds.
 */
import { readFileSync } from 'node:fs';

import { z } from 'zod';

import { ConfigError, HarnessError } from '../episode/index.js';
import type { ChatMessage, ToolCall } from '../episode/index.js';
import { ModelCallError } from './chat-model.js';
import type { ChatModel, ChatRequest, ChatResponse } from './chat-model.js';

/** A tool call in a script. Object arguments are serialized to JSON text; missing arguments become `{}`. */
export interface ScriptedToolCall {
  /** Default `call_<turn index>_<call index>`. */
  id?: string;
  name: string;
  arguments?: string | Record<string, unknown>;
}

/** An assistant turn to play. */
export interface ScriptedReply {
  /** Default `null` when the turn has tool calls, otherwise `''`. */
  content?: string | null;
  toolCalls?: ScriptedToolCall[];
  reasoning?: string;
  /** Default `tool_calls` when the turn has tool calls, otherwise `stop`. */
  finishReason?: string;
  /** Default zero tokens. */
  usage?: { promptTokens: number; completionTokens: number };
}

/** A failed call to play: thrown as a ModelCallError with these fields. */
export interface ScriptedFailure {
  error: { message: string; status?: number; retryable?: boolean };
}

/** One entry of a script; a function computes the turn from the request (in-process scripts only). */
export type ScriptedTurn = ScriptedReply | ScriptedFailure | ((request: ChatRequest, turnIndex: number) => ScriptedReply | ScriptedFailure);

export interface ScriptedModel extends ChatModel {
  /** Every request received, in order; messages are copied and `signal` is dropped. */
  readonly calls: readonly ChatRequest[];
  /** Turns not played yet. */
  remaining(): number;
}

export interface ScriptedModelOptions {
  /** Default `scripted`. */
  label?: string;
}

/** Thrown when a scripted model is called more often than its script allows: the test or script is wrong. */
export class ScriptExhaustedError extends HarnessError {
  readonly code = 'script_exhausted' as const;
  readonly callNumber: number;
  readonly scriptLength: number;
  constructor(options: { label: string; callNumber: number; scriptLength: number; lastMessage: ChatMessage | undefined }) {
    const last = options.lastMessage;
    const lastText = last === undefined ? 'none' : `${last.role}: ${JSON.stringify(truncate(last.content ?? '', 160))}`;
    super({
      message:
        `Scripted model '${options.label}' ran out of turns: call #${options.callNumber} arrived but the script has ` +
        `${options.scriptLength} turn(s). Last message of that call: ${lastText}.`,
    });
    this.callNumber = options.callNumber;
    this.scriptLength = options.scriptLength;
  }
}

export function createScriptedModel(turns: readonly ScriptedTurn[], options: ScriptedModelOptions = {}): ScriptedModel {
  const label = options.label ?? 'scripted';
  const calls: ChatRequest[] = [];
  return {
    label,
    simulated: true,
    calls,
    remaining: () => Math.max(0, turns.length - calls.length),
    complete(request: ChatRequest): Promise<ChatResponse> {
      const turnIndex = calls.length;
      const { signal: _signal, ...rest } = request;
      calls.push(structuredClone(rest));
      const entry = turns[turnIndex];
      if (entry === undefined) {
        return Promise.reject(
          new ScriptExhaustedError({ label, callNumber: turnIndex + 1, scriptLength: turns.length, lastMessage: request.messages.at(-1) }),
        );
      }
      const turn = typeof entry === 'function' ? entry(request, turnIndex) : entry;
      if ('error' in turn) {
        const { message, status, retryable } = turn.error;
        return Promise.reject(
          new ModelCallError({ message, status, retryable: retryable ?? false, failure: status === undefined ? 'network' : 'http_status' }),
        );
      }
      return Promise.resolve(toResponse(turn, turnIndex));
    },
  };
}

function toResponse(turn: ScriptedReply, turnIndex: number): ChatResponse {
  const toolCalls: ToolCall[] = (turn.toolCalls ?? []).map((call, callIndex) => ({
    id: call.id ?? `call_${turnIndex}_${callIndex}`,
    name: call.name,
    arguments: call.arguments === undefined ? '{}' : typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments),
  }));
  const hasCalls = toolCalls.length > 0;
  return {
    message: {
      content: turn.content !== undefined ? turn.content : hasCalls ? null : '',
      toolCalls,
      ...(turn.reasoning === undefined ? {} : { reasoning: turn.reasoning }),
    },
    finishReason: turn.finishReason ?? (hasCalls ? 'tool_calls' : 'stop'),
    usage: turn.usage ?? { promptTokens: 0, completionTokens: 0 },
    latencyMs: 0,
  };
}

/** Version of the scripted-model file format read by {@link loadScriptedModelFile}. */
export const SCRIPTED_MODEL_FILE_VERSION = 1 as const;

const toolCallSchema = z.strictObject({
  id: z.string().min(1).optional(),
  name: z.string().min(1),
  arguments: z.union([z.string(), z.record(z.string(), z.unknown())], { error: 'expected a JSON string or an object' }).optional(),
});

const replySchema = z.strictObject({
  content: z.string().nullable().optional(),
  toolCalls: z.array(toolCallSchema).optional(),
  reasoning: z.string().optional(),
  finishReason: z.string().min(1).optional(),
  usage: z.strictObject({ promptTokens: z.number().int().nonnegative(), completionTokens: z.number().int().nonnegative() }).optional(),
});

const failureSchema = z.strictObject({
  error: z.strictObject({
    message: z.string().min(1),
    status: z.number().int().min(100).max(599).optional(),
    retryable: z.boolean().optional(),
  }),
});

const fileSchema = z.strictObject({
  schemaVersion: z.literal(SCRIPTED_MODEL_FILE_VERSION),
  label: z.string().min(1).optional(),
  turns: z.array(z.unknown()),
});

/**
 * Reads a scripted model from a JSON file: either `{"schemaVersion": 1, "label"?: "...", "turns": [...]}` or
 * a bare array of turns. A turn is `{"content"?, "toolCalls"?: [{"id"?, "name", "arguments"?}], "reasoning"?,
 * "finishReason"?, "usage"?}` or `{"error": {"message", "status"?, "retryable"?}}`. Unknown keys are errors.
 * Any problem is a ConfigError naming the file and the bad field (e.g. `turns[2].toolCalls[0].name`).
 */
export function loadScriptedModelFile(path: string): ScriptedModel {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (cause) {
    throw new ConfigError({ message: `Cannot read scripted model file ${path}: ${(cause as Error).message}`, field: 'scripted', cause });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (cause) {
    throw new ConfigError({ message: `Scripted model file ${path} is not valid JSON: ${(cause as Error).message}`, field: 'scripted', cause });
  }
  const { turns, label } = parseScriptedModelJson(json, path);
  return createScriptedModel(turns, { label: label ?? `scripted:${path}` });
}

/** Validates the parsed content of a scripted model file; `source` names it in error messages. */
export function parseScriptedModelJson(json: unknown, source: string): { turns: ScriptedTurn[]; label: string | undefined } {
  let rawTurns: unknown[];
  let label: string | undefined;
  let prefix: (string | number)[];
  if (Array.isArray(json)) {
    rawTurns = json;
    prefix = [];
  } else {
    const file = fileSchema.safeParse(json);
    if (!file.success) throw invalid(source, file.error.issues, []);
    rawTurns = file.data.turns;
    label = file.data.label;
    prefix = ['turns'];
  }
  const turns = rawTurns.map((raw, index): ScriptedTurn => {
    const isFailure = typeof raw === 'object' && raw !== null && 'error' in raw;
    const parsed = isFailure ? failureSchema.safeParse(raw) : replySchema.safeParse(raw);
    if (!parsed.success) throw invalid(source, parsed.error.issues, [...prefix, index]);
    return parsed.data as ScriptedTurn;
  });
  return { turns, label };
}

function invalid(source: string, issues: readonly z.core.$ZodIssue[], prefix: (string | number)[]): ConfigError {
  const described = issues.flatMap((issue) => {
    const path = [...prefix, ...issue.path.map((key) => (typeof key === 'symbol' ? String(key) : key))];
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => {
        const camel = key.replace(/_([a-z])/g, (_match, letter: string) => letter.toUpperCase());
        return { field: formatPath([...path, key]), text: camel === key ? 'unknown field' : `unknown field (did you mean "${camel}"?)` };
      });
    }
    return [{ field: formatPath(path), text: issue.message }];
  });
  const first = described[0];
  return new ConfigError({
    message: `Invalid scripted model file ${source}: ${described.map((d) => `${d.field || '(top level)'}: ${d.text}`).join('; ')}`,
    field: first?.field || 'scripted',
  });
}

/** `['turns', 2, 'toolCalls', 0, 'name']` → `turns[2].toolCalls[0].name`. */
function formatPath(path: readonly (string | number)[]): string {
  return path.reduce<string>((out, key) => (typeof key === 'number' ? `${out}[${key}]` : out === '' ? key : `${out}.${key}`), '');
}

function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}…`;
}
