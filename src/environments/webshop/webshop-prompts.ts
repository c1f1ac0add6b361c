import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

import { ConfigError, type ToolSpec } from '../../episode/index.js';
import { pyStringRepr } from '../../python/python-text.js';

/**
 * The WebShop target protocol (AgentBench function-calling variant as Harness-R1 drives it, protocol.md
 * §7.1). The reference system prompt and tool schemas are read at run time from `agentbench_prompts.json`
 * (entry `webshop_fc`); the strings below are the harness's own.
 */
export const WEBSHOP_PROTOCOL_VERSION = 'webshop-fc-v1' as const;

/** Rounds per episode (protocol.md §7.1). */
export const WEBSHOP_DEFAULT_MAX_ROUNDS = 20;

export const WEBSHOP_TEXT_ONLY_NUDGE = 'You must call a tool! NEVER respond with only text.';
export const WEBSHOP_DEFAULT_BLOCK_MESSAGE = 'Harness blocked this action. Choose a better action.';
export const WEBSHOP_TASK_LIMIT_MESSAGE = 'Task limit reached.';
export const WEBSHOP_TIPS_HEADER = 'Some tips that may help for this task:';

/**
 * The built-in H3 shopping strategy appended to both tool descriptions whenever an on_init tool_hint is
 * installed (protocol.md §4.2, §10 item 10). The original's wording is not public; this is ours.
 */
export const WEBSHOP_H3_TOOL_TEXT: Readonly<Record<string, string>> = {
  search_action: 'Search with the product name and its key features from the instruction; leave out prices and filler words.',
  click_action: 'On a product page, click every required option (color, size, style) before clicking buy now; click values must match a clickable exactly.',
};

export interface WebShopProtocol {
  systemPrompt: string;
  tools: ToolSpec[];
  maxRounds: number;
}

const cache = new Map<string, WebShopProtocol>();

/** Where `agentbench_prompts.json` is: in `dataDir`, or in its parent when `dataDir` is the `webshop/` folder. */
export function webShopPromptsFile(dataDir: string): string {
  const direct = path.join(dataDir, 'agentbench_prompts.json');
  if (existsSync(direct)) return direct;
  const parent = path.join(dataDir, '..', 'agentbench_prompts.json');
  return existsSync(parent) ? parent : direct;
}

/** Reads the reference system prompt and tools (entry `webshop_fc`). */
export function loadWebShopProtocol(dataDir: string): WebShopProtocol {
  const file = webShopPromptsFile(dataDir);
  const cached = cache.get(file);
  if (cached) return cached;
  let entry: { system_prompt?: unknown; tools?: unknown; max_rounds?: unknown };
  try {
    entry = (JSON.parse(readFileSync(file, 'utf8')) as Record<string, typeof entry>).webshop_fc ?? {};
  } catch (cause) {
    throw new ConfigError({ message: `Cannot read the WebShop prompts from ${file}: ${(cause as Error).message}`, field: 'dataDir', cause });
  }
  if (typeof entry.system_prompt !== 'string' || !Array.isArray(entry.tools)) {
    throw new ConfigError({ message: `${file} has no usable 'webshop_fc' entry (system_prompt and tools).`, field: 'dataDir' });
  }
  const tools = (entry.tools as { function?: { name?: unknown; description?: unknown; parameters?: unknown } }[]).map((t) => {
    const fn = t.function ?? {};
    if (typeof fn.name !== 'string') throw new ConfigError({ message: `${file}: a webshop_fc tool has no name.`, field: 'dataDir' });
    return { name: fn.name, description: String(fn.description ?? ''), parameters: (fn.parameters ?? {}) as Record<string, unknown> };
  });
  const maxRounds = typeof entry.max_rounds === 'number' ? entry.max_rounds : WEBSHOP_DEFAULT_MAX_ROUNDS;
  const protocol = { systemPrompt: entry.system_prompt, tools, maxRounds };
  cache.set(file, protocol);
  return protocol;
}

/** The system prompt with on_init skills as a tips block. */
export function buildWebShopSystemPrompt(base: string, tips: readonly string[]): string {
  if (tips.length === 0) return base;
  return `${base}\n\n${WEBSHOP_TIPS_HEADER}\n${tips.map((t) => `- ${t}`).join('\n')}`;
}

/**
 * `patch_webshop_tool_descriptions`: appends the H3 text to both tools, then the extra hint after a blank
 * line unless the description already holds it. Returns new tool objects.
 */
export function patchWebShopToolDescriptions(tools: readonly ToolSpec[], extraHint: string): ToolSpec[] {
  return tools.map((tool) => {
    const h3 = WEBSHOP_H3_TOOL_TEXT[tool.name];
    if (h3 === undefined) return tool;
    let description = `${tool.description} ${h3}`;
    if (extraHint && !description.includes(extraHint)) description += `\n\n${extraHint}`;
    return { ...tool, description };
  });
}

/** The env's available actions as Python `str()` of the dict. */
export function renderAvailableActions(hasSearchBar: boolean, clickables: readonly string[]): string {
  return `{'has_search_bar': ${hasSearchBar ? 'True' : 'False'}, 'clickables': [${clickables.map(pyStringRepr).join(', ')}]}`;
}

export function initialObservationMessage(observation: string, availableActions: string): string {
  return `The initial observation:\n${observation}\n\nAvailable Actions:\n${availableActions}`;
}

export function observationMessage(observation: string, availableActions: string): string {
  return `Observation:\n${observation}\n\nAvailable Actions:\n${availableActions}`;
}

export function actionResultMessage(action: string, observation: string, availableActions: string): string {
  return `Action: ${action}\n\nObservation:\n${observation}\n\nAvailable Actions:\n${availableActions}`;
}
