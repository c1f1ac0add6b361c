import { readFileSync } from 'node:fs';
import path from 'node:path';

import type { ToolSpec } from '../../episode/index.js';
import { ConfigError } from '../../episode/index.js';

/**
 * The ALFWorld function-calling protocol (protocol.md §7.2). The system prompt and the `take_action` tool
 * are read at run time from `<dataDir>/agentbench_prompts.json` (entry `alfworld_fc`) so they stay
 * byte-identical to the reference; the strings below are the harness's own replies and headers.
 */
export const ALFWORLD_PROTOCOL_VERSION = 'alfworld-fc-v1' as const;

/** AgentBench-FC's `max_step` in the Harness-R1 configs (the class default is 20). */
export const ALFWORLD_DEFAULT_MAX_STEPS = 50;

export const TIPS_HEADER = 'Some tips that may help for this task:';
/** The reply to a turn without a tool call: the tool must be called, plain text is not allowed. */
export const ALFWORLD_TEXT_ONLY_NUDGE = 'You must call the take_action tool to act in the environment. Plain text replies are not allowed.';
/** The reply when the tool call cannot be processed (arguments that do not parse, no argument value). */
export const ALFWORLD_BAD_CALL_REPLY = 'No valid tool calls found. Please call a tool instead.';
export const ALFWORLD_AVAILABLE_ACTIONS = ' AVAILABLE ACTIONS: ';

export interface AlfworldProtocol {
  systemPrompt: string;
  tools: ToolSpec[];
}

const cache = new Map<string, AlfworldProtocol>();

/** Reads the reference system prompt and the take_action tool from `<dataDir>/agentbench_prompts.json`. */
export function loadAlfworldProtocol(dataDir: string): AlfworldProtocol {
  const file = path.join(dataDir, 'agentbench_prompts.json');
  const cached = cache.get(file);
  if (cached) return cached;
  let entry: { system_prompt?: unknown; tools?: unknown };
  try {
    entry = (JSON.parse(readFileSync(file, 'utf8')) as Record<string, typeof entry>).alfworld_fc ?? {};
  } catch (cause) {
    throw new ConfigError({ message: `Cannot read the ALFWorld prompts from ${file}: ${(cause as Error).message}`, field: 'dataDir', cause });
  }
  if (typeof entry.system_prompt !== 'string' || !Array.isArray(entry.tools)) {
    throw new ConfigError({ message: `${file} has no usable 'alfworld_fc' entry (system_prompt and tools).`, field: 'dataDir' });
  }
  const tools = (entry.tools as { function?: { name?: unknown; description?: unknown; parameters?: unknown } }[]).map((t) => {
    const fn = t.function ?? {};
    if (typeof fn.name !== 'string') throw new ConfigError({ message: `${file}: an alfworld_fc tool has no name.`, field: 'dataDir' });
    return { name: fn.name, description: String(fn.description ?? ''), parameters: (fn.parameters ?? {}) as Record<string, unknown> };
  });
  const protocol = { systemPrompt: entry.system_prompt, tools };
  cache.set(file, protocol);
  return protocol;
}

/** The system prompt with on_init skills appended as tips. */
export function buildAlfworldSystemPrompt(base: string, skills: readonly string[]): string {
  if (skills.length === 0) return base;
  return `${base}\n\n${TIPS_HEADER}\n${skills.map((s) => `- ${s}`).join('\n')}`;
}

/**
 * The tools with on_init tool hints appended to the take_action description. Unlike the reference, which
 * mutates the task-level tool list (so hints can leak across episodes), the hint applies to its episode only.
 */
export function withToolHints(tools: readonly ToolSpec[], hints: readonly string[]): ToolSpec[] {
  if (hints.length === 0) return [...tools];
  return tools.map((t) => (t.name === 'take_action' ? { ...t, description: `${t.description} ${hints.join(' ')}` } : t));
}

/** "Here is your task. {observation} AVAILABLE ACTIONS: {one per line}\n" */
export function buildAlfworldFirstUserMessage(observation: string, admissible: readonly string[]): string {
  return `Here is your task. ${observation}${ALFWORLD_AVAILABLE_ACTIONS}${admissible.join('\n')}\n`;
}

/** A tool result: the observation, then the admissible commands one per line. */
export function buildAlfworldToolResult(observation: string, admissible: readonly string[]): string {
  return `${observation}${ALFWORLD_AVAILABLE_ACTIONS}${admissible.join('\n')}`;
}

/**
 * The ALFWorld v0.2 text protocol (benchmarks.md §3.6): the instruction and the agent's reply come from
 * `<dataDir>/agentbench_prompts.json` (entry `alfworld_v0.2`), the one-shot examples from
 * `alfworld/prompts/alfworld_multiturn_plan_first.v0.2.json`, keyed by family (put, clean, heat, cool, puttwo,
 * examine).
 */
export const ALFWORLD_TEXT_PROTOCOL_VERSION = 'alfworld-text-v0.2' as const;
/** AgentBench v0.2's `max_step` for ALFWorld (configs/tasks/alfworld.yaml; the class default is 50). */
export const ALFWORLD_TEXT_DEFAULT_MAX_STEPS = 35;
/** Put in front of the first one-shot user turn. */
export const ALFWORLD_ONE_SHOT_PREFIX = 'Here is one example.\n';
export const ALFWORLD_ACTION_HINT_HEADER = 'Action hint:';
export const ALFWORLD_ONE_SHOT_FILE = path.join('alfworld', 'prompts', 'alfworld_multiturn_plan_first.v0.2.json');

export interface AlfworldTextProtocol {
  instruction: string;
  agentReply: string;
  /** Alternating user/assistant turns per family key, starting with a user turn. */
  oneShot: Readonly<Record<string, readonly string[]>>;
}

const textCache = new Map<string, AlfworldTextProtocol>();

/** Reads the v0.2 instruction, the agent's first reply and the one-shot examples. */
export function loadAlfworldTextProtocol(dataDir: string): AlfworldTextProtocol {
  const cached = textCache.get(dataDir);
  if (cached) return cached;
  const file = path.join(dataDir, 'agentbench_prompts.json');
  const shotFile = path.join(dataDir, ALFWORLD_ONE_SHOT_FILE);
  let entry: { user_prompt_1?: unknown; agent_reply_1?: unknown };
  let shots: unknown;
  try {
    entry = (JSON.parse(readFileSync(file, 'utf8')) as Record<string, typeof entry>)['alfworld_v0.2'] ?? {};
    shots = JSON.parse(readFileSync(shotFile, 'utf8'));
  } catch (cause) {
    throw new ConfigError({ message: `Cannot read the ALFWorld v0.2 prompts (${file}, ${shotFile}): ${(cause as Error).message}`, field: 'dataDir', cause });
  }
  if (typeof entry.user_prompt_1 !== 'string' || typeof entry.agent_reply_1 !== 'string') {
    throw new ConfigError({ message: `${file} has no usable 'alfworld_v0.2' entry (user_prompt_1 and agent_reply_1).`, field: 'dataDir' });
  }
  const oneShot: Record<string, string[]> = {};
  for (const [key, turns] of Object.entries((shots ?? {}) as Record<string, unknown>)) {
    if (!Array.isArray(turns) || turns.length === 0 || turns.length % 2 !== 0 || !turns.every((t) => typeof t === 'string')) {
      throw new ConfigError({ message: `${shotFile}: the '${key}' example must be a non-empty, even list of strings.`, field: 'dataDir' });
    }
    oneShot[key] = turns as string[];
  }
  const protocol = { instruction: entry.user_prompt_1, agentReply: entry.agent_reply_1, oneShot };
  textCache.set(dataDir, protocol);
  return protocol;
}

/**
 * The first user message of the text protocol: the instruction, then (harness analogue of the FC hooks) the
 * on_init skills as tips and the tool hints as an action hint, since there is no tool to describe.
 */
export function buildAlfworldTextInstruction(base: string, skills: readonly string[], toolHints: readonly string[]): string {
  let text = base;
  if (skills.length > 0) text += `${TIPS_HEADER}\n${skills.map((s) => `- ${s}`).join('\n')}\n\n`;
  if (toolHints.length > 0) text += `${ALFWORLD_ACTION_HINT_HEADER} ${toolHints.join(' ')}\n\n`;
  return text;
}

/** The one-shot turns for a family key, the first prefixed with "Here is one example.\n". */
export function alfworldOneShot(protocol: AlfworldTextProtocol, key: string): string[] {
  const turns = protocol.oneShot[key];
  if (!turns) throw new ConfigError({ message: `No one-shot example for the ALFWorld family '${key}'.`, field: 'dataDir' });
  return turns.map((t, i) => (i === 0 ? `${ALFWORLD_ONE_SHOT_PREFIX}${t}` : t));
}

/** A v0.2 observation message: the observation, the admissible commands one per line, and a final newline. */
export function buildAlfworldTextObservation(observation: string, admissible: readonly string[]): string {
  return `${buildAlfworldToolResult(observation, admissible)}\n`;
}

/** The reference's history reduction: everything from "AVAILABLE ACTIONS" on is cut from an answered message. */
export function trimAvailableActions(content: string): string {
  return content.split('AVAILABLE ACTIONS')[0] ?? content;
}
