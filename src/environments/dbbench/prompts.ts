import { readFileSync } from 'node:fs';
import path from 'node:path';

import { ConfigError, type ToolSpec } from '../../episode/index.js';

/**
 * The DBBench target protocol of the original release (AgentBench function-calling variant, as
 * Harness-R1 drives it). The reference system prompt and tool schemas are read from the shipped
 * `agentbench_prompts.json` (entry `dbbench_fc`) so they stay byte-identical to the reference; the
 * strings below are the harness's own replies and section headers.
 */
export const DBBENCH_PROTOCOL_VERSION = 'dbbench-fc-v1' as const;

/** Rounds per episode. Harness-R1 runs DBBench with 20 (protocol.md §7.3); AgentBench's config uses 15. */
export const DBBENCH_DEFAULT_MAX_ROUNDS = 20;
export const AGENTBENCH_MAX_ROUNDS = 15;

/** SQL statement timeout of the original (60 s). */
export const DBBENCH_SQL_TIMEOUT_MS = 60_000;

export const TEXT_ONLY_NUDGE = 'No executable tool calls found. Please call a tool.';
export const XML_TOOL_TEXT_NUDGE =
  'No executable tool calls found. Your tool call was written as text in the message content; call the tool through the tools interface instead.';
export const BAD_ARGUMENTS_REPLY = 'Error: Failed to parse tool call arguments.';
export const UNKNOWN_FUNCTION_REPLY = 'Invalid function call. Please use execute_sql or commit_final_answer.';
export const DEFAULT_BLOCK_REPLY = 'Harness blocked this tool call. Choose a safer next step.';
export const TIPS_HEADER = 'Some tips that may help for this task:';
export const TOOL_HINT_HEADER = 'Additional reusable tool-use hint from the harness:';

export interface DbBenchProtocol {
  systemPrompt: string;
  tools: ToolSpec[];
}

const cache = new Map<string, DbBenchProtocol>();

/** Reads the reference system prompt and tools from `<dataDir>/agentbench_prompts.json`. */
export function loadDbBenchProtocol(dataDir: string): DbBenchProtocol {
  const file = path.join(dataDir, 'agentbench_prompts.json');
  const cached = cache.get(file);
  if (cached) return cached;
  let entry: { system_prompt?: unknown; tools?: unknown };
  try {
    entry = (JSON.parse(readFileSync(file, 'utf8')) as Record<string, typeof entry>).dbbench_fc ?? {};
  } catch (cause) {
    throw new ConfigError({ message: `Cannot read the DBBench prompts from ${file}: ${(cause as Error).message}`, field: 'dataDir', cause });
  }
  if (typeof entry.system_prompt !== 'string' || !Array.isArray(entry.tools)) {
    throw new ConfigError({ message: `${file} has no usable 'dbbench_fc' entry (system_prompt and tools).`, field: 'dataDir' });
  }
  const tools = (entry.tools as { function?: { name?: unknown; description?: unknown; parameters?: unknown } }[]).map((t) => {
    const fn = t.function ?? {};
    if (typeof fn.name !== 'string') throw new ConfigError({ message: `${file}: a dbbench_fc tool has no name.`, field: 'dataDir' });
    return { name: fn.name, description: String(fn.description ?? ''), parameters: (fn.parameters ?? {}) as Record<string, unknown> };
  });
  const protocol = { systemPrompt: entry.system_prompt, tools };
  cache.set(file, protocol);
  return protocol;
}

/** The system prompt, with on_init skills as a tips block and tool hints as a trailing section. */
export function buildDbBenchSystemPrompt(base: string, skills: readonly string[], toolHints: readonly string[]): string {
  let prompt = base;
  if (skills.length > 0) prompt += `\n\n${TIPS_HEADER}\n${skills.map((s) => `- ${s}`).join('\n')}`;
  if (toolHints.length > 0) prompt += `\n\n${TOOL_HINT_HEADER}\n${toolHints.join(' ')}`;
  return prompt;
}

/** The first user message: optional evidence, the table information, then the question. */
export function buildDbBenchUserMessage(task: { description: string; addDescription: string; evidence?: string }): string {
  let text = '';
  if (task.evidence) text += `Evidence about the question: ${task.evidence}\n`;
  text += `Additional table information about the question: ${task.addDescription}\n`;
  text += `Question: ${task.description}\n`;
  return text;
}
