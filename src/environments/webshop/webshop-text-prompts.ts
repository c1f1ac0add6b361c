import { readFileSync } from 'node:fs';

import { ConfigError } from '../../episode/index.js';
import { trimEndOf } from '../../python/text-scan.js';
import { scanWebShopTextAction } from './text-action-scan.js';
import { WEBSHOP_H3_TOOL_TEXT, WEBSHOP_TIPS_HEADER, webShopPromptsFile } from './webshop-prompts.js';

/**
 * The WebShop AgentBench v0.2 text protocol: the reference prompt, the "Ok." reply, the four-step one-shot
 * and the per-turn template are read at run time from `agentbench_prompts.json` (entry `webshop_v0.2`);
 * the strings below are the harness's own.
 */
export const WEBSHOP_TEXT_PROTOCOL_VERSION = 'webshop-text-v0.2' as const;

/** Rounds per episode when the prompts file names none (the v0.2 task loops ten times). */
export const WEBSHOP_TEXT_DEFAULT_MAX_ROUNDS = 10;

/** Heads the on_init tool hints in the first user prompt (the text analogue of the tool descriptions). */
export const WEBSHOP_TEXT_ACTION_HINTS_HEADER = 'How to use the actions:';

/**
 * The action regex of the v0.2 task, `[Aa]action: *\n* *((search|click)\[.+?])`. Python's `.` stops at
 * `\n` only, so `[^\n]` is used here (JavaScript's `.` would also stop at `\r`, U+2028 and U+2029). Shown
 * in messages; replies are read with the linear scan of `text-action-scan.ts`, which matches the same way.
 */
// Shown in messages only; scanWebShopTextAction is what runs on model text.
// eslint-disable-next-line regexp/no-super-linear-backtracking
export const WEBSHOP_TEXT_ACTION_PATTERN = /[Aa]ction: *\n* *((search|click)\[[^\n]+?\])/;

export interface WebShopTextMessage {
  role: 'user' | 'assistant';
  content: string;
}

export interface WebShopTextProtocol {
  userPrompt: string;
  agentReply: string;
  /** The one-shot example; the file's `agent` role is sent as `assistant`. */
  oneShot: WebShopTextMessage[];
  /** The per-turn template with `<observation>` and `<available_actions>` slots. */
  turnTemplate: string;
  maxRounds: number;
}

const cache = new Map<string, WebShopTextProtocol>();

/**
 * The file stores the template with escaped line breaks (`Observation:\\n<observation>…`); the reference
 * formats real line breaks, so `\n` sequences are turned into them here.
 */
function unescapeTemplate(template: string): string {
  return template.replace(/\\n/g, '\n');
}

/** Reads the v0.2 prompt, reply, one-shot, template and rounds (entry `webshop_v0.2`). */
export function loadWebShopTextProtocol(dataDir: string): WebShopTextProtocol {
  const file = webShopPromptsFile(dataDir);
  const cached = cache.get(file);
  if (cached) return cached;
  let entry: Record<string, unknown>;
  try {
    entry = ((JSON.parse(readFileSync(file, 'utf8')) as Record<string, Record<string, unknown>>)['webshop_v0.2'] ?? {});
  } catch (cause) {
    throw new ConfigError({ message: `Cannot read the WebShop prompts from ${file}: ${(cause as Error).message}`, field: 'dataDir', cause });
  }
  const bad = (what: string) => new ConfigError({ message: `${file}: the 'webshop_v0.2' entry has no usable ${what}.`, field: 'dataDir' });
  if (typeof entry.user_prompt_1 !== 'string') throw bad('user_prompt_1');
  if (typeof entry.agent_reply_1 !== 'string') throw bad('agent_reply_1');
  if (typeof entry.turn_template !== 'string') throw bad('turn_template');
  if (!Array.isArray(entry.one_shot_messages)) throw bad('one_shot_messages');
  const oneShot = (entry.one_shot_messages as unknown[]).map((m): WebShopTextMessage => {
    const { role, content } = (m ?? {}) as { role?: unknown; content?: unknown };
    if (typeof content !== 'string' || (role !== 'user' && role !== 'agent' && role !== 'assistant')) throw bad('one_shot_messages');
    return { role: role === 'user' ? 'user' : 'assistant', content };
  });
  const maxRounds = typeof entry.max_rounds === 'number' ? entry.max_rounds : WEBSHOP_TEXT_DEFAULT_MAX_ROUNDS;
  const protocol: WebShopTextProtocol = {
    userPrompt: entry.user_prompt_1,
    agentReply: entry.agent_reply_1,
    oneShot,
    turnTemplate: unescapeTemplate(entry.turn_template),
    maxRounds,
  };
  cache.set(file, protocol);
  return protocol;
}

/**
 * The first user prompt with the on_init effects, the text analogue of the FC system prompt and tool
 * descriptions: skills as the same tips block, then (when any tool hint was given) an action-hints block
 * holding the built-in H3 sentence of each action once and every distinct hint once.
 */
export function buildWebShopTextUserPrompt(base: string, tips: readonly string[], toolHints: readonly string[]): string {
  const blocks: string[] = [];
  if (tips.length > 0) blocks.push(`${WEBSHOP_TIPS_HEADER}\n${tips.map((t) => `- ${t}`).join('\n')}`);
  const hints = [...new Set(toolHints.filter((h) => h !== ''))];
  if (hints.length > 0) {
    const h3 = [`search[keywords]: ${WEBSHOP_H3_TOOL_TEXT.search_action}`, `click[value]: ${WEBSHOP_H3_TOOL_TEXT.click_action}`].join('\n');
    blocks.push([`${WEBSHOP_TEXT_ACTION_HINTS_HEADER}\n${h3}`, ...hints].join('\n\n'));
  }
  if (blocks.length === 0) return base;
  return `${trimEndOf(base, '\n')}\n\n${blocks.join('\n\n')}\n`;
}

/** One turn's user message: the template with the observation (as is, not quoted) and the actions dict. */
export function renderWebShopTextTurn(template: string, observation: string, availableActions: string): string {
  return template.replace(/<observation>|<available_actions>/g, (slot) => (slot === '<observation>' ? observation : availableActions));
}

/** The action a reply names, as the v0.2 task reads it: the first regex match, or undefined. */
export function parseWebShopTextAction(content: string): { action: string; verb: 'search' | 'click'; value: string } | undefined {
  return scanWebShopTextAction(content, 'python');
}
