/**
 * The assistant turn of an SFT row, written as the chat template expects it. With `prefill_think_patch`
 * the template opens the assistant turn with `<think>\n` itself (Qwen3.5 with thinking on), so the target
 * text continues the thinking block: `<think body>\n</think>\n<patch>\n{…}\n</patch>`, never a second
 * `<think>`. With `full_think_patch` the turn is the whole `<think>\n…\n</think>\n<patch>…</patch>`.
 *
 * A teacher may answer in either protocol (a hosted API cannot continue a prefill): its answer is split
 * into the think body and the last patch block, as the response protocols read them, and rewritten in the
 * row's protocol. The rewritten turn is what gets validated and rerun, so the row holds exactly the text
 * that passed.
 */
import { pyStrip } from '../../python/python-text.js';
import { ASSISTANT_TAG, extractPatchJson } from '../../patch/index.js';
import { closedTagBlocks, tagPair } from '../../patch/tag-blocks.js';
import type { EngineerPromptProtocol } from '../../engineer/engineer-prompt.js';
import { PREFILL_THINK } from '../../engineer/engineer-prompt.js';

/** The rules of the response protocols that make an answer incomplete (the other rejections are about the patch itself). */
const STRUCTURAL_RULES = new Set(['missing_think_block', 'missing_patch_block', 'empty_patch_block', 'prefill_starts_with_think']);

export type AnswerParts =
  | { complete: true; think: string; patch: string }
  | { complete: false; rule: string; message: string };

/** The think body and the last patch block of a teacher answer given in `protocol`, or why it is incomplete. */
export function answerParts(text: string, protocol: EngineerPromptProtocol): AnswerParts {
  const extracted = extractPatchJson(text, protocol);
  if (!extracted.ok && STRUCTURAL_RULES.has(extracted.rejection.rule)) {
    return { complete: false, rule: extracted.rejection.rule, message: extracted.rejection.message };
  }
  const stripped = pyStrip(text);
  const at = stripped.lastIndexOf(ASSISTANT_TAG);
  const answer = at < 0 ? stripped : stripped.slice(at + ASSISTANT_TAG.length);
  const full = protocol === 'prefill_think_patch' ? `${PREFILL_THINK}${pyStrip(answer)}` : answer;
  const think = closedTagBlocks(full, tagPair('think'))[0];
  const patch = closedTagBlocks(full, tagPair('patch')).at(-1);
  if (think === undefined || patch === undefined) return { complete: false, rule: think === undefined ? 'missing_think_block' : 'missing_patch_block', message: 'no closed think and patch blocks' };
  if (think.trim() === '') return { complete: false, rule: 'empty_think', message: 'the think block is blank' };
  if (/<\/?patch>/i.test(think)) return { complete: false, rule: 'patch_inside_think', message: 'the think block holds a patch tag' };
  return { complete: true, think: think.trim(), patch: pyStrip(patch) };
}

/** The assistant turn in the row's protocol (for prefill: what follows the template's `<think>\n`). */
export function assistantTurn(parts: { think: string; patch: string }, protocol: EngineerPromptProtocol): string {
  const body = `${parts.think}\n</think>\n<patch>\n${parts.patch}\n</patch>`;
  return protocol === 'prefill_think_patch' ? body : `${PREFILL_THINK}${body}`;
}
